/// Replaces each `DequantizeLinear` of constant inputs (a quantized model's
/// int8 weights and int32 biases with their scales) by its float32 result,
/// computed once by the reference backend: the Conv, Gemm or MatMul after it
/// then reads float weights like any float model's, and every backend can claim it.
///
/// The values are exactly what the node would compute at run time, so this
/// pass changes no result and always runs. ``FuseQuantizedConv`` must see
/// `DequantizeLinear → Conv → QuantizeLinear` before this pass folds the weight
/// side away, so it comes first in ``GraphOptimizer``'s list; this pass folds what
/// it leaves (a non-zero weight zero point, a Gemm, a MatMul).
public struct FoldConstantDequantize: GraphPass {
    public var name: String { "FoldConstantDequantize" }

    /// Creates the pass. It has no settings.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        let graphOutputs = Set(graph.outputs.map(\.name))
        var removed = Set<Int>()
        var replaced: [String] = []
        for (index, node) in graph.nodes.enumerated() {
            guard case .dequantizeLinear = node.op, node.outputs.count == 1, !graphOutputs.contains(node.outputs[0]),
                  graph.initializers[node.outputs[0]] == nil else { continue }
            let inputs = node.inputs.map { $0.isEmpty ? nil : graph.initializers[$0] }
            guard zip(node.inputs, inputs).allSatisfy({ $0.0.isEmpty || $0.1 != nil }) else { continue }
            let type = try node.op.outputTypes(inputs: inputs.map { $0?.tensorType }, outputCount: 1)
            graph.initializers[node.outputs[0]] = try ReferenceBackend.evaluate(node.op, inputs: inputs, outputTypes: type)[0]
            removed.insert(index)
            replaced += node.inputs.filter { !$0.isEmpty }
        }
        guard graph.removeNodes(at: removed) else { return false }
        // The integer weights, scales and zero points nothing reads any more.
        var read = Set(graph.outputs.map(\.name))
        read.formUnion(graph.inputs.map(\.name))
        for node in graph.nodes { read.formUnion(node.inputs) }
        for name in replaced where !read.contains(name) { graph.initializers[name] = nil }
        return true
    }
}
