/// The element types Fovea's tensors can hold.
///
/// Arithmetic runs on `float32`. `int64` carries shapes, axes and indices
/// (ONNX's `Shape` output, `Reshape`'s shape); `bool` carries masks.
public enum DataType: String, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// 32-bit IEEE 754 floating point: every arithmetic value.
    case float32
    /// 64-bit signed integers: shapes, axes, indices.
    case int64
    /// Booleans, one byte each: masks and comparison results.
    case bool

    /// Bytes per element.
    public var byteSize: Int {
        switch self {
        case .float32: return 4
        case .int64: return 8
        case .bool: return 1
        }
    }

    public var description: String { rawValue }
}
