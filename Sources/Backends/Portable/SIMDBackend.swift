import FoveaCore

/// A portable backend in pure Swift SIMD (`SIMD8<Float>` / `SIMD16<Float>`).
///
/// Each operator family lives in its own file as a `SIMD…` namespace with a
/// `supports(_:)` test and a `prepare(_:)` that packs weights once; this type
/// only routes a node to its family.
public struct SIMDBackend: Backend {
    /// `"simd"`: the name this backend goes by in configurations and plans.
    public static let name = "simd"
    public var name: String { Self.name }

    /// Creates the SIMD backend.
    public init() {}

    public func supports(_ node: NodeContext) -> Bool {
        guard let family = Self.family(of: node.op) else { return false }
        return family.supports(node)
    }

    public func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard let family = Self.family(of: node.op), family.supports(node) else {
            throw FoveaError(.unsupported, "the simd backend cannot run \(node.op.typeName)")
        }
        return try family.prepare(node)
    }

    /// The family that implements `op`, if any.
    static func family(of op: Op) -> SIMDOperatorFamily.Type? {
        switch op {
        case .conv: return SIMDConvolution.self
        case .gemm, .matMul: return SIMDMatrix.self
        case .maxPool, .averagePool, .globalAveragePool, .globalMaxPool: return SIMDPooling.self
        case .relu, .leakyRelu, .clip, .sigmoid, .hardSigmoid, .hardSwish, .unary: return SIMDActivation.self
        case .layerNormalization: return SIMDLayerNormalization.self
        case .squeezeExcitation: return SIMDSqueezeExcitation.self
        case .add, .sub, .mul, .div, .maximum, .minimum, .pow, .sum, .prelu: return SIMDBinary.self
        case .batchNormalization: return SIMDBatchNormalization.self
        case .softmax, .logSoftmax: return SIMDSoftmax.self
        case .concat: return SIMDConcat.self
        case .transpose: return SIMDTranspose.self
        case .flatten, .reshape, .squeeze, .unsqueeze, .identity, .dropout: return SIMDReshape.self
        default: return nil
        }
    }
}

/// One family of operators of the SIMD backend.
protocol SIMDOperatorFamily {
    /// Whether the family runs this node (shapes, attributes, data types).
    static func supports(_ node: NodeContext) -> Bool
    /// Prepares the node: packs weights, computes loop bounds.
    static func prepare(_ node: NodeContext) throws -> any PreparedStep
}
