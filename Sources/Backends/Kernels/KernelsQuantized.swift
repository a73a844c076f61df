import CFoveaKernels
import FoveaCore

/// The integer steps of a quantized model (see ``FuseQuantizedConv`` and
/// ``FuseQuantizedDataMovement``): QuantizedConv, QLinearGlobalAveragePool and
/// 8-bit MaxPool on the int8 C kernels, and the per-tensor QuantizeLinear and
/// DequantizeLinear left at the model's edges as one cheap pass over memory.
enum KernelsQuantized: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        switch node.op {
        case .quantizedConv: return (try? QuantizedConvolutionStep.plan(node)) != nil
        default: return (try? plan(node)) != nil
        }
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        switch node.op {
        case .quantizedConv: return try QuantizedConvolutionStep(QuantizedConvolutionStep.plan(node))
        default: return try plan(node)
        }
    }

    /// The step for every op but QuantizedConv; throws (with the reason) when the kernels cannot run the node.
    static func plan(_ node: NodeContext) throws -> any PreparedStep {
        guard node.outputTypes.count == 1, let x = node.inputType(0) else {
            throw FoveaError(.unsupported, "the kernels run \(node.op.typeName) with one output")
        }
        switch node.op {
        case .qLinearGlobalAveragePool(let channelsLast):
            guard !channelsLast, x.shape.count >= 3, let type = qtype(x.dataType),
                  let xScale = node.constant(1)?.floats?.first, let xZero = node.constant(2)?.quantizedIntegers?.first,
                  let yScale = node.constant(3)?.floats?.first, let yZero = node.constant(4)?.quantizedIntegers?.first else {
                throw FoveaError(.unsupported, "the kernels run NCHW QLinearGlobalAveragePool with constant scales and zero points")
            }
            let plane = x.shape.dropFirst(2).reduce(1, *)
            let multiplier = xScale / (yScale * Float(plane))
            // MLAS's limits, which the C kernel checks at run time: refuse them here so the reference runs them.
            guard plane < 1 << 24, multiplier >= 0x1p-32, multiplier < 256, xScale > 0, yScale > 0 else {
                throw FoveaError(.unsupported, "QLinearGlobalAveragePool's scale ratio is outside the kernel's range")
            }
            return QuantizedGlobalAveragePoolStep(planes: x.shape[0] * x.shape[1], planeSize: plane, type: type, xScale: xScale,
                                                  xZeroPoint: Int32(xZero), yScale: yScale, yZeroPoint: Int32(yZero))
        case .quantizeLinear(let attributes):
            guard x.dataType == .float32, let (scale, zeroPoint) = perTensor(node) else {
                throw FoveaError(.unsupported, "the kernels run per-tensor QuantizeLinear with constant parameters")
            }
            return QuantizeStep(scale: scale, zeroPoint: zeroPoint, range: attributes.outputType.quantizedRange ?? 0...255)
        case .dequantizeLinear:
            guard x.dataType.quantizedRange != nil, let (scale, zeroPoint) = perTensor(node) else {
                throw FoveaError(.unsupported, "the kernels run per-tensor 8-bit DequantizeLinear with constant parameters")
            }
            return DequantizeStep(scale: scale, zeroPoint: zeroPoint)
        default:
            throw FoveaError(.unsupported, "\(node.op.typeName) is not an integer step")
        }
    }

    /// The kernels' name for an 8-bit type.
    static func qtype(_ type: DataType) -> fovea_qtype? {
        switch type {
        case .uint8: return FOVEA_QTYPE_U8
        case .int8: return FOVEA_QTYPE_S8
        default: return nil
        }
    }

    /// A (De)QuantizeLinear's constant per-tensor scale and zero point (0 when absent).
    static func perTensor(_ node: NodeContext) -> (Float, Int)? {
        guard let scales = node.constant(1)?.floats, scales.count == 1, let scale = scales.first else { return nil }
        guard node.inputType(2) != nil else { return (scale, 0) }
        guard let zeroPoints = node.constant(2)?.quantizedIntegers, zeroPoints.count == 1 else { return nil }
        return (scale, zeroPoints[0])
    }

    struct QuantizedGlobalAveragePoolStep: PreparedStep {
        let planes: Int, planeSize: Int, type: fovea_qtype
        let xScale: Float, xZeroPoint: Int32, yScale: Float, yZeroPoint: Int32
        var algorithm: String { "int8 global average" }
        var tolerance: Float { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "QLinearGlobalAveragePool"), y = buffers.outputs[0]
            var pool = context.kernelThreadPool
            try KernelStatus.check(fovea_global_avgpool_q8(planes, planeSize, type, xScale, xZeroPoint, yScale, yZeroPoint,
                                                           x.base, y.base, &pool), "QLinearGlobalAveragePool")
        }
    }

    /// `saturate(roundHalfToEven(x / scale) + zeroPoint)`, as the reference computes it.
    struct QuantizeStep: PreparedStep {
        let scale: Float, zeroPoint: Int, range: ClosedRange<Int>
        var algorithm: String { "quantize (per tensor)" }
        var tolerance: Float { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "QuantizeLinear"), y = buffers.outputs[0]
            // Clamped before rounding (the bounds are integers, so the result is the same) and
            // rounded half to even by adding and removing 1.5 · 2²³, exact below 2²².
            let low = Float(range.lowerBound - zeroPoint), high = Float(range.upperBound - zeroPoint)
            let source = x.floats, count = x.count, zero = Int32(zeroPoint), scale = scale
            func store<T: FixedWidthInteger>(_ output: UnsafeMutablePointer<T>) {
                for i in 0..<count {
                    let v = source[i] / scale
                    let clamped = v.isNaN ? 0 : Swift.min(Swift.max(v, low), high)
                    output[i] = T(truncatingIfNeeded: Int32((clamped + 0x1.8p23) - 0x1.8p23) + zero)
                }
            }
            if y.dataType == .int8 { store(y.base.assumingMemoryBound(to: Int8.self)) } else { store(y.base.assumingMemoryBound(to: UInt8.self)) }
        }
    }

    /// `(x - zeroPoint) × scale` in float32.
    struct DequantizeStep: PreparedStep {
        let scale: Float, zeroPoint: Int
        var algorithm: String { "dequantize (per tensor)" }
        var tolerance: Float { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "DequantizeLinear"), y = buffers.outputs[0].floats
            let count = x.count, zero = Int32(zeroPoint), scale = scale
            func load<T: FixedWidthInteger>(_ input: UnsafeMutablePointer<T>) {
                for i in 0..<count { y[i] = Float(Int32(input[i]) - zero) * scale }
            }
            if x.dataType == .int8 { load(x.base.assumingMemoryBound(to: Int8.self)) } else { load(x.base.assumingMemoryBound(to: UInt8.self)) }
        }
    }
}
