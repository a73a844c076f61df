import CFoveaKernels
import FoveaCore

/// One function of the C kernels' `fovea_unary_f32` (Kernels/include/fovea_unary.h)
/// with its parameters: how the kernels backend runs every
/// elementwise activation and math operator, standalone or fused after a Conv.
///
/// The transcendental ones are vectorized polynomial approximations with the
/// error bounds written in fovea_unary.h, so a step using them carries
/// ``tolerance`` instead of the default.
public struct UnaryKernelFunction: Sendable, Equatable, CustomStringConvertible {
    /// The `fovea_unary_kind` raw value.
    public let kind: UInt32
    /// The first parameter of the function (alpha in fovea_unary.h: Elu's alpha, Log's epsilon, Pow's exponent...); 0 when unused.
    public let alpha: Float
    /// The second parameter (beta in fovea_unary.h: Selu's gamma, HardSigmoid's beta...); 0 when unused.
    public let beta: Float

    init(_ kind: fovea_unary_kind, _ alpha: Float = 0, _ beta: Float = 0) {
        self.kind = kind.rawValue
        self.alpha = alpha
        self.beta = beta
    }

    /// The kernel function of a standalone operator (Sigmoid, HardSigmoid,
    /// HardSwish, any ``Op/unary(_:)``), if there is one.
    public init?(_ op: Op) {
        switch op {
        case .sigmoid: self.init(FOVEA_UNARY_SIGMOID)
        case .hardSigmoid(let alpha, let beta): self.init(FOVEA_UNARY_HARD_SIGMOID, alpha, beta)
        case .hardSwish: self.init(FOVEA_UNARY_HARD_SWISH)
        case .unary(let function): self.init(function)
        default: return nil
        }
    }

    /// The kernel function of a fused activation that the GEMM microkernels do
    /// not apply in registers (every one but ReLU, Clip and LeakyReLU).
    public init?(_ activation: FusedActivation) {
        guard !activation.isPiecewiseLinear else { return nil }
        self.init(activation.op)
    }

    /// The kernel function computing `function` (every ``UnaryFunction`` has one).
    public init(_ function: UnaryFunction) {
        switch function {
        case .linear(let alpha, let beta): self.init(FOVEA_UNARY_LINEAR, alpha, beta)
        case .tanh: self.init(FOVEA_UNARY_TANH)
        case .exp: self.init(FOVEA_UNARY_EXP)
        case .log(let epsilon): self.init(FOVEA_UNARY_LOG, epsilon)
        case .sqrt: self.init(FOVEA_UNARY_SQRT)
        case .rsqrt(let epsilon): self.init(FOVEA_UNARY_RSQRT, epsilon)
        case .reciprocal(let epsilon): self.init(FOVEA_UNARY_RECIPROCAL, epsilon)
        case .abs: self.init(FOVEA_UNARY_ABS)
        case .power(let exponent): self.init(FOVEA_UNARY_POWER, exponent)
        case .threshold(let alpha): self.init(FOVEA_UNARY_THRESHOLD, alpha)
        case .thresholdedRelu(let alpha): self.init(FOVEA_UNARY_THRESHOLDED_RELU, alpha)
        case .elu(let alpha): self.init(FOVEA_UNARY_ELU, alpha)
        case .softsign: self.init(FOVEA_UNARY_SOFTSIGN)
        case .softplus: self.init(FOVEA_UNARY_SOFTPLUS)
        case .neg: self.init(FOVEA_UNARY_NEG)
        case .floor: self.init(FOVEA_UNARY_FLOOR)
        case .ceil: self.init(FOVEA_UNARY_CEIL)
        case .erf: self.init(FOVEA_UNARY_ERF)
        case .selu(let alpha, let gamma): self.init(FOVEA_UNARY_SELU, alpha, gamma)
        case .celu(let alpha): self.init(FOVEA_UNARY_CELU, alpha)
        case .mish: self.init(FOVEA_UNARY_MISH)
        case .gelu(let tanhApproximation): self.init(tanhApproximation ? FOVEA_UNARY_GELU_TANH : FOVEA_UNARY_GELU_ERF)
        case .silu: self.init(FOVEA_UNARY_SILU)
        }
    }

    /// The C struct.
    public var cValue: fovea_unary { fovea_unary(kind: fovea_unary_kind(rawValue: kind), alpha: alpha, beta: beta) }

    /// Whether the function is a polynomial / rational approximation (exp,
    /// log, tanh, erf and what is built on them) rather than exact IEEE arithmetic.
    public var isApproximation: Bool {
        switch fovea_unary_kind(rawValue: kind) {
        case FOVEA_UNARY_ABS, FOVEA_UNARY_NEG, FOVEA_UNARY_FLOOR, FOVEA_UNARY_CEIL, FOVEA_UNARY_SQRT, FOVEA_UNARY_RECIPROCAL,
             FOVEA_UNARY_RSQRT, FOVEA_UNARY_LINEAR, FOVEA_UNARY_THRESHOLD, FOVEA_UNARY_THRESHOLDED_RELU,
             FOVEA_UNARY_HARD_SIGMOID, FOVEA_UNARY_HARD_SWISH, FOVEA_UNARY_SOFTSIGN:
            return false
        default:
            return true
        }
    }

    /// The relative tolerance against the reference (libm in float) that a
    /// step using this function carries: fovea_unary.h's bounds (at most 8
    /// ulp, or 2^-21·max(1, |x|) absolute for GELU), with room for the
    /// reference's own error.
    public var tolerance: Float { isApproximation ? 2e-4 : 1e-4 }

    /// A short name for plans (`silu`, `gelu`, `exp`, ...).
    public var description: String {
        switch fovea_unary_kind(rawValue: kind) {
        case FOVEA_UNARY_EXP: return "exp"
        case FOVEA_UNARY_LOG: return "log"
        case FOVEA_UNARY_TANH: return "tanh"
        case FOVEA_UNARY_ERF: return "erf"
        case FOVEA_UNARY_SIGMOID: return "sigmoid"
        case FOVEA_UNARY_SILU: return "silu"
        case FOVEA_UNARY_GELU_ERF: return "gelu"
        case FOVEA_UNARY_GELU_TANH: return "gelu(tanh)"
        case FOVEA_UNARY_ELU: return "elu"
        case FOVEA_UNARY_SELU: return "selu"
        case FOVEA_UNARY_CELU: return "celu"
        case FOVEA_UNARY_SOFTPLUS: return "softplus"
        case FOVEA_UNARY_SOFTSIGN: return "softsign"
        case FOVEA_UNARY_MISH: return "mish"
        case FOVEA_UNARY_HARD_SIGMOID: return "hardsigmoid"
        case FOVEA_UNARY_HARD_SWISH: return "hardswish"
        case FOVEA_UNARY_ABS: return "abs"
        case FOVEA_UNARY_NEG: return "neg"
        case FOVEA_UNARY_FLOOR: return "floor"
        case FOVEA_UNARY_CEIL: return "ceil"
        case FOVEA_UNARY_SQRT: return "sqrt"
        case FOVEA_UNARY_RECIPROCAL: return "reciprocal"
        case FOVEA_UNARY_RSQRT: return "rsqrt"
        case FOVEA_UNARY_LINEAR: return "linear"
        case FOVEA_UNARY_POWER: return "pow"
        case FOVEA_UNARY_THRESHOLDED_RELU: return "thresholdedrelu"
        default: return "threshold"
        }
    }

    /// `y[i] = f(x[i])` for `count` elements (y may be x) on `pool` (nil: the
    /// calling thread); the status of `fovea_unary_f32`.
    public func apply(count: Int, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>,
                      pool: UnsafePointer<fovea_threadpool>?) -> fovea_status {
        var function = cValue
        return fovea_unary_f32(&function, count, x, y, pool)
    }
}
