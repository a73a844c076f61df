/// Folds an Add of a Conv's output and another tensor of the same shape (a
/// residual connection, as ResNet and MobileNetV2 write them) into the Conv.
///
/// The Conv must have no fused activation yet (`Relu(Conv(x)) + r` is not
/// `Relu(Conv(x) + r)`), be ungrouped, and have its output read only by the
/// Add (not a graph output). The other Add input must already have the
/// output's shape (no broadcasting) and must not be the Conv's own input X,
/// since the fused step may write its output over the residual's memory.
/// The fused node takes the Add's place in the node order (the residual may
/// be computed after the Conv), keeps the Conv's name, gains the residual as
/// input 3 and writes the Add's output. A later ``FuseConvActivation`` round
/// then folds a Relu after the Add into the same node.
///
/// Backends add the residual while each output tile is still in registers,
/// or start the GEMM from it (C = r, then C += W·X), instead of reading and
/// writing the whole tensor again in a separate Add.
public struct FuseConvAdd: GraphPass {
    public var name: String { "FuseConvAdd" }

    /// Creates the pass. It has no settings; one value serves any number of graphs.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        let producer = graph.convsReadOnce()
        guard !producer.isEmpty else { return false }
        // Shapes tell whether the Add broadcasts; a graph whose shapes are not known yet is left alone.
        guard let types = try? graph.inferTypes() else { return false }

        var removed = Set<Int>()
        for (index, node) in graph.nodes.enumerated() {
            guard case .add = node.op, node.inputs.count == 2, node.outputs.count == 1 else { continue }
            // Either input may be the Conv's; the first one that qualifies is fused.
            for side in 0..<2 {
                let convOutput = node.inputs[side], residual = node.inputs[1 - side]
                guard let convIndex = producer[convOutput], !removed.contains(convIndex),
                      case .conv(var attributes) = graph.nodes[convIndex].op,
                      attributes.group == 1, !attributes.addsResidual,
                      !residual.isEmpty, residual != graph.nodes[convIndex].inputs.first,
                      let convType = types[convOutput], let residualType = types[residual],
                      let sumType = types[node.outputs[0]],
                      residualType == convType, sumType == convType else { continue }
                var fused = graph.nodes[convIndex]
                attributes.addsResidual = true
                fused.op = .conv(attributes)
                var inputs = fused.inputs
                while inputs.count < 3 { inputs.append("") }
                fused.inputs = Array(inputs.prefix(3)) + [residual]
                fused.outputs = node.outputs
                graph.nodes[index] = fused
                removed.insert(convIndex)
                break
            }
        }
        return graph.removeNodes(at: removed)
    }
}
