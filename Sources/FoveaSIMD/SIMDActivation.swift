import CFoveaKernels
import FoveaCore
import FoveaElementwiseKernels

/// Relu, LeakyRelu, Clip, Sigmoid, HardSigmoid, HardSwish and every
/// ``Op/unary(_:)`` function (SiLU, GELU, Exp, Erf, Tanh, Elu, ...): one
/// vector pass over the flat buffer, split across threads for large tensors.
/// The unary functions run the C kernels' `fovea_unary_f32` on each chunk
/// (vectorized polynomial approximations, fovea_unary.h), as Sigmoid does.
///
/// Each lane computes exactly what the reference computes per element (same
/// comparisons, same operation order, NaN kept), so only Sigmoid, whose
/// vector `exp` is within a few ulp of `expf`, differs from the reference.
enum SIMDActivation: SIMDOperatorFamily {
    typealias Vector = SIMDStepSupport.Vector

    /// The elementwise function with its attributes.
    enum Function: Sendable, Equatable {
        case relu
        case leakyRelu(alpha: Float)
        case clip(lower: Float, upper: Float)
        case sigmoid
        case hardSigmoid(alpha: Float, beta: Float)
        case hardSwish
        /// A function of `fovea_unary_f32`.
        case kernel(UnaryKernelFunction)

        init?(_ op: Op) {
            switch op {
            case .relu: self = .relu
            case .leakyRelu(let alpha): self = .leakyRelu(alpha: alpha)
            case .clip(let lower, let upper): self = .clip(lower: lower ?? -.infinity, upper: upper ?? .infinity)
            case .sigmoid: self = .sigmoid
            case .hardSigmoid(let alpha, let beta): self = .hardSigmoid(alpha: alpha, beta: beta)
            case .hardSwish: self = .hardSwish
            case .unary(let function): self = .kernel(UnaryKernelFunction(function))
            default: return nil
            }
        }
    }

    static func supports(_ node: NodeContext) -> Bool {
        Function(node.op) != nil && node.inputTypes.count == 1 && SIMDStepSupport.isPlannedFloatNode(node)
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard let function = Function(node.op) else {
            throw FoveaError(.unsupported, "the simd backend has no activation \(node.op.typeName)")
        }
        return ActivationStep(function: function, opName: node.op.typeName)
    }

    /// Elements per parallel work item: large enough to amortize the split.
    static let blockSize = 4096

    struct ActivationStep: PreparedStep {
        let function: Function
        let opName: String
        var algorithm: String {
            if case .kernel(let kernel) = function { return "vector \(kernel)" }
            return "vector"
        }
        var tolerance: Float {
            if case .kernel(let kernel) = function { return kernel.tolerance }
            return 1e-4
        }
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
                    apply(function, source.base + start, out.base + start, count: end - start)
                }
            } else {
                // A slice of a larger tensor: blocks never cross an image.
                let per = output.imageCount
                let blocksPerImage = (per + blockSize - 1) / blockSize
                SIMDStepSupport.parallelFor(context, count: output.batch * blocksPerImage, work: count) { range in
                    for item in range {
                        let n = item / blocksPerImage, start = item % blocksPerImage * blockSize
                        apply(function, source.base + n * per + start, out.image(n) + start,
                              count: Swift.min(blockSize, per - start))
                    }
                }
            }
        }
    }

    /// Applies `function` to `count` elements.
    static func apply(_ function: Function, _ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>, count: Int) {
        switch function {
        case .relu:
            // x > 0 ? x : 0 (NaN gives 0, as in the reference).
            SIMDStepSupport.map(source, destination, count: count) { v in
                Vector(repeating: 0).replacing(with: v, where: v .> 0)
            }
        case .leakyRelu(let alpha):
            SIMDStepSupport.map(source, destination, count: count) { v in
                (v * alpha).replacing(with: v, where: v .>= 0)
            }
        case .clip(let lower, let upper):
            SIMDStepSupport.map(source, destination, count: count) { v in clamp(v, lower, upper) }
        case .sigmoid:
            // The C kernels' sigmoid (per-ISA polynomial exp, within 2 ulp, fovea_elementwise.h)
            // on this chunk: the Swift SIMD16 exp compiled to per-lane calls here and ran
            // 54 ms on 1×96×112×112 (45 ns per element; the C kernel: 0.39 ms).
            _ = fovea_sigmoid_f32(count, source, destination, nil)
        case .hardSigmoid(let alpha, let beta):
            SIMDStepSupport.map(source, destination, count: count) { v in clamp(v * alpha + beta, 0, 1) }
        case .hardSwish:
            SIMDStepSupport.map(source, destination, count: count) { v in v * clamp(v / 6 + 0.5, 0, 1) }
        case .kernel(let kernel):
            _ = kernel.apply(count: count, source, destination, pool: nil)
        }
    }

    /// `min(upper, max(lower, x))` with Swift.min/max's tie rules (numpy's
    /// clip: `upper` wins when `lower > upper`); NaN stays NaN.
    @inline(__always)
    static func clamp(_ v: Vector, _ lower: Float, _ upper: Float) -> Vector {
        let lowerVector = Vector(repeating: lower), upperVector = Vector(repeating: upper)
        let raised = lowerVector.replacing(with: v, where: v .>= lowerVector)
        let clamped = upperVector.replacing(with: raised, where: raised .< upperVector)
        return clamped.replacing(with: v, where: v .!= v)
    }
}
