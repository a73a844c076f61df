import CFoveaKernels
import FoveaCore

/// LayerNormalization with constant-or-run-time scale and bias of the
/// normalized size, on `fovea_layer_norm_f32` (the Y output only; a node that
/// also asks for Mean / InvStdDev goes to the reference backend).
enum KernelsLayerNormalization: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        LayerNormalizationShape(node) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        guard let shape = LayerNormalizationShape(node) else {
            throw FoveaError(.unsupported, "the kernels run LayerNormalization with one output and dense scale and bias")
        }
        return Step(shape: shape, hasBias: node.inputType(2) != nil)
    }

    struct Step: PreparedStep {
        let shape: LayerNormalizationShape
        let hasBias: Bool

        var algorithm: String { "layernorm \(KernelsBackend.isa)" }
        var overwritableInput: Int? { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = try buffers.input(0, "LayerNormalization"), scale = try buffers.input(1, "LayerNormalization")
            let bias = hasBias ? try buffers.input(2, "LayerNormalization").floats : nil
            let y = buffers.outputs[0]
            var pool = context.kernelThreadPool
            try KernelStatus.check(shape.apply(x.floats, scale: scale.floats, bias: bias.map { UnsafePointer($0) }, y.floats,
                                               pool: &pool),
                                   "LayerNormalization")
        }
    }
}
