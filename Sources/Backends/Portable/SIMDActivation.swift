import FoveaCore

/// Relu, LeakyRelu, Clip, Sigmoid, HardSigmoid, HardSwish and every
/// ``Op/unary(_:)`` function (SiLU, GELU, Exp, Erf, Tanh, Elu, ...): one
/// vector pass over the flat buffer (``SIMDElementwiseFunction``), split
/// across threads for large tensors.
enum SIMDActivation: SIMDOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        FusedActivation(node.op) != nil && node.inputTypes.count == 1 && SIMDStepSupport.isPlannedFloatNode(node)
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard let function = FusedActivation(node.op) else {
            throw FoveaError(.unsupported, "the simd backend has no activation \(node.op.typeName)")
        }
        return ActivationStep(function: function, opName: node.op.typeName)
    }

    /// Elements per parallel work item: large enough to amortize the split.
    static let blockSize = 4096

    struct ActivationStep: PreparedStep {
        let function: FusedActivation
        let opName: String
        var algorithm: String {
            if case .unary = function { return "vector \(function)" }
            return "vector"
        }
        var tolerance: Float { SIMDElementwiseFunction.tolerance(function) }
        var writesStridedOutput: Bool { true }
        /// Each vector is loaded before the same elements are stored.
        var overwritableInput: Int? { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let source = SIMDStepSupport.SharedInput(try buffers.input(0, opName))
            let output = buffers.outputs[0]
            let out = SIMDStepSupport.SharedOutput(output)
            let count = output.count
            let function = self.function
            if output.isContiguous {
                let blocks = (count + blockSize - 1) / blockSize
                SIMDStepSupport.parallelFor(context, count: blocks, work: count) { range in
                    let start = range.lowerBound * blockSize
                    let end = Swift.min(count, range.upperBound * blockSize)
                    SIMDElementwiseFunction.apply(function, source.base + start, out.base + start, count: end - start)
                }
            } else {
                // A slice of a larger tensor: blocks never cross an image.
                let per = output.imageCount
                let blocksPerImage = (per + blockSize - 1) / blockSize
                SIMDStepSupport.parallelFor(context, count: output.batch * blocksPerImage, work: count) { range in
                    for item in range {
                        let n = item / blocksPerImage, start = item % blocksPerImage * blockSize
                        SIMDElementwiseFunction.apply(function, source.base + n * per + start, out.image(n) + start,
                                                      count: Swift.min(blockSize, per - start))
                    }
                }
            }
        }
    }
}
