import CFoveaKernels
import FoveaCore

/// Elementwise operators on the C kernels: Add, Sub, Mul, Div, Max, Min, Pow
/// (two inputs) with ONNX broadcasting (rank ≤ 6), ReLU, Clip, LeakyReLU, Sigmoid and every other
/// activation and math function of `fovea_unary_f32` (SiLU, GELU, Exp, Erf,
/// Tanh, HardSwish, ...), and Softmax /
/// LogSoftmax. All float32; the unary ones and same-shape binary ones may
/// run in place.
enum KernelsElementwise: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? prepare(node)) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        try prepare(node)
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard node.outputTypes.count == 1, node.outputTypes[0].dataType == .float32, !node.inputTypes.isEmpty,
              node.inputTypes.allSatisfy({ $0?.dataType == .float32 }),
              let inferred = try? node.op.outputTypes(inputs: node.inputTypes, outputCount: 1),
              inferred == node.outputTypes else {
            throw FoveaError(.unsupported, "the kernels run float32 elementwise operators with planned shapes")
        }
        let output = node.outputTypes[0].shape
        let inputs = node.inputTypes.compactMap { $0?.shape }
        switch node.op {
        case .add, .sub, .mul, .div, .maximum, .minimum, .pow:
            guard inputs.count == 2, output.count <= Int(FOVEA_ELEMENTWISE_MAX_RANK),
                  inputs.allSatisfy({ $0.count <= Int(FOVEA_ELEMENTWISE_MAX_RANK) }) else {
                throw FoveaError(.unsupported, "the kernels run binary operators up to rank \(FOVEA_ELEMENTWISE_MAX_RANK)")
            }
            let op: fovea_binary_op
            switch node.op {
            case .add: op = FOVEA_BINARY_ADD
            case .sub: op = FOVEA_BINARY_SUB
            case .mul: op = FOVEA_BINARY_MUL
            case .div: op = FOVEA_BINARY_DIV
            case .maximum: op = FOVEA_BINARY_MAX
            case .minimum: op = FOVEA_BINARY_MIN
            default: op = FOVEA_BINARY_POW
            }
            return BinaryStep(op: op, name: node.op.typeName, a: inputs[0], b: inputs[1], y: output)
        case .relu, .clip, .leakyRelu:
            guard let activation = FusedActivation(node.op), inputs.count == 1 else {
                throw FoveaError(.unsupported, "\(node.op.typeName) has one input")
            }
            return ActivationStep(activation: activation, count: output.elementCount)
        case .sigmoid:
            return SigmoidStep(count: output.elementCount)
        case .hardSigmoid, .hardSwish, .unary:
            guard let function = UnaryKernelFunction(node.op), inputs.count == 1 else {
                throw FoveaError(.unsupported, "\(node.op.typeName) has one input")
            }
            return UnaryStep(function: function, name: node.op.typeName, count: output.elementCount)
        case .softmax(let attributes), .logSoftmax(let attributes):
            let rank = output.count
            let axis = attributes.axis < 0 ? attributes.axis + rank : attributes.axis
            guard axis >= 0, axis < rank else {
                throw FoveaError(.invalidAttribute, "\(node.op.typeName) axis \(attributes.axis) is outside rank \(rank)")
            }
            var isLog = false
            if case .logSoftmax = node.op { isLog = true }
            return SoftmaxStep(outer: output[..<axis].reduce(1, *),
                               length: attributes.coercedTo2D ? output[axis...].reduce(1, *) : output[axis],
                               inner: attributes.coercedTo2D ? 1 : output[(axis + 1)...].reduce(1, *),
                               isLog: isLog)
        default:
            throw FoveaError(.unsupported, "\(node.op.typeName) is not an elementwise operator of the kernels")
        }
    }

    struct BinaryStep: PreparedStep {
        let op: fovea_binary_op
        let name: String
        let a: [Int], b: [Int], y: [Int]

        var algorithm: String { "\(name.lowercased()) broadcast \(KernelsBackend.isa)" }
        /// The C kernel reads each element of a same-shape input before writing it.
        var overwritableInput: Int? { a == y ? 0 : (b == y ? 1 : nil) }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let left = try buffers.input(0, name), right = try buffers.input(1, name), out = buffers.outputs[0]
            var pool = context.kernelThreadPool
            let status = a.withUnsafeBufferPointer { aShape in
                b.withUnsafeBufferPointer { bShape in
                    y.withUnsafeBufferPointer { yShape in
                        fovea_binary_f32(op, a.count, aShape.baseAddress, left.floats, b.count, bShape.baseAddress,
                                         right.floats, y.count, yShape.baseAddress, out.floats, nil, &pool)
                    }
                }
            }
            try KernelStatus.check(status, name)
        }
    }

    struct ActivationStep: PreparedStep {
        let activation: FusedActivation
        let count: Int

        var algorithm: String { "\(activation) \(KernelsBackend.isa)" }
        var overwritableInput: Int? { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "\(activation)"), y = buffers.outputs[0]
            var kernel = activation.kernelActivation
            var pool = context.kernelThreadPool
            try KernelStatus.check(fovea_activation_f32(&kernel, count, x.floats, y.floats, &pool), "\(activation)")
        }
    }

    struct SigmoidStep: PreparedStep {
        let count: Int

        var algorithm: String { "sigmoid \(KernelsBackend.isa)" }
        var overwritableInput: Int? { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "Sigmoid"), y = buffers.outputs[0]
            var pool = context.kernelThreadPool
            try KernelStatus.check(fovea_sigmoid_f32(count, x.floats, y.floats, &pool), "Sigmoid")
        }
    }

    struct UnaryStep: PreparedStep {
        let function: UnaryKernelFunction
        let name: String
        let count: Int

        var algorithm: String { "\(function) \(KernelsBackend.isa)" }
        var tolerance: Float { function.tolerance }
        var overwritableInput: Int? { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, name), y = buffers.outputs[0]
            var pool = context.kernelThreadPool
            try KernelStatus.check(function.apply(count: count, x.floats, y.floats, pool: &pool), name)
        }
    }

    struct SoftmaxStep: PreparedStep {
        let outer: Int, length: Int, inner: Int
        let isLog: Bool

        var algorithm: String { "\(isLog ? "logsoftmax" : "softmax") \(KernelsBackend.isa)" }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "Softmax"), y = buffers.outputs[0]
            var pool = context.kernelThreadPool
            try KernelStatus.check(fovea_softmax_f32(outer, length, inner, x.floats, y.floats, isLog ? 1 : 0, &pool),
                                   isLog ? "LogSoftmax" : "Softmax")
        }
    }
}
