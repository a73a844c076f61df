import CFoveaKernels
import FoveaCore

/// A LayerNormalization as the C kernel `fovea_layer_norm_f32` runs it:
/// rows of `inner` elements (the axes from `axis` on), a scale (and bias)
/// of `inner` values each.
public struct LayerNormalizationShape: Sendable, Equatable {
    /// The number of rows: the product of the axes before `axis`.
    public let outer: Int
    /// The elements per row, each normalized over: the product of the axes from `axis` on.
    public let inner: Int
    /// Added to the variance before its square root.
    public let epsilon: Float

    /// `outer` rows of `inner` elements.
    public init(outer: Int, inner: Int, epsilon: Float) {
        self.outer = outer
        self.inner = inner
        self.epsilon = epsilon
    }

    /// The shape of a planned LayerNormalization node (``LayerNormalizationRows``,
    /// shared with the portable backend); `nil` for anything else.
    public init?(_ node: NodeContext) {
        guard let rows = LayerNormalizationRows(node) else { return nil }
        self.init(outer: rows.outer, inner: rows.inner, epsilon: rows.epsilon)
    }

    /// Normalizes `x` into `y` (which may be `x`) on `pool` (nil: the calling thread); `bias` may be `nil`.
    public func apply(_ x: UnsafePointer<Float>, scale: UnsafePointer<Float>, bias: UnsafePointer<Float>?,
                      _ y: UnsafeMutablePointer<Float>, pool: UnsafePointer<fovea_threadpool>?) -> fovea_status {
        fovea_layer_norm_f32(outer, inner, x, scale, bias, epsilon, y, pool)
    }
}
