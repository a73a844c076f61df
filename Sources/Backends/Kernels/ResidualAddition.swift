import CFoveaKernels
import FoveaCore

/// The fused residual (``ConvAttributes/addsResidual``) of a Conv step whose
/// kernel cannot start its tiles from it (Winograd: the output transform
/// writes finished values). The step computes its convolution without the
/// activation into a scratch in its workspace, then one pass adds the
/// residual and applies the activation, `y = act(scratch + r)`: the traffic
/// of the unfused Conv and Add, and Winograd's arithmetic kept. The GEMM
/// path instead starts every tile from the residual (`fovea_conv2d_add_f32`).
struct ResidualAddition: Sendable {
    let shape: ConvolutionShape

    /// Scratch floats: the whole output, one dense image after another.
    var scratchFloats: Int { Int(shape.params.batch) * shape.outputImage }

    /// Scratch bytes, rounded up to keep what follows it 64-byte aligned.
    var scratchBytes: Int { (scratchFloats * MemoryLayout<Float>.stride + 63) / 64 * 64 }

    /// `y = activation(scratch + residual)` image by image; y may be the residual's own memory.
    func finish(_ scratch: UnsafePointer<Float>, _ buffers: StepBuffers, context: RunContext) throws {
        let residual = try buffers.input(3, "Conv"), y = buffers.outputs[0]
        guard residual.shape == y.shape else {
            throw FoveaError(.shapeMismatch, "Conv: the residual input is \(residual.shape.shapeDescription); expected the output's shape \(y.shape.shapeDescription)")
        }
        var activation = shape.activation?.kernelActivation ?? fovea_activation()
        var pool = context.kernelThreadPool
        let extent = [shape.outputImage]
        for n in 0..<Int(shape.params.batch) {
            let status = extent.withUnsafeBufferPointer { dims in
                fovea_binary_f32(FOVEA_BINARY_ADD, 1, dims.baseAddress, scratch + n * shape.outputImage,
                                 1, dims.baseAddress, residual.image(n), 1, dims.baseAddress, y.image(n),
                                 &activation, &pool)
            }
            try KernelStatus.check(status, "Conv residual")
        }
    }
}
