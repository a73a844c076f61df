import CFoveaKernels
import FoveaCore

extension FusedActivation {
    /// The C kernels' form of the activation (open clip bounds become infinities).
    var kernelActivation: fovea_activation {
        switch self {
        case .relu: return fovea_activation(kind: FOVEA_ACTIVATION_RELU, min: 0, max: 0, alpha: 0)
        case .clip(let lower, let upper):
            return fovea_activation(kind: FOVEA_ACTIVATION_CLIP, min: lower ?? -.infinity, max: upper ?? .infinity, alpha: 0)
        case .leakyRelu(let alpha): return fovea_activation(kind: FOVEA_ACTIVATION_LEAKY_RELU, min: 0, max: 0, alpha: alpha)
        }
    }
}
