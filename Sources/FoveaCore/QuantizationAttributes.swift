/// QuantizeLinear's attributes, in one form for every opset.
public struct QuantizeLinearAttributes: Sendable, Equatable {
    /// The axis a 1-D scale runs along (ignored for a per-tensor scale); may be negative.
    public var axis: Int
    /// `uint8` or `int8`: the zero point's type, or ONNX's default `uint8` when
    /// the node has no zero point (opset 21's `output_dtype` when it names one).
    public var outputType: DataType

    /// Creates the attributes; `outputType` must be `uint8` or `int8`.
    public init(axis: Int = 1, outputType: DataType = .uint8) {
        self.axis = axis
        self.outputType = outputType
    }
}

/// The constants of an integer convolution (``Op/quantizedConv(_:)``): the
/// geometry, and the scale and zero point of its input, weights and output.
///
/// The integer-step pass will make it from `DequantizeLinear → Conv → QuantizeLinear`
/// once the integer kernels exist; the reference backend runs it today, so the
/// pass and the kernels have an oracle.
public struct QuantizedConvAttributes: Sendable, Equatable {
    /// Kernel, strides, pads, groups (``ConvAttributes/activation`` and residual unused).
    public var convolution: ConvAttributes
    /// The input's scale (per tensor).
    public var inputScale: Float
    /// The input's zero point (per tensor), in the input type's range.
    public var inputZeroPoint: Int
    /// One weight scale per output channel, or one for all.
    public var weightScales: [Float]
    /// The weights' zero points, as many as ``weightScales``.
    public var weightZeroPoints: [Int]
    /// The output's scale.
    public var outputScale: Float
    /// The output's zero point, in ``outputType``'s range.
    public var outputZeroPoint: Int
    /// The output's type: `uint8` or `int8`.
    public var outputType: DataType

    /// Creates the attributes of an integer convolution.
    public init(convolution: ConvAttributes, inputScale: Float, inputZeroPoint: Int, weightScales: [Float], weightZeroPoints: [Int],
                outputScale: Float, outputZeroPoint: Int, outputType: DataType) {
        self.convolution = convolution
        self.inputScale = inputScale
        self.inputZeroPoint = inputZeroPoint
        self.weightScales = weightScales
        self.weightZeroPoints = weightZeroPoints
        self.outputScale = outputScale
        self.outputZeroPoint = outputZeroPoint
        self.outputType = outputType
    }
}

extension DataType {
    /// The range of a quantized 8-bit type (`nil` for other types).
    public var quantizedRange: ClosedRange<Int>? {
        switch self {
        case .uint8: return 0...255
        case .int8: return -128...127
        default: return nil
        }
    }
}
