import FoveaCore
import FoveaElementwiseKernels

/// A fused squeeze-and-excitation block (``SqueezeExcitationStep``), its C
/// pool and scale on the run's worker threads.
enum SIMDSqueezeExcitation: SIMDOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        SqueezeExcitationStep(node) != nil
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard let step = SqueezeExcitationStep(node) else {
            throw FoveaError(.unsupported, "the simd backend runs SqueezeExcitation with constant weights on N×C×H×W")
        }
        return step
    }
}
