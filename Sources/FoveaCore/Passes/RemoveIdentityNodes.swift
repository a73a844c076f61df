/// Removes Identity nodes and inference Dropout nodes (without a mask
/// output): their readers read the node's input directly.
///
/// A node whose output is a graph output stays, so the graph's output names
/// do not change.
public struct RemoveIdentityNodes: GraphPass {
    public var name: String { "RemoveIdentityNodes" }

    /// Creates the pass. It has no settings; one value serves any number of graphs.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        let graphOutputs = Set(graph.outputs.map(\.name))
        var replacement: [String: String] = [:]
        var removed = Set<Int>()
        for (index, node) in graph.nodes.enumerated() where Self.isPassThrough(node) {
            let output = node.outputs[0]
            guard !graphOutputs.contains(output), let input = node.input(0) else { continue }
            // A chain of pass-through nodes resolves to the first real value.
            replacement[output] = replacement[input] ?? input
            removed.insert(index)
        }
        guard !removed.isEmpty else { return false }
        var kept: [Node] = []
        for (index, node) in graph.nodes.enumerated() where !removed.contains(index) {
            var node = node
            node.inputs = node.inputs.map { replacement[$0] ?? $0 }
            kept.append(node)
        }
        graph.nodes = kept
        return true
    }

    /// Identity, or Dropout whose optional mask output is absent or unnamed.
    static func isPassThrough(_ node: Node) -> Bool {
        switch node.op {
        case .identity:
            return node.outputs.count == 1 && node.inputs.count == 1
        case .dropout:
            return node.inputs.count == 1 && (node.outputs.count == 1 || node.outputs.dropFirst().allSatisfy(\.isEmpty))
        default:
            return false
        }
    }
}
