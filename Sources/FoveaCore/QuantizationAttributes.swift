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
/// ``FuseQuantizedConv`` makes it from `DequantizeLinear → Conv (→ Relu | Clip) →
/// QuantizeLinear`; the reference backend runs it literally (the oracle), the
/// kernels backend on its int8 GEMM and depthwise kernels.
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
    /// A fused Relu or Clip as a clamp of the quantized output (within
    /// ``outputType``'s range); `nil` for none.
    public var outputClamp: ClosedRange<Int>?

    /// Creates the attributes of an integer convolution.
    public init(convolution: ConvAttributes, inputScale: Float, inputZeroPoint: Int, weightScales: [Float], weightZeroPoints: [Int],
                outputScale: Float, outputZeroPoint: Int, outputType: DataType, outputClamp: ClosedRange<Int>? = nil) {
        self.convolution = convolution
        self.inputScale = inputScale
        self.inputZeroPoint = inputZeroPoint
        self.weightScales = weightScales
        self.weightZeroPoints = weightZeroPoints
        self.outputScale = outputScale
        self.outputZeroPoint = outputZeroPoint
        self.outputType = outputType
        self.outputClamp = outputClamp
    }

    /// The quantized outputs the step may write: the clamp within the output type's range.
    public var outputRange: ClosedRange<Int> {
        let full = outputType.quantizedRange ?? 0...255
        guard let clamp = outputClamp else { return full }
        return clamp.clamped(to: full)
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
