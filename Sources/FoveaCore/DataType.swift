/// The element types Fovea's tensors can hold.
///
/// Arithmetic runs on `float32`. `int64` carries shapes, axes and indices
/// (ONNX's `Shape` output, `Reshape`'s shape); `bool` carries masks.
/// `uint8`, `int8` and `int32` carry quantized models: 8-bit values with a
/// scale and zero point (`QuantizeLinear`, `QLinearConv`), and the 32-bit
/// accumulators and biases of integer convolutions and products.
public enum DataType: String, Sendable, Equatable, Hashable, CustomStringConvertible {
    /// 32-bit IEEE 754 floating point: every arithmetic value.
    case float32
    /// 64-bit signed integers: shapes, axes, indices.
    case int64
    /// Booleans, one byte each: masks and comparison results.
    case bool
    /// Unsigned 8-bit integers: quantized activations (and weights).
    case uint8
    /// Signed 8-bit integers: quantized weights (and activations).
    case int8
    /// Signed 32-bit integers: quantized biases and integer accumulators.
    case int32

    /// Bytes per element.
    public var byteSize: Int {
        switch self {
        case .float32: return 4
        case .int64: return 8
        case .bool, .uint8, .int8: return 1
        case .int32: return 4
        }
    }

    /// Whether this is one of the quantized integer types (`uint8`, `int8`, `int32`).
    public var isQuantizedInteger: Bool {
        self == .uint8 || self == .int8 || self == .int32
    }

    public var description: String { rawValue }
}
