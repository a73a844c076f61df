/// An elementwise activation folded into the operator that produces its input
/// (see ``ConvAttributes/activation``), with the same semantics as the
/// standalone operator it replaces.
///
/// The piecewise-linear ones (``isPiecewiseLinear``: ReLU, Clip, LeakyReLU)
/// are applied by the GEMM microkernels in registers; the others (Sigmoid,
/// HardSigmoid, HardSwish, and every ``UnaryFunction``: SiLU, GELU, Tanh,
/// ELU, Mish, ...) by a vectorized pass over each output block right after
/// it is computed, while it is still in cache.
public enum FusedActivation: Sendable, Equatable, CustomStringConvertible {
    /// `x > 0 ? x : 0` (NaN gives 0, as the Relu operator).
    case relu
    /// `min(max, max(min, x))`; bounds that are `nil` are open; NaN stays NaN.
    case clip(min: Float?, max: Float?)
    /// `x >= 0 ? x : alpha * x`.
    case leakyRelu(alpha: Float)
    /// `1 / (1 + e^-x)`.
    case sigmoid
    /// `max(0, min(1, alpha * x + beta))`.
    case hardSigmoid(alpha: Float, beta: Float)
    /// `x * max(0, min(1, x / 6 + 1/2))`.
    case hardSwish
    /// Any elementwise function of ``Op/unary(_:)`` (SiLU, GELU, Tanh, ELU, ...).
    case unary(UnaryFunction)

    /// The activation an operator computes, if it is one that can be fused.
    public init?(_ op: Op) {
        switch op {
        case .relu: self = .relu
        case .clip(let lower, let upper): self = .clip(min: lower, max: upper)
        case .leakyRelu(let alpha): self = .leakyRelu(alpha: alpha)
        case .sigmoid: self = .sigmoid
        case .hardSigmoid(let alpha, let beta): self = .hardSigmoid(alpha: alpha, beta: beta)
        case .hardSwish: self = .hardSwish
        case .unary(let function): self = .unary(function)
        default: return nil
        }
    }

    /// The standalone operator with the same result.
    public var op: Op {
        switch self {
        case .relu: return .relu
        case .clip(let lower, let upper): return .clip(min: lower, max: upper)
        case .leakyRelu(let alpha): return .leakyRelu(alpha: alpha)
        case .sigmoid: return .sigmoid
        case .hardSigmoid(let alpha, let beta): return .hardSigmoid(alpha: alpha, beta: beta)
        case .hardSwish: return .hardSwish
        case .unary(let function): return .unary(function)
        }
    }

    /// Whether the activation is ReLU, Clip or LeakyReLU: the ones the GEMM
    /// microkernels apply in registers (the others run as a pass over each
    /// finished output block).
    public var isPiecewiseLinear: Bool {
        switch self {
        case .relu, .clip, .leakyRelu: return true
        default: return false
        }
    }

    /// A short name for plans and profiles: `relu`, `clip(0,6)`, `leakyrelu(0.1)`, `silu`, `gelu`.
    public var description: String {
        switch self {
        case .relu: return "relu"
        case .clip(let lower, let upper):
            return "clip(\(lower.map { "\($0)" } ?? "-inf"),\(upper.map { "\($0)" } ?? "inf"))"
        case .leakyRelu(let alpha): return "leakyrelu(\(alpha))"
        case .sigmoid: return "sigmoid"
        case .hardSigmoid(let alpha, let beta): return "hardsigmoid(\(alpha),\(beta))"
        case .hardSwish: return "hardswish"
        case .unary(.gelu(let tanhApproximation)): return tanhApproximation ? "gelu(tanh)" : "gelu"
        case .unary(let function): return function.typeName.lowercased()
        }
    }

    /// The activation as one function, made once (for loops over many values).
    public var evaluator: (Float) -> Float {
        if case .unary(let function) = self { return ReferenceUnary.evaluator(function) }
        let activation = self
        return { activation.apply($0) }
    }

    /// The activation of one value, exactly as the reference operator computes it.
    public func apply(_ x: Float) -> Float {
        switch self {
        case .relu: return x > 0 ? x : 0
        case .clip(let lower, let upper): return ReferenceActivations.clamp(x, lower ?? -.infinity, upper ?? .infinity)
        case .leakyRelu(let alpha): return x >= 0 ? x : alpha * x
        case .sigmoid: return ReferenceActivations.sigmoid(x)
        case .hardSigmoid(let alpha, let beta): return ReferenceActivations.clamp(alpha * x + beta, 0, 1)
        case .hardSwish: return x * ReferenceActivations.clamp(x / 6 + 0.5, 0, 1)
        case .unary(let function): return ReferenceUnary.evaluator(function)(x)
        }
    }
}
