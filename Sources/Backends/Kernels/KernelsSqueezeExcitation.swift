import FoveaCore

/// A fused squeeze-and-excitation block (``SqueezeExcitationStep``) with the
/// C kernels on the run's worker threads.
enum KernelsSqueezeExcitation: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        SqueezeExcitationStep(node) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        guard let step = SqueezeExcitationStep(node) else {
            throw FoveaError(.unsupported, "the kernels run SqueezeExcitation with constant weights on N×C×H×W")
        }
        return step
    }
}
