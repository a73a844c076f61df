/// An elementwise activation folded into the operator that produces its input
/// (see ``ConvAttributes/activation``), with the same semantics as the
/// standalone operator it replaces.
public enum FusedActivation: Sendable, Equatable, CustomStringConvertible {
    /// `x > 0 ? x : 0` (NaN gives 0, as the Relu operator).
    case relu
    /// `min(max, max(min, x))`; bounds that are `nil` are open; NaN stays NaN.
    case clip(min: Float?, max: Float?)
    /// `x >= 0 ? x : alpha * x`.
    case leakyRelu(alpha: Float)

    /// The activation an operator computes, if it is one that can be fused.
    public init?(_ op: Op) {
        switch op {
        case .relu: self = .relu
        case .clip(let lower, let upper): self = .clip(min: lower, max: upper)
        case .leakyRelu(let alpha): self = .leakyRelu(alpha: alpha)
        default: return nil
        }
    }

    /// The standalone operator with the same result.
    public var op: Op {
        switch self {
        case .relu: return .relu
        case .clip(let lower, let upper): return .clip(min: lower, max: upper)
        case .leakyRelu(let alpha): return .leakyRelu(alpha: alpha)
        }
    }

    /// A short name for plans and profiles: `relu`, `clip(0,6)`, `leakyrelu(0.1)`.
    public var description: String {
        switch self {
        case .relu: return "relu"
        case .clip(let lower, let upper):
            return "clip(\(lower.map { "\($0)" } ?? "-inf"),\(upper.map { "\($0)" } ?? "inf"))"
        case .leakyRelu(let alpha): return "leakyrelu(\(alpha))"
        }
    }

    /// The activation of one value, exactly as the reference operator computes it.
    public func apply(_ x: Float) -> Float {
        switch self {
        case .relu: return x > 0 ? x : 0
        case .clip(let lower, let upper): return ReferenceActivations.clamp(x, lower ?? -.infinity, upper ?? .infinity)
        case .leakyRelu(let alpha): return x >= 0 ? x : alpha * x
        }
    }
}
