/// The quantized operators, literally as ONNX defines them: QuantizeLinear,
/// DequantizeLinear, DynamicQuantizeLinear, QLinearConv, QLinearMatMul,
/// ConvInteger, MatMulInteger, and Fovea's QuantizedConv.
///
/// Float steps are done in float32 in the order onnxruntime does them (x / scale,
/// `x_scale * w_scale / y_scale`, `Float(accumulator) * multiplier`), so the
/// oracle agrees with onnxruntime bit for bit; integer sums are exact (Double
/// sums of small integers, narrowed to int32 as the int32 accumulator wraps).
enum ReferenceQuantization {
    /// `saturate(roundHalfToEven(value) + zeroPoint)` into `range`; NaN gives the zero point.
    static func saturate(_ value: Float, zeroPoint: Int, _ range: ClosedRange<Int>) -> Int {
        guard !value.isNaN else { return zeroPoint }
        let shifted = Double(value.rounded(.toNearestOrEven)) + Double(zeroPoint)
        return Int(Swift.min(Swift.max(shifted, Double(range.lowerBound)), Double(range.upperBound)))
    }

    /// Integers as a tensor of an 8-bit type or int32.
    static func tensor(_ values: [Int], shape: [Int], _ type: DataType) -> Tensor {
        switch type {
        case .uint8: return Tensor(uncheckedShape: shape, storage: .uint8(values.map { UInt8(truncatingIfNeeded: $0) }))
        case .int8: return Tensor(uncheckedShape: shape, storage: .int8(values.map { Int8(truncatingIfNeeded: $0) }))
        case .int64: return Tensor(uncheckedShape: shape, storage: .int64(values.map { Int64($0) }))
        default: return Tensor(uncheckedShape: shape, storage: .int32(values.map { Int32(truncatingIfNeeded: $0) }))
        }
    }

    /// For each element of `shape` in row-major order, the index of its slice
    /// along `axis` when `parameterCount > 1` (per-axis), else 0 (per-tensor).
    static func parameterIndices(_ shape: [Int], axis: Int, parameterCount: Int) throws -> [Int] {
        guard parameterCount > 1 else { return [Int](repeating: 0, count: shape.elementCount) }
        let axis = try normalizedAxis(axis, rank: shape.count)
        let inner = shape[(axis + 1)...].reduce(1, *)
        return (0..<shape.elementCount).map { ($0 / inner) % shape[axis] }
    }

    static func quantizeLinear(_ args: ReferenceInputs, _ attributes: QuantizeLinearAttributes) throws -> Tensor {
        let x = try args.tensor(0), values = try x.requireFloats("x")
        let scales = try args.floats(1)
        let zeroPoints = args.optional(2)?.quantizedIntegers ?? [Int](repeating: 0, count: scales.count)
        let range = attributes.outputType.quantizedRange ?? 0...255
        let index = try parameterIndices(x.shape, axis: attributes.axis, parameterCount: scales.count)
        let q = values.indices.map { i in saturate(values[i] / scales[index[i]], zeroPoint: zeroPoints[index[i]], range) }
        return tensor(q, shape: x.shape, attributes.outputType)
    }

    static func dequantizeLinear(_ args: ReferenceInputs, axis: Int) throws -> Tensor {
        let x = try args.tensor(0)
        guard let values = x.quantizedIntegers else {
            throw FoveaError(.unsupported, "x has data type \(x.dataType); DequantizeLinear reads integers")
        }
        let scales = try args.floats(1)
        let zeroPoints = args.optional(2)?.quantizedIntegers ?? [Int](repeating: 0, count: scales.count)
        let index = try parameterIndices(x.shape, axis: axis, parameterCount: scales.count)
        // int32 inputs may exceed Float's 24 bits: the difference is rounded once, as onnxruntime does.
        let y = values.indices.map { i in Float(values[i] - zeroPoints[index[i]]) * scales[index[i]] }
        return Tensor(uncheckedShape: x.shape, floats: y)
    }

    /// The spec's formula, except that an all-zero x (min = max = 0) gets scale 1
    /// and zero point 0 as in onnxruntime, where the spec's would divide 0 by 0.
    static func dynamicQuantizeLinear(_ args: ReferenceInputs) throws -> [Tensor] {
        let x = try args.tensor(0), values = try x.requireFloats("x")
        let low = Swift.min(0, values.min() ?? 0), high = Swift.max(0, values.max() ?? 0)
        let scale: Float = high == low ? 1 : (high - low) / 255
        let zeroPoint = Int(Swift.min(Swift.max(0 - low / scale, 0), 255).rounded(.toNearestOrEven))
        let q = values.map { saturate($0 / scale, zeroPoint: zeroPoint, 0...255) }
        return [tensor(q, shape: x.shape, .uint8), Tensor(uncheckedShape: [], floats: [scale]),
                tensor([zeroPoint], shape: [], .uint8)]
    }

    /// The int32 convolution of `x - xZeroPoint` and `w - wZeroPoint[m]` (plus `bias`).
    static func integerConvolution(x: Tensor, w: Tensor, xZeroPoint: Int, wZeroPoints: [Int], bias: [Int]?,
                                   _ attributes: ConvAttributes, outputShape: [Int]) throws -> [Int] {
        guard let xs = x.quantizedIntegers, let ws = w.quantizedIntegers else {
            throw FoveaError(.unsupported, "x is \(x.dataType) and w \(w.dataType); expected integers")
        }
        let perChannel = w.shape.isEmpty ? 1 : w.count / Swift.max(w.shape[0], 1)
        let input = xs.map { Float($0 - xZeroPoint) }
        let weights = ws.indices.map { Float(ws[$0] - wZeroPoints[wZeroPoints.count == 1 ? 0 : $0 / perChannel]) }
        let sums = try ReferenceConvolution.exactSums(input: input, inputShape: x.shape, weights: weights, weightShape: w.shape,
                                                      bias: bias.map { $0.map(Double.init) }, attributes, outputShape: outputShape)
        // Exact: at most 510 × 255 × K plus a bias, far below 2^53; wrapped like the int32 accumulator.
        return sums.map { Int(Int32(truncatingIfNeeded: Int64($0))) }
    }

    /// `roundHalfToEven(Float(accumulator) × multiplier) + zeroPoint`, saturated:
    /// onnxruntime's requantization (MLAS), with the per-channel multipliers
    /// `inputScale × weightScale[c] / outputScale` computed in float32.
    static func requantize(_ accumulators: [Int], channelOf: (Int) -> Int, multipliers: [Float], zeroPoint: Int, _ type: DataType, shape: [Int],
                           range clamp: ClosedRange<Int>? = nil) -> Tensor {
        let range = clamp ?? type.quantizedRange ?? 0...255
        let q = accumulators.indices.map { i in
            saturate(Float(accumulators[i]) * multipliers[multipliers.count == 1 ? 0 : channelOf(i)], zeroPoint: zeroPoint, range)
        }
        return tensor(q, shape: shape, type)
    }

    static func qLinearConv(_ args: ReferenceInputs, _ attributes: ConvAttributes, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0), w = try args.tensor(3)
        let xScale = try args.floats(1)[0], wScales = try args.floats(4), yScale = try args.floats(6)[0]
        let yZeroPoint = try args.tensor(7)
        let accumulators = try integerConvolution(x: x, w: w, xZeroPoint: try integers(args, 2)[0], wZeroPoints: try integers(args, 5),
                                                  bias: args.optional(8)?.quantizedIntegers, attributes, outputShape: outputShape)
        let plane = outputShape.dropFirst(2).reduce(1, *), channels = outputShape[1]
        return requantize(accumulators, channelOf: { ($0 / plane) % channels }, multipliers: wScales.map { xScale * $0 / yScale },
                          zeroPoint: try integers(args, 7)[0], yZeroPoint.dataType, shape: outputShape)
    }

    static func quantizedConv(_ args: ReferenceInputs, _ a: QuantizedConvAttributes, outputShape: [Int]) throws -> Tensor {
        let accumulators = try integerConvolution(x: try args.tensor(0), w: try args.tensor(1), xZeroPoint: a.inputZeroPoint,
                                                  wZeroPoints: a.weightZeroPoints, bias: args.optional(2)?.quantizedIntegers,
                                                  a.convolution, outputShape: outputShape)
        let plane = outputShape.dropFirst(2).reduce(1, *), channels = outputShape[1]
        return requantize(accumulators, channelOf: { ($0 / plane) % channels }, multipliers: a.weightScales.map { a.inputScale * $0 / a.outputScale },
                          zeroPoint: a.outputZeroPoint, a.outputType, shape: outputShape, range: a.outputRange)
    }

    /// MLAS's QLinearGlobalAveragePool: the exact int32 sum of each plane minus
    /// `x_zero_point · S`, times `x_scale / (y_scale · Float(S))` in float32.
    static func qLinearGlobalAveragePool(_ args: ReferenceInputs, channelsLast: Bool, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0)
        guard let xs = x.quantizedIntegers else {
            throw FoveaError(.unsupported, "X is \(x.dataType); QLinearGlobalAveragePool reads uint8 or int8")
        }
        let xScale = try args.floats(1)[0], xZeroPoint = try integers(args, 2)[0]
        let yScale = try args.floats(3)[0], yZeroPoint = try integers(args, 4)[0]
        let n = x.shape[0], c = channelsLast ? x.shape[x.shape.count - 1] : x.shape[1]
        let plane = x.count / Swift.max(n * c, 1)
        let multiplier = xScale / (yScale * Float(plane))
        var sums = [Int](repeating: 0, count: n * c)
        for i in xs.indices {
            let image = i / (plane * c)
            let channel = channelsLast ? i % c : (i / plane) % c
            sums[image * c + channel] += xs[i]
        }
        let q = sums.map { sum in
            saturate(Float(Int32(truncatingIfNeeded: sum - xZeroPoint * plane)) * multiplier, zeroPoint: yZeroPoint, x.dataType.quantizedRange ?? 0...255)
        }
        return tensor(q, shape: outputShape, x.dataType)
    }

    static func convInteger(_ args: ReferenceInputs, _ attributes: ConvAttributes, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0), w = try args.tensor(1)
        let xZeroPoint = args.optional(2)?.quantizedIntegers?.first ?? 0
        let wZeroPoints = args.optional(3)?.quantizedIntegers ?? [0]
        let sums = try integerConvolution(x: x, w: w, xZeroPoint: xZeroPoint, wZeroPoints: wZeroPoints, bias: nil, attributes, outputShape: outputShape)
        return tensor(sums, shape: outputShape, .int32)
    }

    /// The int32 products of `a - aZeroPoint[row]` and `b - bZeroPoint[column]` over
    /// numpy matmul broadcasting.
    static func integerProduct(a: Tensor, b: Tensor, aZeroPoints: [Int], bZeroPoints: [Int], outputShape: [Int]) throws -> [Int] {
        guard let lhs = a.quantizedIntegers, let rhs = b.quantizedIntegers else {
            throw FoveaError(.unsupported, "A is \(a.dataType) and B \(b.dataType); expected integers")
        }
        let operands = MatMulOperands(a.shape, b.shape)
        let m = operands.rows, k = operands.lhsColumns, n = operands.columns
        let batchShape = try broadcastShape(operands.lhsBatch, operands.rhsBatch)
        let lhsOffsets = ReferenceMatrix.matrixOffsets(operands.lhsBatch, in: batchShape, matrixSize: m * k)
        let rhsOffsets = ReferenceMatrix.matrixOffsets(operands.rhsBatch, in: batchShape, matrixSize: k * n)
        var output: [Int] = []
        output.reserveCapacity(outputShape.elementCount)
        for (lhsOffset, rhsOffset) in zip(lhsOffsets, rhsOffsets) {
            for i in 0..<m {
                let aZero = aZeroPoints[aZeroPoints.count == 1 ? 0 : i]
                for j in 0..<n {
                    let bZero = bZeroPoints[bZeroPoints.count == 1 ? 0 : j]
                    var sum = 0
                    for p in 0..<k { sum += (lhs[lhsOffset + i * k + p] - aZero) * (rhs[rhsOffset + p * n + j] - bZero) }
                    output.append(Int(Int32(truncatingIfNeeded: sum)))
                }
            }
        }
        return output
    }

    static func matMulInteger(_ args: ReferenceInputs, outputShape: [Int]) throws -> Tensor {
        let sums = try integerProduct(a: try args.tensor(0), b: try args.tensor(1),
                                      aZeroPoints: args.optional(2)?.quantizedIntegers ?? [0],
                                      bZeroPoints: args.optional(3)?.quantizedIntegers ?? [0], outputShape: outputShape)
        return tensor(sums, shape: outputShape, .int32)
    }

    static func qLinearMatMul(_ args: ReferenceInputs, outputShape: [Int]) throws -> Tensor {
        let aScale = try args.floats(1)[0], bScales = try args.floats(4), yScale = try args.floats(6)[0]
        let sums = try integerProduct(a: try args.tensor(0), b: try args.tensor(3), aZeroPoints: try integers(args, 2),
                                      bZeroPoints: try integers(args, 5), outputShape: outputShape)
        let columns = outputShape.last ?? 1
        return requantize(sums, channelOf: { $0 % columns }, multipliers: bScales.map { aScale * $0 / yScale },
                          zeroPoint: try integers(args, 7)[0], try args.tensor(7).dataType, shape: outputShape)
    }

    private static func integers(_ args: ReferenceInputs, _ index: Int) throws -> [Int] {
        let t = try args.tensor(index)
        guard let values = t.quantizedIntegers, !values.isEmpty else {
            throw FoveaError(.invalidModel, "input \(index) is \(t.tensorType); expected an integer zero point")
        }
        return values
    }
}
