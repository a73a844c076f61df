/// An elementwise function of one float tensor: the operators of ``Op/unary(_:)``.
///
/// Core ML's `unary` and `activation` layers need these; ONNX has most of them
/// as separate operators (Tanh, Exp, Log, Sqrt, Reciprocal, Abs, Elu, ...).
public enum UnaryFunction: Sendable, Equatable {
    /// `alpha * x + beta` (Core ML's linear activation).
    case linear(alpha: Float, beta: Float)
    /// The hyperbolic tangent.
    case tanh
    /// `e ^ x`.
    case exp
    /// `log(x + epsilon)`.
    case log(epsilon: Float)
    /// The square root (NaN for negative inputs).
    case sqrt
    /// `1 / sqrt(x + epsilon)`.
    case rsqrt(epsilon: Float)
    /// `1 / (x + epsilon)`.
    case reciprocal(epsilon: Float)
    /// The absolute value.
    case abs
    /// `x ^ exponent`.
    case power(exponent: Float)
    /// `max(alpha, x)` (Core ML's unary THRESHOLD).
    case threshold(alpha: Float)
    /// `x > alpha ? x : 0`.
    case thresholdedRelu(alpha: Float)
    /// `x >= 0 ? x : alpha * (e^x - 1)`.
    case elu(alpha: Float)
    /// `x / (1 + |x|)`.
    case softsign
    /// `log(1 + e^x)`.
    case softplus
    /// `-x`.
    case neg
    /// The largest integer not above `x`.
    case floor
    /// The smallest integer not below `x`.
    case ceil
    /// The Gauss error function.
    case erf
    /// `x > 0 ? gamma * x : gamma * alpha * (e^x - 1)`.
    case selu(alpha: Float, gamma: Float)
    /// `max(0, x) + min(0, alpha * (e^(x / alpha) - 1))`.
    case celu(alpha: Float)
    /// `x * tanh(softplus(x))`.
    case mish
    /// `x * Φ(x)` with the normal CDF `Φ(x) = (1 + erf(x / √2)) / 2`, or with
    /// `tanh` its approximation `(1 + tanh(√(2/π) (x + 0.044715 x³))) / 2`.
    case gelu(tanhApproximation: Bool)
    /// `x * sigmoid(x)` (SiLU, Swish; 0 at -inf, the limit). ONNX has no
    /// such operator: the ``FuseElementwisePatterns`` pass makes it from
    /// `x * Sigmoid(x)`.
    case silu

    /// The operator's name in messages and op histograms (ONNX's where it has one).
    public var typeName: String {
        switch self {
        case .linear: return "Linear"
        case .tanh: return "Tanh"
        case .exp: return "Exp"
        case .log: return "Log"
        case .sqrt: return "Sqrt"
        case .rsqrt: return "Rsqrt"
        case .reciprocal: return "Reciprocal"
        case .abs: return "Abs"
        case .power: return "Pow"
        case .threshold: return "Threshold"
        case .thresholdedRelu: return "ThresholdedRelu"
        case .elu: return "Elu"
        case .softsign: return "Softsign"
        case .softplus: return "Softplus"
        case .neg: return "Neg"
        case .floor: return "Floor"
        case .ceil: return "Ceil"
        case .erf: return "Erf"
        case .selu: return "Selu"
        case .celu: return "Celu"
        case .mish: return "Mish"
        case .gelu: return "Gelu"
        case .silu: return "SiLU"
        }
    }
}

/// How ``Op/borderPad(pads:mode:)`` fills the new cells.
public enum BorderPadMode: String, Sendable, Equatable {
    /// Mirror the input without repeating the edge (numpy / ONNX `reflect`): `[a b c]` → `c b [a b c] b a`.
    case reflect
    /// Repeat the edge value (numpy / ONNX `edge`, Core ML replication).
    case edge
}
