import FoveaCore

/// The elementwise math and activation operators that become ``UnaryFunction``s,
/// and the binary Pow and Mod and n-ary Max and Min.
extension ONNXOpTranslator {
    /// The canonical op of an elementwise operator, or `nil` if `ctx.opType` is not one.
    static func elementwise(_ ctx: ONNXNodeContext) throws -> Op? {
        let a = ctx.attributes
        switch ctx.opType {
        case "Sqrt": return .unary(.sqrt)
        case "Reciprocal": return .unary(.reciprocal(epsilon: 0))
        case "Exp": return .unary(.exp)
        case "Log": return .unary(.log(epsilon: 0))
        case "Erf": return .unary(.erf)
        case "Tanh": return .unary(.tanh)
        case "Abs": return .unary(.abs)
        case "Neg": return .unary(.neg)
        case "Floor": return .unary(.floor)
        case "Ceil": return .unary(.ceil)
        case "Softplus": return .unary(.softplus)
        case "Softsign": return .unary(.softsign)
        case "Mish": return .unary(.mish)
        case "Elu": return .unary(.elu(alpha: try a.float("alpha", default: 1)))
        case "Celu": return .unary(.celu(alpha: try a.float("alpha", default: 1)))
        case "Selu":
            // The defaults are the constants of the SELU paper, as ONNX writes them.
            return .unary(.selu(alpha: try a.float("alpha", default: 1.67326319217681884765625),
                                gamma: try a.float("gamma", default: 1.05070102214813232421875)))
        case "Gelu":
            let approximate = try a.string("approximate") ?? "none"
            guard approximate == "none" || approximate == "tanh" else {
                throw FoveaError(.invalidAttribute, "attribute 'approximate' is '\(approximate)'; expected 'none' or 'tanh'")
            }
            return .unary(.gelu(tanhApproximation: approximate == "tanh"))
        case "Pow": return .pow
        case "Mod":
            let fmod = try a.int("fmod", default: 0)
            guard fmod == 0 || fmod == 1 else { throw FoveaError(.invalidAttribute, "attribute 'fmod' is \(fmod); expected 0 or 1") }
            return .mod(fmod: fmod == 1)
        case "Max": return .maximum
        case "Min": return .minimum
        default: return nil
        }
    }
}
