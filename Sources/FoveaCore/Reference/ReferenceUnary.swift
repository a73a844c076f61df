#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The elementwise functions of ``Op/unary(_:)``.
enum ReferenceUnary {
    static func run(_ function: UnaryFunction, _ args: ReferenceInputs) throws -> Tensor {
        let x = try args.tensor(0)
        let input = try x.requireFloats("X")
        return Tensor(uncheckedShape: x.shape, floats: input.map(evaluator(function)))
    }

    /// The scalar function computing `function`.
    static func evaluator(_ function: UnaryFunction) -> (Float) -> Float {
        switch function {
        case .linear(let alpha, let beta): return { alpha * $0 + beta }
        case .tanh: return { tanhf($0) }
        case .exp: return { expf($0) }
        case .log(let epsilon): return { logf($0 + epsilon) }
        case .sqrt: return { sqrtf($0) }
        case .rsqrt(let epsilon): return { 1 / sqrtf($0 + epsilon) }
        case .reciprocal(let epsilon): return { 1 / ($0 + epsilon) }
        case .abs: return { Swift.abs($0) }
        case .power(let exponent): return { powf($0, exponent) }
        case .threshold(let alpha): return { $0.isNaN ? $0 : Swift.max(alpha, $0) }
        case .thresholdedRelu(let alpha): return { $0 > alpha ? $0 : 0 }
        case .elu(let alpha): return { $0 >= 0 ? $0 : alpha * (expf($0) - 1) }
        case .softsign:
            // ±1 at ±inf, where the quotient alone is inf / inf.
            return { $0.isInfinite ? ($0 > 0 ? 1 : -1) : $0 / (1 + Swift.abs($0)) }
        case .softplus:
            return softplus
        case .neg: return { -$0 }
        case .floor: return { floorf($0) }
        case .ceil: return { ceilf($0) }
        case .erf: return { erff($0) }
        case .selu(let alpha, let gamma):
            return { $0 > 0 ? gamma * $0 : gamma * (alpha * expf($0) - alpha) }
        case .celu(let alpha):
            return { $0.isNaN ? $0 : Swift.max(0, $0) + Swift.min(0, alpha * (expf($0 / alpha) - 1)) }
        case .mish:
            // At -inf the product is -inf * 0; the limit is 0.
            return { $0 == -.infinity ? 0 : $0 * tanhf(softplus($0)) }
        case .silu:
            // At -inf the product is -inf * 0; the limit is 0.
            return { $0 == -.infinity ? 0 : $0 * ReferenceActivations.sigmoid($0) }
        case .gelu(let tanhApproximation):
            // At -inf both forms are -inf * 0; the limit is 0.
            if tanhApproximation {
                // √(2/π); the cube term as the ONNX definition writes it.
                let scale = Float(0.7978845608028654)
                return { $0 == -.infinity ? 0 : 0.5 * $0 * (1 + tanhf(scale * ($0 + 0.044715 * $0 * $0 * $0))) }
            }
            return { $0 == -.infinity ? 0 : 0.5 * $0 * (1 + erff($0 * Float(0.7071067811865476))) }
        }
    }

    /// `log(1 + e^x)` as `max(x, 0) + log(1 + e^-|x|)`, which never overflows.
    static func softplus(_ x: Float) -> Float {
        Swift.max(x, 0) + log1pf(expf(-Swift.abs(x)))
    }
}
