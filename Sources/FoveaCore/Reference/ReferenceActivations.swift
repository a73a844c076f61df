#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Elementwise activations: Relu, LeakyRelu, Sigmoid, HardSigmoid, HardSwish, Clip.
enum ReferenceActivations {
    static func run(_ op: Op, _ args: ReferenceInputs) throws -> Tensor {
        let x = try args.tensor(0)
        let input = try x.requireFloats("X")
        let output: [Float]
        switch op {
        case .relu:
            output = input.map { $0 > 0 ? $0 : 0 }
        case .leakyRelu(let alpha):
            output = input.map { $0 >= 0 ? $0 : alpha * $0 }
        case .sigmoid:
            output = input.map(sigmoid)
        case .hardSigmoid(let alpha, let beta):
            output = input.map { clamp(alpha * $0 + beta, 0, 1) }
        case .hardSwish:
            output = input.map { $0 * clamp($0 / 6 + 0.5, 0, 1) }
        case .clip(let lower, let upper):
            output = input.map { clamp($0, lower ?? -.infinity, upper ?? .infinity) }
        default:
            throw FoveaError(.unsupported, "\(op.typeName) is not an activation")
        }
        return Tensor(uncheckedShape: x.shape, floats: output)
    }

    /// `1 / (1 + e^-x)`, written so neither branch overflows.
    static func sigmoid(_ x: Float) -> Float {
        if x >= 0 { return 1 / (1 + expf(-x)) }
        let e = expf(x)
        return e / (1 + e)
    }

    /// `min(upper, max(lower, x))` (numpy's clip: `upper` wins when `lower > upper`); NaN stays NaN.
    static func clamp(_ x: Float, _ lower: Float, _ upper: Float) -> Float {
        if x.isNaN { return x }
        return Swift.min(upper, Swift.max(lower, x))
    }
}
