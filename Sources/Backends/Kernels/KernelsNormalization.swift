import CFoveaKernels
import FoveaCore

/// An inference BatchNormalization left as a node (`--no-fold-bn`, or one
/// after something other than a Conv): one per-channel multiply-add pass,
/// `fovea_channel_affine_f32`, in place over its input when the planner can.
/// The scale and shift are computed once here, in Float as the reference
/// computes them, so each output is the same two roundings as the reference's.
enum KernelsNormalization: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? Step(node)) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        try Step(node)
    }

    struct Step: PreparedStep {
        let batch: Int, channels: Int, plane: Int
        let scale: [Float], shift: [Float]

        var algorithm: String { "batchnorm channel affine" }
        var overwritableInput: Int? { 0 }

        init(_ node: NodeContext) throws {
            guard case .batchNormalization(let epsilon) = node.op else {
                throw FoveaError(.unsupported, "not a BatchNormalization")
            }
            guard let x = node.inputType(0), x.dataType == .float32, x.shape.count >= 2,
                  let y = node.outputTypes.first, y == x, node.outputTypes.count == 1 else {
                throw FoveaError(.unsupported, "the kernels BatchNormalization runs float32 N×C×… tensors with one output")
            }
            let channels = x.shape[1]
            var parameters: [[Float]] = []
            for (index, role) in [(1, "scale"), (2, "B"), (3, "mean"), (4, "var")] {
                guard let constant = node.constant(index), constant.shape == [channels] else {
                    throw FoveaError(.unsupported, "the kernels BatchNormalization needs a constant \(role) of \(channels) values")
                }
                parameters.append(try constant.requireFloats(role))
            }
            let (gamma, beta, mean, variance) = (parameters[0], parameters[1], parameters[2], parameters[3])
            var scale = [Float](repeating: 0, count: channels), shift = scale
            for c in 0..<channels {
                scale[c] = gamma[c] / (variance[c] + epsilon).squareRoot()
                shift[c] = beta[c] - mean[c] * scale[c]
            }
            self.scale = scale
            self.shift = shift
            self.channels = channels
            batch = x.shape[0]
            plane = x.shape.dropFirst(2).reduce(1, *)
        }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "BatchNormalization"), y = buffers.outputs[0]
            var pool = context.kernelThreadPool
            let status = scale.withUnsafeBufferPointer { a in
                shift.withUnsafeBufferPointer { b in
                    fovea_channel_affine_f32(batch, channels, plane, x.floats, a.baseAddress, b.baseAddress, y.floats, nil,
                                             &pool)
                }
            }
            try KernelStatus.check(status, "BatchNormalization")
        }
    }
}
