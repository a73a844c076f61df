import CFoveaKernels
import FoveaCore

/// MaxPool and AveragePool over two spatial axes and the global poolings,
/// on the C pooling kernels (float32 NCHW).
enum KernelsPooling: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? plan(node)) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        try plan(node)
    }

    /// The step for a node the kernels can run; throws (with the reason) otherwise.
    static func plan(_ node: NodeContext) throws -> any PreparedStep {
        // MaxPool also runs on a quantized model's 8-bit values (``FuseQuantizedDataMovement``).
        var eightBit: fovea_qtype?
        if case .maxPool = node.op, let type = node.inputType(0)?.dataType { eightBit = KernelsQuantized.qtype(type) }
        guard node.inputTypes.count == 1, node.outputTypes.count == 1, let x = node.inputType(0),
              x.dataType == .float32 || eightBit != nil, node.outputTypes[0].dataType == x.dataType else {
            throw FoveaError(.unsupported, "the kernels run float32 pooling (and 8-bit MaxPool) with one input and one output")
        }
        switch node.op {
        case .maxPool(let attributes), .averagePool(let attributes):
            guard x.shape.count == 4, x.shape.allSatisfy({ $0 >= 1 }) else {
                throw FoveaError(.unsupported, "the kernels pool 2-D NCHW tensors only")
            }
            let geometry = try SpatialGeometry(inputSize: Array(x.shape.dropFirst(2)), pooling: attributes)
            guard geometry.rank == 2, [x.shape[0], x.shape[1]] + geometry.outputSize == node.outputTypes[0].shape,
                  (geometry.padsBegin + geometry.padsEnd).allSatisfy({ $0 >= 0 }) else {
                throw FoveaError(.shapeMismatch, "\(node.op.typeName) output does not match its planned shape")
            }
            let params = fovea_pool2d_params(
                batch: x.shape[0], channels: x.shape[1], input_height: x.shape[2], input_width: x.shape[3],
                output_height: geometry.outputSize[0], output_width: geometry.outputSize[1],
                kernel_height: geometry.kernelShape[0], kernel_width: geometry.kernelShape[1],
                stride_height: geometry.strides[0], stride_width: geometry.strides[1],
                dilation_height: geometry.dilations[0], dilation_width: geometry.dilations[1],
                pad_top: geometry.padsBegin[0], pad_left: geometry.padsBegin[1],
                pad_bottom: geometry.padsEnd[0], pad_right: geometry.padsEnd[1],
                count_include_pad: attributes.countIncludePad ? 1 : 0)
            var isMax = false
            if case .maxPool = node.op { isMax = true }
            return WindowPoolingStep(params: params, isMax: isMax, eightBit: eightBit)
        case .globalAveragePool, .globalMaxPool:
            guard x.shape.count >= 2, node.outputTypes[0].shape.elementCount == x.shape[0] * x.shape[1] else {
                throw FoveaError(.shapeMismatch, "\(node.op.typeName) input is \(x.shape); expected rank >= 2")
            }
            var isMax = false
            if case .globalMaxPool = node.op { isMax = true }
            return GlobalPoolingStep(batch: x.shape[0], channels: x.shape[1],
                                     spatialSize: x.shape.dropFirst(2).reduce(1, *), isMax: isMax)
        case .reduce(let attributes):
            return try trailingReduction(x.shape, attributes, output: node.outputTypes[0].shape)
        default:
            throw FoveaError(.unsupported, "\(node.op.typeName) is not a pooling")
        }
    }

    /// ReduceMean over the last axes (ShuffleNet's and MNASNet's `mean([2, 3])`,
    /// a global pooling written as a reduction) is a global average pooling of
    /// the leading axes' rows: one "channel" per output element, with the reduced
    /// axes as its contiguous plane. Other axes and reductions stay on the reference.
    static func trailingReduction(_ shape: [Int], _ attributes: ReduceAttributes, output: [Int]) throws -> GlobalPoolingStep {
        let rank = shape.count
        guard attributes.reduction == .mean, let axes = attributes.axes, !axes.isEmpty,
              rank >= 1, shape.allSatisfy({ $0 >= 1 }) else {
            throw FoveaError(.unsupported, "the kernels run ReduceMean over given trailing axes only")
        }
        let normalized = Set(try axes.map { try normalizedAxis($0, rank: rank) })
        guard normalized.count == axes.count, normalized == Set((rank - axes.count)..<rank) else {
            throw FoveaError(.unsupported, "the kernels reduce the last axes only (axes \(axes) of rank \(rank))")
        }
        let rows = shape.dropLast(axes.count).reduce(1, *), plane = shape.suffix(axes.count).reduce(1, *)
        guard output.elementCount == rows else {
            throw FoveaError(.shapeMismatch, "Reduce output \(output) does not match input \(shape) over axes \(axes)")
        }
        return GlobalPoolingStep(batch: 1, channels: rows, spatialSize: plane, isMax: false)
    }

    struct WindowPoolingStep: PreparedStep {
        let params: fovea_pool2d_params
        let isMax: Bool
        /// The 8-bit type of a quantized MaxPool; nil for float32.
        var eightBit: fovea_qtype? = nil
        var algorithm: String {
            "\(eightBit == nil ? "" : "int8 ")\(isMax ? "maxpool" : "avgpool") \(params.kernel_height)x\(params.kernel_width)s\(params.stride_height) \(KernelsBackend.isa)"
        }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, isMax ? "MaxPool" : "AveragePool"), y = buffers.outputs[0]
            var params = params
            var pool = context.kernelThreadPool
            if let eightBit {
                return try KernelStatus.check(fovea_maxpool2d_q8(&params, eightBit, x.base, y.base, &pool), "MaxPool (8-bit)")
            }
            let status = isMax ? fovea_maxpool2d_f32(&params, x.floats, y.floats, &pool)
                               : fovea_avgpool2d_f32(&params, x.floats, y.floats, &pool)
            try KernelStatus.check(status, isMax ? "MaxPool" : "AveragePool")
        }
    }

    struct GlobalPoolingStep: PreparedStep {
        let batch: Int, channels: Int, spatialSize: Int
        let isMax: Bool
        var algorithm: String { "\(isMax ? "global maxpool" : "global avgpool") \(KernelsBackend.isa)" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, isMax ? "GlobalMaxPool" : "GlobalAveragePool"), y = buffers.outputs[0]
            var pool = context.kernelThreadPool
            let status = isMax
                ? fovea_global_maxpool_f32(batch, channels, spatialSize, x.floats, y.floats, &pool)
                : fovea_global_avgpool_f32(batch, channels, spatialSize, x.floats, y.floats, &pool)
            try KernelStatus.check(status, isMax ? "GlobalMaxPool" : "GlobalAveragePool")
        }
    }
}
