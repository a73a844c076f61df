/// Folds an elementwise activation (Relu, Clip, LeakyRelu, Sigmoid,
/// HardSigmoid, HardSwish, or any ``Op/unary(_:)`` such as SiLU, GELU, Tanh,
/// Elu; see ``FusedActivation``) into the Conv that feeds it.
///
/// A Conv whose output is read only by one such activation node (and is not a
/// graph output) becomes a single Conv node with ``ConvAttributes/activation``
/// set: it keeps the Conv's name and inputs and writes the activation's output,
/// so every later reader is unchanged. Backends then apply the activation while
/// each output tile is still in registers or cache, instead of in a second
/// pass over memory.
public struct FuseConvActivation: GraphPass {
    public var name: String { "FuseConvActivation" }

    /// Creates the pass. It has no settings; one value serves any number of graphs.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        let producer = graph.convsReadOnce()
        guard !producer.isEmpty else { return false }

        var removed = Set<Int>()
        for (index, node) in graph.nodes.enumerated() {
            guard let activation = FusedActivation(node.op), node.inputs.count == 1,
                  let convIndex = producer[node.inputs[0]],
                  case .conv(var attributes) = graph.nodes[convIndex].op else { continue }
            attributes.activation = activation
            graph.nodes[convIndex].op = .conv(attributes)
            graph.nodes[convIndex].outputs = node.outputs
            removed.insert(index)
        }
        return graph.removeNodes(at: removed)
    }
}
