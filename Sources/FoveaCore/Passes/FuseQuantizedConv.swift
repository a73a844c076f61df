/// Turns `DequantizeLinear → Conv (→ Relu | Clip) → QuantizeLinear`, as
/// onnxruntime's QDQ quantizer writes every convolution, into one
/// ``Op/quantizedConv(_:)`` on the 8-bit input, the int8 weights and the int32
/// bias, with every scale and zero point in its attributes (as onnxruntime's
/// QDQ transformer makes QLinearConv). A fused Relu or Clip becomes a clamp of
/// the quantized output, which is exact: rounding is monotone.
///
/// It fuses only what the integer kernels compute exactly as the pattern means:
/// - x: a per-tensor DequantizeLinear of uint8 or int8 with constant scale and zero point;
/// - w: a constant int8 DequantizeLinear, per tensor or per output channel (axis 0),
///   every weight zero point 0 (a non-zero one stays on the float path);
/// - bias (optional): a constant int32 DequantizeLinear with zero point 0 and the
///   scale `x_scale · w_scale[m]` (ONNX's rule, which makes its integers the sums' units);
/// - the Conv's output (after the activation) read only by one per-tensor QuantizeLinear.
///
/// The DequantizeLinear nodes stay while anything else reads them. The result is
/// QLinearConv's, whose float32 requantization may differ from the float pattern
/// by one output step where a value falls within rounding of a tie.
/// A QLinearConv (QOperator format) of the same constants becomes the same QuantizedConv.
///
/// Run it before ``FoldConstantDequantize``, which would fold the weights to float32.
public struct FuseQuantizedConv: GraphPass {
    public var name: String { "FuseQuantizedConv" }

    /// Creates the pass. It has no settings.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        var index = GraphPatternIndex(graph)
        for (convIndex, conv) in graph.nodes.enumerated() {
            if case .qLinearConv(let convolution) = conv.op, index.areFree([convIndex]),
               let fused = Self.quantizedConv(conv, convolution, index) {
                index.claim(removing: [], replacing: convIndex, with: fused)
                continue
            }
            guard case .conv(var convolution) = conv.op, !convolution.addsResidual, conv.outputs.count == 1,
                  index.areFree([convIndex]), let match = Self.match(conv, convolution, index) else { continue }
            convolution.activation = nil
            let attributes = QuantizedConvAttributes(
                convolution: convolution, inputScale: match.input.scale, inputZeroPoint: match.input.zeroPoint,
                weightScales: match.weightScales, weightZeroPoints: [Int](repeating: 0, count: match.weightScales.count),
                outputScale: match.output.scale, outputZeroPoint: match.output.zeroPoint, outputType: match.output.type,
                outputClamp: match.clamp)
            let fused = Node(name: conv.name, op: .quantizedConv(attributes), inputs: match.inputs, outputs: match.outputs)
            index.claim(removing: match.removed, replacing: convIndex, with: fused)
        }
        guard index.apply(to: &graph) else { return false }
        _ = graph.removingUnreadQuantization()
        return true
    }

    struct Match {
        var inputs: [String]
        var outputs: [String]
        var input: TensorQuantization
        var weightScales: [Float]
        var output: TensorQuantization
        var clamp: ClosedRange<Int>?
        /// The activation and QuantizeLinear nodes the fused node replaces.
        var removed: [Int]
    }

    static func match(_ conv: Node, _ convolution: ConvAttributes, _ index: GraphPatternIndex) -> Match? {
        guard conv.inputs.count >= 2, let (x, input) = index.dequantized(conv.inputs[0]),
              let (w, weightScales) = weights(conv.inputs[1], index) else { return nil }
        var inputs = [x, w]
        if conv.inputs.count > 2, !conv.inputs[2].isEmpty {
            guard let b = bias(conv.inputs[2], inputScale: input.scale, weightScales: weightScales, index) else { return nil }
            inputs.append(b)
        }
        // The activation: fused already, or the Conv's one reader.
        var activation = convolution.activation
        var value = conv.outputs[0], removed: [Int] = []
        if activation == nil, let (activationIndex, node) = index.soleConsumer(of: value, { FusedActivation($0) != nil }),
           node.inputs.count == 1, let found = FusedActivation(node.op) {
            activation = found
            value = node.outputs[0]
            removed.append(activationIndex)
        }
        guard let (qIndex, q, output) = index.requantized(value) else { return nil }
        removed.append(qIndex)
        let clamp: ClosedRange<Int>?
        switch activation {
        case nil: clamp = nil
        case .relu?: clamp = output.quantize(0)...(output.type.quantizedRange ?? 0...255).upperBound
        case .clip(let lower, let upper)?:
            let range = output.type.quantizedRange ?? 0...255
            let low = lower.map(output.quantize) ?? range.lowerBound, high = upper.map(output.quantize) ?? range.upperBound
            // Clip with min > max gives max everywhere (ONNX); a clamp cannot say that.
            guard !(lower?.isNaN ?? false), !(upper?.isNaN ?? false), low <= high, (lower ?? -.infinity) <= (upper ?? .infinity) else { return nil }
            clamp = low...high
        default: return nil
        }
        return Match(inputs: inputs, outputs: q.outputs, input: input, weightScales: weightScales, output: output, clamp: clamp, removed: removed)
    }

    /// A QLinearConv (a QOperator model's) with constant scales and zero points,
    /// int8 weights and weight zero points 0, as the same QuantizedConv: the two
    /// compute the same integers (the reference backend runs both alike).
    static func quantizedConv(_ node: Node, _ convolution: ConvAttributes, _ index: GraphPatternIndex) -> Node? {
        let constants = index.graph.initializers
        guard node.inputs.count >= 8, node.outputs.count == 1,
              let xScale = index.scalar(node.inputs[1]), let xZero = constants[node.inputs[2]], xZero.count == 1,
              let w = constants[node.inputs[3]], w.dataType == .int8, w.rank == 4,
              let wScales = constants[node.inputs[4]]?.floats, wScales.count == 1 || wScales.count == w.shape[0],
              let yScale = index.scalar(node.inputs[6]), let yZero = constants[node.inputs[7]], yZero.count == 1,
              let outputType = Optional(yZero.dataType), outputType.quantizedRange != nil, xZero.dataType.quantizedRange != nil,
              let wZeros = constants[node.inputs[5]]?.quantizedIntegers, wZeros.allSatisfy({ $0 == 0 }),
              [xScale, yScale].allSatisfy({ $0.isFinite && $0 > 0 }), wScales.allSatisfy({ $0.isFinite && $0 > 0 }) else { return nil }
        var inputs = [node.inputs[0], node.inputs[3]]
        if node.inputs.count > 8, !node.inputs[8].isEmpty {
            guard constants[node.inputs[8]] != nil else { return nil }
            inputs.append(node.inputs[8])
        }
        let attributes = QuantizedConvAttributes(
            convolution: convolution, inputScale: xScale, inputZeroPoint: xZero.quantizedIntegers?.first ?? 0,
            weightScales: wScales, weightZeroPoints: [Int](repeating: 0, count: wScales.count),
            outputScale: yScale, outputZeroPoint: yZero.quantizedIntegers?.first ?? 0, outputType: outputType)
        return Node(name: node.name, op: .quantizedConv(attributes), inputs: inputs, outputs: node.outputs)
    }

    /// A constant int8 DequantizeLinear of 4-D weights with zero points 0, per tensor or along axis 0.
    static func weights(_ value: String, _ index: GraphPatternIndex) -> (String, [Float])? {
        guard let producer = index.producer[value], case .dequantizeLinear(let axis) = index.graph.nodes[producer].op else { return nil }
        let node = index.graph.nodes[producer]
        guard node.inputs.count >= 2, let w = index.graph.initializers[node.inputs[0]], w.dataType == .int8, w.rank == 4,
              let scales = index.graph.initializers[node.inputs[1]]?.floats, scales.shape(matches: w, axis: axis),
              scales.allSatisfy({ $0.isFinite && $0 > 0 }),
              zeroPointsAreZero(node, index, count: scales.count) else { return nil }
        return (node.inputs[0], scales)
    }

    /// A constant int32 DequantizeLinear whose scale is `inputScale · weightScales[m]` and zero point 0.
    static func bias(_ value: String, inputScale: Float, weightScales: [Float], _ index: GraphPatternIndex) -> String? {
        guard let producer = index.producer[value], case .dequantizeLinear = index.graph.nodes[producer].op else { return nil }
        let node = index.graph.nodes[producer]
        guard node.inputs.count >= 2, let b = index.graph.initializers[node.inputs[0]], b.dataType == .int32 || b.dataType == .int64,
              b.rank == 1, let scales = index.graph.initializers[node.inputs[1]]?.floats,
              scales.count == 1 || scales.count == b.count, weightScales.count == 1 || weightScales.count == b.count,
              zeroPointsAreZero(node, index, count: scales.count) else { return nil }
        for m in 0..<b.count {
            guard scales[scales.count == 1 ? 0 : m] == inputScale * weightScales[weightScales.count == 1 ? 0 : m] else { return nil }
        }
        return node.inputs[0]
    }

    /// Whether the node's zero point is absent or constant zeros.
    static func zeroPointsAreZero(_ node: Node, _ index: GraphPatternIndex, count: Int) -> Bool {
        guard node.inputs.count > 2, !node.inputs[2].isEmpty else { return true }
        guard let zeroPoints = index.graph.initializers[node.inputs[2]]?.quantizedIntegers else { return false }
        return zeroPoints.count == count && zeroPoints.allSatisfy { $0 == 0 }
    }
}

private extension Array where Element == Float {
    /// One scale, or one per output channel of 4-D weights `w` along axis 0.
    func shape(matches w: Tensor, axis: Int) -> Bool {
        count == 1 || (count == w.shape[0] && (axis == 0 || axis == -w.rank))
    }
}
