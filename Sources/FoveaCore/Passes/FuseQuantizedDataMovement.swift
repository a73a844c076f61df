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
/// A Concat whose inputs have other scales than its output (onnxruntime gives
/// it the widest of them) becomes a byte copy too when each such input comes
/// from a QuantizedConv that nothing else reads: that convolution then
/// quantizes to the Concat's scale itself, clamped to the range its own scale
/// saturated to (one rounding where the float graph has two: within one output
/// step). Any other Concat of different scales stays in float32.
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
            // Every data input must be dequantized 8-bit values.
            let sources = dataInputs.compactMap { index.dequantized(node.inputs[$0]) }
            guard sources.count == dataInputs.count, let first = sources.first?.quantization,
                  let (qIndex, q, output) = index.requantized(node.outputs[0]) else { continue }
            var retargeted: [Int: Node] = [:]
            if case .concat = node.op, !sources.allSatisfy({ $0.quantization.sameMapping(as: output) }) {
                // Inputs of other scales: each must come from an integer convolution that can write the Concat's scale itself.
                var ok = true
                for (position, source) in zip(dataInputs, sources) where !source.quantization.sameMapping(as: output) {
                    guard let conv = Self.retarget(source.integers, read: node.inputs[position], from: source.quantization, to: output, index) else { ok = false; break }
                    retargeted[conv.index] = conv.node
                }
                guard ok, index.areFree(Array(retargeted.keys)) else { continue }
            } else {
                guard sources.allSatisfy({ $0.quantization.sameMapping(as: first) }) else { continue }
            }
            var fused = node
            fused.outputs = q.outputs
            if case .globalAveragePool = node.op {
                guard node.inputs.count == 1, let xZeroPoint = first.zeroPointName, let yZeroPoint = output.zeroPointName,
                      output.type == first.type else { continue }
                fused.op = .qLinearGlobalAveragePool(channelsLast: false)
                fused.inputs = [sources[0].integers, first.scaleName, xZeroPoint, output.scaleName, yZeroPoint]
            } else {
                // (A Concat with retargeted inputs has every input at the output's scale now.)
                guard output.sameMapping(as: first) || !retargeted.isEmpty else { continue }
                for (position, source) in zip(dataInputs, sources) { fused.inputs[position] = source.integers }
            }
            for (convIndex, conv) in retargeted { index.claim(removing: [], replacing: convIndex, with: conv) }
            index.claim(removing: [qIndex], replacing: nodeIndex, with: fused)
        }
        guard index.apply(to: &graph) else { return false }
        _ = graph.removingUnreadQuantization()
        return true
    }

    /// The QuantizedConv writing `integers`, read only through the DequantizeLinear
    /// whose output `dequantized` only the Concat reads, rewritten to quantize
    /// straight to the Concat's `target` (at least as coarse as `source`): its
    /// clamp keeps the saturation `source` applied, so the only difference from
    /// the float graph is one rounding instead of two (at most one output step).
    static func retarget(_ integers: String, read dequantized: String, from source: TensorQuantization, to target: TensorQuantization,
                         _ index: GraphPatternIndex) -> (index: Int, node: Node)? {
        guard source.type == target.type, source.scale <= target.scale, index.isPrivate(integers), index.isPrivate(dequantized),
              let (convIndex, conv) = index.producer(of: integers), case .quantizedConv(var attributes) = conv.op else { return nil }
        let range = attributes.outputRange
        let low = target.quantize(source.scale * Float(range.lowerBound - source.zeroPoint))
        let high = target.quantize(source.scale * Float(range.upperBound - source.zeroPoint))
        attributes.outputScale = target.scale
        attributes.outputZeroPoint = target.zeroPoint
        attributes.outputClamp = low...high
        var node = conv
        node.op = .quantizedConv(attributes)
        return (convIndex, node)
    }
}
