import CFoveaKernels
import FoveaCore

extension FusedActivation {
    /// The C kernels' form of the activation (open clip bounds become
    /// infinities); none for the activations the GEMM epilogue does not
    /// apply (see ``ConvolutionShape/postActivation``).
    var kernelActivation: fovea_activation {
        switch self {
        case .relu: return fovea_activation(kind: FOVEA_ACTIVATION_RELU, min: 0, max: 0, alpha: 0)
        case .clip(let lower, let upper):
            return fovea_activation(kind: FOVEA_ACTIVATION_CLIP, min: lower ?? -.infinity, max: upper ?? .infinity, alpha: 0)
        case .leakyRelu(let alpha): return fovea_activation(kind: FOVEA_ACTIVATION_LEAKY_RELU, min: 0, max: 0, alpha: alpha)
        default: return fovea_activation()
        }
    }
}

extension ConvolutionShape {
    /// The fused activation that runs as a vectorized pass over the output
    /// right after the convolution (SiLU, GELU, Sigmoid, ...): the C
    /// convolutions apply only ReLU, Clip and LeakyReLU in their epilogue.
    var postActivation: UnaryKernelFunction? { activation.flatMap { UnaryKernelFunction($0) } }

    /// Applies ``postActivation`` (if any) in place to every image of `y`.
    func finishActivation(_ y: TensorView, context: RunContext) throws {
        guard let function = postActivation else { return }
        var pool = context.kernelThreadPool
        let image = y.imageCount
        for n in 0..<y.batch {
            try KernelStatus.check(function.apply(count: image, y.floats + n * y.batchStride, y.floats + n * y.batchStride,
                                                  pool: &pool), "Conv (\(function))")
        }
    }
}
