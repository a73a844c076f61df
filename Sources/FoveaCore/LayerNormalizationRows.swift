/// A LayerNormalization node as rows: `outer` rows of `inner` elements (the axes
/// from `axis` on), each normalized with a scale (and bias) of `inner` values.
/// Shared by the backends that run LayerNormalization, so they accept the same nodes.
public struct LayerNormalizationRows: Sendable, Equatable {
    /// The number of rows: the product of the axes before `axis`.
    public let outer: Int
    /// The elements per row: the product of the axes from `axis` on.
    public let inner: Int
    /// Added to the variance before its square root.
    public let epsilon: Float

    /// `outer` rows of `inner` elements.
    public init(outer: Int, inner: Int, epsilon: Float) {
        self.outer = outer
        self.inner = inner
        self.epsilon = epsilon
    }

    /// The rows of a planned LayerNormalization node with one float32 output whose
    /// scale and bias are dense vectors of the normalized size (no other
    /// broadcast); `nil` for anything else.
    public init?(_ node: NodeContext) {
        guard case .layerNormalization(let axis, let epsilon) = node.op, node.outputTypes.count == 1,
              let x = node.inputType(0), x.dataType == .float32, node.outputTypes[0] == x,
              let scale = node.inputType(1), scale.dataType == .float32 else { return nil }
        let rank = x.shape.count
        let normalizedAxis = axis < 0 ? axis + rank : axis
        guard normalizedAxis >= 0, normalizedAxis < rank else { return nil }
        let inner = x.shape[normalizedAxis...].reduce(1, *)
        guard scale.shape.reduce(1, *) == inner, scale.shape.count <= rank - normalizedAxis else { return nil }
        if node.inputTypes.count > 2, let bias = node.inputType(2) {
            guard bias.dataType == .float32, bias.shape.reduce(1, *) == inner, bias.shape.count <= rank - normalizedAxis else { return nil }
        }
        self.init(outer: x.shape[..<normalizedAxis].reduce(1, *), inner: inner, epsilon: epsilon)
    }
}
