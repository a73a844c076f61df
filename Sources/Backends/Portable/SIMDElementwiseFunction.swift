#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import FoveaCore

/// Every elementwise activation and math function (``FusedActivation``:
/// Relu, Clip, LeakyRelu, Sigmoid, HardSigmoid, HardSwish and every
/// ``UnaryFunction``) as one pass over a buffer: the standalone operators
/// (``SIMDActivation``) and the activations fused after a convolution run it.
///
/// The piecewise-linear and algebraic functions compute per lane exactly what
/// the reference computes per element. The ones built on `e^x` (Sigmoid,
/// SiLU, Tanh, Exp, Elu, Selu, Celu, GELU's tanh form) use the vector
/// ``SIMDVectorMath/exp(_:)`` (about 2 ulp), hence ``tolerance(_:)``. The rest
/// (Log, Pow, Floor, Ceil, Erf, GELU, Softplus, Mish) have no vector form here
/// and run the reference's scalar function per element.
enum SIMDElementwiseFunction {
    typealias Vector = SIMDStepSupport.Vector

    /// Whether `activation` runs as a vector approximation of `e^x` rather than exactly.
    static func isApproximation(_ activation: FusedActivation) -> Bool {
        switch activation {
        case .sigmoid, .unary(.silu), .unary(.tanh), .unary(.exp), .unary(.elu), .unary(.selu), .unary(.celu),
             .unary(.gelu(tanhApproximation: true)):
            return true
        default:
            return false
        }
    }

    /// The relative tolerance a step running `activation` carries against the reference.
    static func tolerance(_ activation: FusedActivation) -> Float {
        isApproximation(activation) ? 2e-4 : 1e-4
    }

    /// `destination[i] = activation(source[i])` for `count` elements (`destination` may be `source`).
    static func apply(_ activation: FusedActivation, _ source: UnsafePointer<Float>,
                      _ destination: UnsafeMutablePointer<Float>, count: Int) {
        switch activation {
        case .relu:
            // x > 0 ? x : 0 (NaN gives 0, as in the reference).
            map(source, destination, count) { v in Vector(repeating: 0).replacing(with: v, where: v .> 0) }
        case .leakyRelu(let alpha):
            map(source, destination, count) { v in (v * alpha).replacing(with: v, where: v .>= 0) }
        case .clip(let lower, let upper):
            let (low, high) = (lower ?? -.infinity, upper ?? .infinity)
            map(source, destination, count) { v in clamp(v, low, high) }
        case .sigmoid:
            map(source, destination, count, sigmoid)
        case .hardSigmoid(let alpha, let beta):
            map(source, destination, count) { v in clamp(v * alpha + beta, 0, 1) }
        case .hardSwish:
            map(source, destination, count) { v in v * clamp(v / 6 + 0.5, 0, 1) }
        case .unary(let function):
            if let vector = vectorForm(function) {
                map(source, destination, count, vector)
            } else {
                let scalar = activation.evaluator
                for i in 0..<count { destination[i] = scalar(source[i]) }
            }
        }
    }

    /// The vector form of `function`, if it has one.
    static func vectorForm(_ function: UnaryFunction) -> ((Vector) -> Vector)? {
        switch function {
        case .linear(let alpha, let beta): return { $0 * alpha + beta }
        case .abs: return { $0.replacing(with: -$0, where: $0 .< 0) }
        case .neg: return { -$0 }
        case .sqrt: return { $0.squareRoot() }
        case .rsqrt(let epsilon): return { 1 / ($0 + epsilon).squareRoot() }
        case .reciprocal(let epsilon): return { 1 / ($0 + epsilon) }
        case .threshold(let alpha):
            // max(alpha, x), NaN kept.
            return { v in Vector(repeating: alpha).replacing(with: v, where: v .> alpha .| v .!= v) }
        case .thresholdedRelu(let alpha): return { v in Vector(repeating: 0).replacing(with: v, where: v .> alpha) }
        case .softsign:
            // ±1 at ±inf, where the quotient alone is inf / inf.
            return { v in
                let quotient = v / (1 + v.replacing(with: -v, where: v .< 0))
                let sign = Vector(repeating: 1).replacing(with: -1, where: v .< 0)
                return quotient.replacing(with: sign, where: v .== .infinity .| v .== -.infinity)
            }
        case .exp: return SIMDVectorMath.exp
        case .tanh: return tanh
        case .silu:
            // At -inf the product is -inf · 0; the limit is 0.
            return { v in (v * sigmoid(v)).replacing(with: 0, where: v .== -.infinity) }
        case .elu(let alpha):
            return { v in (alpha * (SIMDVectorMath.exp(v) - 1)).replacing(with: v, where: v .>= 0) }
        case .selu(let alpha, let gamma):
            return { v in (gamma * (alpha * SIMDVectorMath.exp(v) - alpha)).replacing(with: gamma * v, where: v .> 0) }
        case .celu(let alpha):
            // max(0, x) + min(0, alpha · (e^(x/alpha) - 1)); NaN kept.
            return { v in
                let negative = alpha * (SIMDVectorMath.exp(v / alpha) - 1)
                let lower = Vector(repeating: 0).replacing(with: negative, where: negative .< 0)
                let upper = Vector(repeating: 0).replacing(with: v, where: v .> 0)
                return (upper + lower).replacing(with: v, where: v .!= v)
            }
        case .gelu(tanhApproximation: true):
            // √(2/π); the cube term as the ONNX definition writes it. At -inf the limit is 0.
            return { v in
                let inner = Float(0.7978845608028654) * (v + 0.044715 * v * v * v)
                return (0.5 * v * (1 + tanh(inner))).replacing(with: 0, where: v .== -.infinity)
            }
        case .log, .power, .floor, .ceil, .erf, .softplus, .mish, .gelu(tanhApproximation: false):
            return nil
        }
    }

    /// `1 / (1 + e^-x)` from `e^-|x|`, so neither side overflows (as the reference).
    @inline(__always)
    static func sigmoid(_ v: Vector) -> Vector {
        let magnitude = v.replacing(with: -v, where: v .< 0)
        let e = SIMDVectorMath.exp(-magnitude)
        let positive = 1 / (1 + e)
        return (e * positive).replacing(with: positive, where: v .>= 0)
    }

    /// `sign(x) · (1 - e^-2|x|) / (1 + e^-2|x|)`; ±1 at ±inf, NaN kept.
    @inline(__always)
    static func tanh(_ v: Vector) -> Vector {
        let negative = v .< 0
        let magnitude = v.replacing(with: -v, where: negative)
        let e = SIMDVectorMath.exp(-2 * magnitude)
        let result = (1 - e) / (1 + e)
        return result.replacing(with: -result, where: negative)
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

    /// `destination = f(source)` vector by vector, the tail through a zero-padded vector.
    @inline(__always)
    static func map(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>, _ count: Int,
                    _ f: (Vector) -> Vector) {
        SIMDStepSupport.map(source, destination, count: count, f)
    }
}
