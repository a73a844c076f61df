import FoveaCore
import FoveaElementwiseKernels

/// LayerNormalization (the Y output only, scale and bias of the normalized
/// size): rows split across threads, each row normalized by the C kernel
/// `fovea_layer_norm_f32` on one thread.
enum SIMDLayerNormalization: SIMDOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        LayerNormalizationShape(node) != nil
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard let shape = LayerNormalizationShape(node) else {
            throw FoveaError(.unsupported, "the simd backend runs LayerNormalization with one output and dense scale and bias")
        }
        return Step(shape: shape, hasBias: node.inputType(2) != nil)
    }

    struct Step: PreparedStep {
        let shape: LayerNormalizationShape
        let hasBias: Bool

        var algorithm: String { "layernorm rows" }
        var overwritableInput: Int? { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = SIMDStepSupport.SharedInput(try buffers.input(0, "LayerNormalization"))
            let scale = SIMDStepSupport.SharedInput(try buffers.input(1, "LayerNormalization"))
            let bias = hasBias ? SIMDStepSupport.SharedInput(try buffers.input(2, "LayerNormalization")) : nil
            let y = SIMDStepSupport.SharedOutput(buffers.outputs[0])
            let (inner, epsilon) = (shape.inner, shape.epsilon)
            SIMDStepSupport.parallelFor(context, count: shape.outer, work: shape.outer * inner * 4) { rows in
                let offset = rows.lowerBound * inner
                let part = LayerNormalizationShape(outer: rows.count, inner: inner, epsilon: epsilon)
                _ = part.apply(x.base + offset, scale: scale.base, bias: bias?.base, y.base + offset, pool: nil)
            }
        }
    }
}
