import FoveaCore

/// A fused squeeze-and-excitation block (``SqueezeExcitationStep``) with the
/// C kernels on the run's OpenMP threads.
enum KernelsSqueezeExcitation: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        SqueezeExcitationStep(node, usesOpenMP: true) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        guard let step = SqueezeExcitationStep(node, usesOpenMP: true) else {
            throw FoveaError(.unsupported, "the kernels run SqueezeExcitation with constant weights on N×C×H×W")
        }
        return step
    }
}
