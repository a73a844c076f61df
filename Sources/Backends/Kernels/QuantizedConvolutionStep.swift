import CFoveaKernels
import FoveaCore

/// An integer convolution (``Op/quantizedConv(_:)``, made by ``FuseQuantizedConv``)
/// on the int8 kernels of `Kernels/include/fovea_qconv.h`: the GEMM
/// convolution (u8 × s8 tiles per ISA: AVX2, AVX-VNNI, AVX512-VNNI, AMX) or,
/// for a depthwise one, the direct int8 depthwise kernel. Weights, bias and
/// every scale and zero point are packed once, here; a run reads 8-bit values
/// and writes 8-bit values, requantized as onnxruntime's MLAS does, so the
/// result is the reference backend's to the bit.
struct QuantizedConvolutionStep: PreparedStep {
    let params: fovea_conv2d_params
    let algorithm: String
    private let packed: PackedWeights
    private let isDepthwise: Bool

    /// Integer arithmetic and MLAS's requantization on every path: exact.
    var tolerance: Float { 0 }
    var writesStridedOutput: Bool { true }

    /// What the kernels need of the node, checked without packing (the planner asks before it prepares).
    struct Plan {
        var params: fovea_conv2d_params
        var attributes: QuantizedConvAttributes
        var isDepthwise: Bool
        var inputType: DataType
        var weights: [Int8]
        var bias: [Int32]?
    }

    /// The node's plan if the kernels can run it; throws (with the reason) otherwise.
    static func plan(_ node: NodeContext) throws -> Plan {
        guard case .quantizedConv(let attributes) = node.op, node.outputTypes.count == 1,
              let x = node.inputType(0), let w = node.inputType(1), let y = node.outputTypes.first,
              x.shape.count == 4, w.shape.count == 4, y.shape.count == 4,
              let weights = node.constant(1)?.int8s else {
            throw FoveaError(.unsupported, "the kernels run 2-D NCHW integer convolutions with constant int8 weights")
        }
        guard x.dataType.quantizedRange != nil, y.dataType == attributes.outputType else {
            throw FoveaError(.unsupported, "the kernels' integer convolution reads and writes uint8 or int8")
        }
        guard attributes.weightZeroPoints.allSatisfy({ $0 == 0 }) else {
            throw FoveaError(.unsupported, "the int8 kernels need symmetric weights (zero point 0)")
        }
        var bias: [Int32]?
        if node.inputType(2) != nil {
            guard let values = node.constant(2)?.quantizedIntegers, values.allSatisfy({ Int(Int32.min)...Int(Int32.max) ~= $0 }) else {
                throw FoveaError(.unsupported, "the kernels' integer convolution needs a constant int32 bias")
            }
            bias = values.map { Int32($0) }
        }
        let convolution = attributes.convolution
        let group = convolution.group
        guard group >= 1, x.shape[1] % group == 0, w.shape[0] % group == 0, w.shape[1] * group == x.shape[1] else {
            throw FoveaError(.shapeMismatch, "QuantizedConv shapes X \(x.shape) and W \(w.shape) do not fit group \(group)")
        }
        let geometry = try SpatialGeometry(inputSize: Array(x.shape.dropFirst(2)), convolution: convolution, weightShape: w.shape)
        guard geometry.rank == 2, geometry.padsBegin.allSatisfy({ $0 >= 0 }),
              y.shape == [x.shape[0], w.shape[0]] + geometry.outputSize else {
            throw FoveaError(.shapeMismatch, "QuantizedConv output is planned as \(y.shape); the kernels cannot run this geometry")
        }
        var params = fovea_conv2d_params(
            batch: x.shape[0], channels: x.shape[1], input_height: x.shape[2], input_width: x.shape[3],
            output_channels: w.shape[0], groups: group, output_height: y.shape[2], output_width: y.shape[3],
            kernel_height: w.shape[2], kernel_width: w.shape[3],
            stride_height: geometry.strides[0], stride_width: geometry.strides[1],
            dilation_height: geometry.dilations[0], dilation_width: geometry.dilations[1],
            pad_top: geometry.padsBegin[0], pad_left: geometry.padsBegin[1])
        try KernelStatus.check(fovea_conv2d_check(&params), "QuantizedConv")
        let isDepthwise = group > 1 && group == x.shape[1] && group == w.shape[0]
        let size = isDepthwise ? fovea_qdwconv2d_packed_size(&params) : fovea_qconv2d_packed_size(&params, nil)
        guard size > 0 else {
            throw FoveaError(.unsupported, "the int8 kernels cannot pack this QuantizedConv (K = channels/groups × kernel area must be at most 65536)")
        }
        return Plan(params: params, attributes: attributes, isDepthwise: isDepthwise, inputType: x.dataType, weights: weights, bias: bias)
    }

    init(_ plan: Plan) throws {
        params = plan.params
        isDepthwise = plan.isDepthwise
        let a = plan.attributes, depthwise = plan.isDepthwise
        var shape = plan.params
        let size = depthwise ? fovea_qdwconv2d_packed_size(&shape) : fovea_qconv2d_packed_size(&shape, nil)
        let clamp = a.outputRange
        packed = try PackedWeights(byteCount: size) { bytes, count in
            try a.weightScales.withUnsafeBufferPointer { scales in
                var quantization = fovea_qconv2d_quantization(
                    input_type: plan.inputType == .int8 ? FOVEA_QTYPE_S8 : FOVEA_QTYPE_U8,
                    input_scale: a.inputScale, input_zero_point: Int32(a.inputZeroPoint),
                    weight_scales: scales.baseAddress, weight_scale_count: scales.count, weight_zero_points: nil,
                    output_type: a.outputType == .int8 ? FOVEA_QTYPE_S8 : FOVEA_QTYPE_U8,
                    output_scale: a.outputScale, output_zero_point: Int32(a.outputZeroPoint),
                    output_min: Int32(clamp.lowerBound), output_max: Int32(clamp.upperBound))
                let status = plan.weights.withUnsafeBufferPointer { w in
                    withOptionalInt32Pointer(plan.bias) { b in
                        depthwise ? fovea_qdwconv2d_pack(&shape, &quantization, w.baseAddress, b, bytes, count)
                                    : fovea_qconv2d_pack(&shape, &quantization, w.baseAddress, b, nil, bytes, count)
                    }
                }
                try KernelStatus.check(status, "QuantizedConv weight packing")
            }
        }
        if isDepthwise {
            algorithm = "int8 depthwise \(plan.params.kernel_height)x\(plan.params.kernel_width)"
        } else {
            let kernel = fovea_qconv2d_kernel_name(packed.bytes).map { String(cString: $0) } ?? "?"
            let method = plan.params.kernel_height == 1 && plan.params.kernel_width == 1 ? "gemm 1x1" : "im2col+gemm \(plan.params.kernel_height)x\(plan.params.kernel_width)"
            algorithm = "int8 \(method) \(kernel)"
        }
    }

    func workspaceBytes(threads: Int) -> Int {
        isDepthwise ? 0 : fovea_qconv2d_workspace_size(packed.bytes, threads)
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let x = try buffers.input(0, "QuantizedConv"), y = buffers.outputs[0]
        var shape = params
        var pool = context.kernelThreadPool
        let status = isDepthwise
            ? fovea_qdwconv2d_run(&shape, packed.bytes, x.base, y.base, y.batchStride, &pool)
            : fovea_qconv2d_run(&shape, packed.bytes, x.base, y.base, y.batchStride, buffers.workspace,
                                workspaceBytes(threads: context.threads), &pool)
        try KernelStatus.check(status, "QuantizedConv")
    }
}

/// Calls `body` with a pointer to the array's elements, or nil for a nil array.
func withOptionalInt32Pointer<R>(_ array: [Int32]?, _ body: (UnsafePointer<Int32>?) throws -> R) rethrows -> R {
    guard let array else { return try body(nil) }
    return try array.withUnsafeBufferPointer { try body($0.baseAddress) }
}
