/// Moves the operators between integer steps onto the 8-bit values, so that no
/// DequantizeLinear/QuantizeLinear pair is left between them:
///
/// - `DequantizeLinear → op → QuantizeLinear`, where op is MaxPool, Concat,
///   Flatten, Reshape, Squeeze or Unsqueeze and every DequantizeLinear and the
///   QuantizeLinear share one scale, zero point and type, becomes op on the
///   8-bit values. Exact: these ops only pick or move values, and quantizing a
///   dequantized integer with the same scale and zero point gives it back.
/// - `DequantizeLinear → GlobalAveragePool → QuantizeLinear` becomes
///   ``Op/qLinearGlobalAveragePool(channelsLast:)``, onnxruntime's integer
///   mean (within one output step of the float pattern).
///
/// A Concat of inputs with different scales stays in float32.
public struct FuseQuantizedDataMovement: GraphPass {
    public var name: String { "FuseQuantizedDataMovement" }

    /// Creates the pass. It has no settings.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        var index = GraphPatternIndex(graph)
        for (nodeIndex, node) in graph.nodes.enumerated() where node.outputs.count == 1 && index.areFree([nodeIndex]) {
            let dataInputs: Range<Int>
            switch node.op {
            case .maxPool, .flatten, .reshape, .squeeze, .unsqueeze, .globalAveragePool: dataInputs = 0..<1
            case .concat: dataInputs = 0..<node.inputs.count
            default: continue
            }
            guard !node.inputs.isEmpty else { continue }
            let sources = dataInputs.map { index.dequantized(node.inputs[$0]) }
            guard let first = sources.first??.quantization, sources.allSatisfy({ $0?.quantization.sameMapping(as: first) == true }),
                  let (qIndex, q, output) = index.requantized(node.outputs[0]) else { continue }
            var fused = node
            fused.outputs = q.outputs
            if case .globalAveragePool = node.op {
                guard node.inputs.count == 1, let xZeroPoint = first.zeroPointName, let yZeroPoint = output.zeroPointName,
                      output.type == first.type else { continue }
                fused.op = .qLinearGlobalAveragePool(channelsLast: false)
                fused.inputs = [sources[0]!.integers, first.scaleName, xZeroPoint, output.scaleName, yZeroPoint]
            } else {
                guard output.sameMapping(as: first) else { continue }
                for (position, source) in zip(dataInputs, sources) { fused.inputs[position] = source!.integers }
            }
            index.claim(removing: [qIndex], replacing: nodeIndex, with: fused)
        }
        guard index.apply(to: &graph) else { return false }
        _ = graph.removingUnreadQuantization()
        return true
    }
}
