/// A node's operator with its attributes, already checked and in one canonical form.
///
/// Loaders translate every opset-dependent form into this one: an ONNX `Clip`
/// with `min`/`max` attributes (opset < 11) and one with constant `min`/`max`
/// inputs (opset ≥ 11) both become `.clip(min:max:)`; `Squeeze` axes given as an
/// attribute or as a constant input both become `.squeeze(axes:)`. So backends and
/// passes never look at opsets or raw attribute maps.
///
/// Inputs that stay tensors are listed in each case's comment, in order; an
/// optional input that is absent is the empty string in ``Node/inputs``.
public enum Op: Sendable, Equatable {
    /// Inputs: X, W, B?.
    case conv(ConvAttributes)
    /// Inputs: X.
    case relu
    /// Inputs: X. `x` where `x >= 0`, `alpha * x` elsewhere.
    case leakyRelu(alpha: Float)
    /// Inputs: X, slope (broadcast to X).
    case prelu
    /// Inputs: X. `1 / (1 + exp(-x))`.
    case sigmoid
    /// `max(0, min(1, alpha * x + beta))`.
    case hardSigmoid(alpha: Float, beta: Float)
    /// `x * max(0, min(1, x / 6 + 1/2))`.
    case hardSwish
    /// Bounds that are `nil` are open.
    case clip(min: Float?, max: Float?)
    /// Inputs: X (NCHW). The largest element of each window.
    case maxPool(PoolAttributes)
    /// Inputs: X (NCHW). The mean of each window (see ``PoolAttributes/countIncludePad``).
    case averagePool(PoolAttributes)
    /// Inputs: X (NCHW). The mean of each channel plane, as an `N×C×1×1` output.
    case globalAveragePool
    /// Inputs: X (NCHW). The largest element of each channel plane, as an `N×C×1×1` output.
    case globalMaxPool
    /// Inputs: one or more tensors, equal except along `axis`.
    case concat(axis: Int)
    /// Inputs: X. `exp(x) / sum(exp(x))` along the axis.
    case softmax(SoftmaxAttributes)
    /// Inputs: X. `x - log(sum(exp(x)))` along the axis.
    case logSoftmax(SoftmaxAttributes)
    /// Inputs: X. Reshapes to 2-D: the axes before `axis`, then the rest.
    case flatten(axis: Int)
    /// `shape` may hold one `-1` (inferred) and `0`s (copy the input's dim unless `allowZero`).
    case reshape(shape: [Int], allowZero: Bool)
    /// Reshape, Expand, Slice or ConstantOfShape with parameters the graph
    /// computes from input shapes (a dynamic batch). Planning folds them once
    /// the input shapes are known; see ``ComputedParameters``.
    case withComputedParameters(ComputedParameters)
    /// `nil` axes squeeze every dimension of size 1.
    case squeeze(axes: [Int]?)
    /// Inputs: X. Inserts a dimension of size 1 at each of `axes` (of the output).
    case unsqueeze(axes: [Int])
    /// `nil` reverses the axes.
    case transpose(perm: [Int]?)
    /// Inputs: A, B, C?. `alpha * A' * B' + beta * C`.
    case gemm(GemmAttributes)
    /// Inputs: A, B (numpy matmul semantics, with broadcasting batch dims).
    case matMul
    /// Inputs: A, B (numpy broadcasting).
    case add
    /// Inputs: A, B (numpy broadcasting). `A - B`.
    case sub
    /// Inputs: A, B (numpy broadcasting). `A * B`.
    case mul
    /// Inputs: A, B (numpy broadcasting). `A / B`.
    case div
    /// Inputs: one or more tensors (numpy broadcasting).
    case sum
    /// Inputs: X, scale, bias, mean, variance (inference form).
    case batchNormalization(epsilon: Float)
    /// Inputs: X (NCHW). Local response normalization across channels.
    case lrn(LRNAttributes)
    /// Inference: output 0 is the input; the optional output 1 (mask) is all true.
    case dropout
    /// Inputs: X. The output is the input.
    case identity
    /// Constant-mode padding. `pads` is `[begin_0, begin_1, ..., end_0, end_1, ...]`
    /// over `axes` (all axes when `nil`).
    case pad(pads: [Int], value: Float, axes: [Int]?)
    /// The input's shape as an int64 vector, sliced to `start ..< end` (opset 15 form).
    case shape(start: Int, end: Int?)
    /// The input's element count as an int64 scalar.
    case size
    /// Inputs: X (float). An elementwise function; see ``UnaryFunction``.
    case unary(UnaryFunction)
    /// Reflect- or edge-mode padding (no negative pads). `pads` is
    /// `[begin_0, ..., begin_r-1, end_0, ..., end_r-1]` over all axes.
    case borderPad(pads: [Int], mode: BorderPadMode)
    /// Inputs: X (float). ReduceMean, ReduceSum, ... over some axes; see ``ReduceAttributes``.
    case reduce(ReduceAttributes)
    /// Inputs: X (float). The int64 index of the largest element along `axis`
    /// (the first of equal ones, or the last with `selectLastIndex`).
    case argMax(axis: Int, keepDims: Bool, selectLastIndex: Bool)
    /// Inputs: A, B (numpy broadcasting). `A ^ B`.
    case pow
    /// Inputs: one or more tensors (numpy broadcasting). The elementwise
    /// largest (ONNX `Max`); a NaN operand gives NaN.
    case maximum
    /// Inputs: one or more tensors (numpy broadcasting). The elementwise
    /// smallest (ONNX `Min`); a NaN operand gives NaN.
    case minimum
    /// Inputs: X, Scale, B?. Normalizes over the axes from `axis` on, then
    /// scales and shifts (Scale and B broadcast to `X.shape[axis...]`).
    /// Outputs: Y, and optionally Mean and InvStdDev (`X.shape[..<axis]`
    /// followed by ones).
    case layerNormalization(axis: Int, epsilon: Float)
    /// Inputs: X (N×C×...), scale (C), B (C). Normalizes each image's channel
    /// over its spatial axes, then scales and shifts per channel.
    case instanceNormalization(epsilon: Float)
    /// Inputs: X (N×C×...), scale, bias. Normalizes each image's `groups`
    /// groups of consecutive channels; scale and bias hold one value per
    /// channel (`perChannel`, ONNX opset 21) or per group (opset 18).
    case groupNormalization(groups: Int, epsilon: Float, perChannel: Bool)
    /// Inputs: data (any type). ONNX Slice: on each of `axes` (all, in
    /// order, when `nil`) take `starts[i] ..< ends[i]` by `steps[i]` (1 when
    /// `nil`); negative values count from the end and the bounds are clamped.
    case slice(starts: [Int], ends: [Int], axes: [Int]?, steps: [Int]?)
    /// Inputs: input (any type). One output per part along `axis`: `sizes`
    /// gives each part's extent; `nil` splits into as many equal parts as
    /// there are outputs (the last one smaller when the axis does not divide).
    case split(axis: Int, sizes: [Int]?)
    /// Inputs: data (any type), indices (int64; negative ones count from the
    /// end). Picks slices of `data` along `axis` (ONNX Gather).
    case gather(axis: Int)
    /// Inputs: input (any type). Broadcasts the input and `shape` together (numpy rules).
    case expand(shape: [Int])
    /// Inputs: input (any type). Repeats the input `repeats[i]` times along axis `i`.
    case tile(repeats: [Int])
    /// Inputs: condition (bool), X, Y (one type). `condition ? X : Y` with
    /// numpy broadcasting (ONNX Where).
    case select
    /// Inputs: A, B (float32 or int64, the same). A bool tensor, numpy broadcasting.
    case compare(Comparison)
    /// Inputs: X (bool). Logical negation.
    case not
    /// Inputs: input. Converts every element to `to` (float → int64 truncates toward zero).
    case cast(to: DataType)
    /// Inputs: input (N×C×H×W). Moves blocks of channels into `blockSize`×`blockSize`
    /// pixels; `columnRowDepth` is ONNX's CRD mode, otherwise DCR.
    case depthToSpace(blockSize: Int, columnRowDepth: Bool)
    /// Inputs: input (N×C×H×W). Moves each `blockSize`×`blockSize` block of pixels into channels.
    case spaceToDepth(blockSize: Int)
    /// Inputs: X (float). Nearest or linear resampling to new extents; see ``ResizeAttributes``.
    case resize(ResizeAttributes)
    /// Inputs: A, B (two float32 or two int64; numpy broadcasting). The remainder
    /// of A / B with the divisor's sign (Python's `%`, ONNX Mod's default for
    /// integers), or with the dividend's when `fmod` (C's fmod; ONNX requires it
    /// for floats). Swin's window arithmetic on shapes uses it.
    case mod(fmod: Bool)
    /// Inputs: data (any type), indices (int64; its last axis addresses data's
    /// leading axes), updates. A copy of data in which each addressed element or
    /// slice is replaced by its update, or combined with it by `reduction`
    /// (ONNX ScatterND; Swin builds its shifted-window mask with it).
    case scatterND(reduction: ScatterReduction)
    /// Inputs: X (N×C×H×W), W1 (R×C×1×1), B1?, W2 (C×R×1×1), B2?. A
    /// squeeze-and-excitation block as one unit, made by the
    /// ``FuseSqueezeExcitation`` pass: `X · gate(Conv2(act(Conv1(GlobalAveragePool(X)))))`,
    /// with the gate one value per image and channel, never a full tensor.
    case squeezeExcitation(SqueezeExcitationAttributes)
    /// Inputs: x (float32), y_scale (float32), y_zero_point? (uint8 or int8).
    /// `saturate(roundHalfToEven(x / y_scale) + y_zero_point)` as `outputType`;
    /// per tensor, or per slice along `axis` when the scale is 1-D (ONNX QuantizeLinear).
    case quantizeLinear(QuantizeLinearAttributes)
    /// Inputs: x (uint8, int8, or int32 loaded as int64), x_scale (float32),
    /// x_zero_point?. `(x - x_zero_point) * x_scale` in float32, per tensor or
    /// along `axis` (ONNX DequantizeLinear).
    case dequantizeLinear(axis: Int)
    /// Inputs: x (float32). Outputs: y (uint8), y_scale, y_zero_point: the uint8
    /// quantization of x over the range of its values and 0 (ONNX DynamicQuantizeLinear).
    case dynamicQuantizeLinear
    /// Inputs: x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale,
    /// y_zero_point, B? (int32). An integer convolution of the zero-point-shifted
    /// x and w, plus B, requantized to y's scale and zero point (ONNX QLinearConv).
    case qLinearConv(ConvAttributes)
    /// Inputs: a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale,
    /// y_zero_point. An integer product requantized to y (ONNX QLinearMatMul).
    case qLinearMatMul
    /// Inputs: x, w, x_zero_point?, w_zero_point?. The int32 convolution of the
    /// zero-point-shifted x and w (ONNX ConvInteger).
    case convInteger(ConvAttributes)
    /// Inputs: A, B, a_zero_point?, b_zero_point?. The int32 product of the
    /// zero-point-shifted A and B, numpy matmul broadcasting (ONNX MatMulInteger).
    case matMulInteger
    /// Inputs: x (uint8 or int8), w (int8 or uint8), B? (int32). The integer
    /// convolution a `DequantizeLinear → Conv → QuantizeLinear` pattern stands
    /// for, with every scale and zero point constant in the attributes: the step
    /// the integer kernels claim. Not an ONNX operator: ``FuseQuantizedConv`` makes it.
    case quantizedConv(QuantizedConvAttributes)
    /// Inputs: X (uint8 or int8), x_scale, x_zero_point, y_scale, y_zero_point
    /// (X's type). The mean of each image's channel, requantized:
    /// `saturate(round((Σx − x_zero_point·S) · x_scale / (y_scale · S)) + y_zero_point)`
    /// over the S spatial values, in float32 as onnxruntime computes it
    /// (com.microsoft QLinearGlobalAveragePool; NHWC when `channelsLast`).
    case qLinearGlobalAveragePool(channelsLast: Bool)

    /// The ONNX operator type name, used in messages and op histograms.
    public var typeName: String {
        switch self {
        case .conv: return "Conv"
        case .relu: return "Relu"
        case .leakyRelu: return "LeakyRelu"
        case .prelu: return "PRelu"
        case .sigmoid: return "Sigmoid"
        case .hardSigmoid: return "HardSigmoid"
        case .hardSwish: return "HardSwish"
        case .clip: return "Clip"
        case .maxPool: return "MaxPool"
        case .averagePool: return "AveragePool"
        case .globalAveragePool: return "GlobalAveragePool"
        case .globalMaxPool: return "GlobalMaxPool"
        case .concat: return "Concat"
        case .softmax: return "Softmax"
        case .logSoftmax: return "LogSoftmax"
        case .flatten: return "Flatten"
        case .reshape: return "Reshape"
        case .withComputedParameters(let computed): return computed.typeName
        case .squeeze: return "Squeeze"
        case .unsqueeze: return "Unsqueeze"
        case .transpose: return "Transpose"
        case .gemm: return "Gemm"
        case .matMul: return "MatMul"
        case .add: return "Add"
        case .sub: return "Sub"
        case .mul: return "Mul"
        case .div: return "Div"
        case .sum: return "Sum"
        case .batchNormalization: return "BatchNormalization"
        case .lrn: return "LRN"
        case .dropout: return "Dropout"
        case .identity: return "Identity"
        case .pad: return "Pad"
        case .shape: return "Shape"
        case .size: return "Size"
        case .unary(let function): return function.typeName
        case .borderPad: return "Pad"
        case .reduce(let attributes): return attributes.reduction.typeName
        case .argMax: return "ArgMax"
        case .pow: return "Pow"
        case .maximum: return "Max"
        case .minimum: return "Min"
        case .layerNormalization: return "LayerNormalization"
        case .instanceNormalization: return "InstanceNormalization"
        case .groupNormalization: return "GroupNormalization"
        case .slice: return "Slice"
        case .split: return "Split"
        case .gather: return "Gather"
        case .expand: return "Expand"
        case .tile: return "Tile"
        case .select: return "Where"
        case .compare(let comparison): return comparison.typeName
        case .not: return "Not"
        case .cast: return "Cast"
        case .depthToSpace: return "DepthToSpace"
        case .spaceToDepth: return "SpaceToDepth"
        case .resize: return "Resize"
        case .mod: return "Mod"
        case .scatterND: return "ScatterND"
        case .squeezeExcitation: return "SqueezeExcitation"
        case .quantizeLinear: return "QuantizeLinear"
        case .dequantizeLinear: return "DequantizeLinear"
        case .dynamicQuantizeLinear: return "DynamicQuantizeLinear"
        case .qLinearConv: return "QLinearConv"
        case .qLinearMatMul: return "QLinearMatMul"
        case .convInteger: return "ConvInteger"
        case .matMulInteger: return "MatMulInteger"
        case .quantizedConv: return "QuantizedConv"
        case .qLinearGlobalAveragePool: return "QLinearGlobalAveragePool"
        }
    }
}

/// The elementwise comparisons of ``Op/compare(_:)``.
public enum Comparison: String, Sendable, Equatable, CaseIterable {
    /// `a == b` (ONNX `Equal`).
    case equal
    /// `a < b` (ONNX `Less`).
    case less
    /// `a > b` (ONNX `Greater`).
    case greater
    /// `a <= b` (ONNX `LessOrEqual`).
    case lessOrEqual
    /// `a >= b` (ONNX `GreaterOrEqual`).
    case greaterOrEqual

    /// The ONNX operator name.
    public var typeName: String {
        switch self {
        case .equal: return "Equal"
        case .less: return "Less"
        case .greater: return "Greater"
        case .lessOrEqual: return "LessOrEqual"
        case .greaterOrEqual: return "GreaterOrEqual"
        }
    }
}

/// How ONNX derives padding when `auto_pad` is set.
public enum AutoPad: String, Sendable, Equatable {
    /// Use the explicit `pads`.
    case notSet = "NOTSET"
    /// Output size `ceil(input / stride)`; extra padding goes at the end.
    case sameUpper = "SAME_UPPER"
    /// Output size `ceil(input / stride)`; extra padding goes at the beginning.
    case sameLower = "SAME_LOWER"
    /// No padding.
    case valid = "VALID"
}

/// Convolution attributes over `k` spatial axes (1, 2 or 3).
public struct ConvAttributes: Sendable, Equatable {
    /// Spatial kernel extent; taken from the weight's shape when the model omits it.
    public var kernelShape: [Int]
    /// Step between window positions per spatial axis (1 when the model omits it).
    public var strides: [Int]
    /// Spacing between kernel taps per spatial axis (1 when the model omits it).
    public var dilations: [Int]
    /// `[begin_0, ..., begin_k-1, end_0, ..., end_k-1]`, ignored unless `autoPad == .notSet`.
    public var pads: [Int]
    /// How padding is chosen; ``pads`` is used only for ``AutoPad/notSet``.
    public var autoPad: AutoPad
    /// Number of groups the input and output channels are split into; equal to the channel count for a depthwise convolution.
    public var group: Int
    /// An activation applied to every output after the bias, set by the
    /// ``FuseConvActivation`` pass (ONNX has no such attribute); `nil` for none.
    public var activation: FusedActivation?
    /// Whether input 3 (a tensor of the output's shape) is added to every
    /// output after the bias and before ``activation``, set by the
    /// ``FuseConvAdd`` pass (a residual connection; ONNX has no such input).
    public var addsResidual: Bool

    /// Creates convolution attributes; `pads` has two entries per spatial axis (all begins, then all ends).
    public init(kernelShape: [Int], strides: [Int], dilations: [Int], pads: [Int], autoPad: AutoPad = .notSet, group: Int = 1,
                activation: FusedActivation? = nil, addsResidual: Bool = false) {
        self.kernelShape = kernelShape
        self.strides = strides
        self.dilations = dilations
        self.pads = pads
        self.autoPad = autoPad
        self.group = group
        self.activation = activation
        self.addsResidual = addsResidual
    }

    /// What the passes fused into this Conv, for plans and profiles:
    /// `" +add"`, `" +relu"`, `" +add +relu"`, or `""` for nothing.
    public var fusionSuffix: String {
        Self.fusionSuffix(addsResidual: addsResidual, activation: activation)
    }

    /// ``fusionSuffix`` for a step that keeps the two fused parts apart from the attributes.
    public static func fusionSuffix(addsResidual: Bool, activation: FusedActivation?) -> String {
        (addsResidual ? " +add" : "") + (activation.map { " +\($0)" } ?? "")
    }
}

/// Max and average pooling attributes over `k` spatial axes.
public struct PoolAttributes: Sendable, Equatable {
    /// Window extent per spatial axis.
    public var kernelShape: [Int]
    /// Step between window positions per spatial axis.
    public var strides: [Int]
    /// Spacing between window taps per spatial axis (1 is dense).
    public var dilations: [Int]
    /// `[begin_0, ..., begin_k-1, end_0, ..., end_k-1]`, ignored unless `autoPad == .notSet`.
    public var pads: [Int]
    /// How padding is chosen; ``pads`` is used only for ``AutoPad/notSet``.
    public var autoPad: AutoPad
    /// Round the output size up instead of down.
    public var ceilMode: Bool
    /// Average pooling only: divide by the full window size, padding included.
    public var countIncludePad: Bool

    /// Creates pooling attributes; `pads` has two entries per spatial axis (all begins, then all ends).
    public init(kernelShape: [Int], strides: [Int], dilations: [Int], pads: [Int], autoPad: AutoPad = .notSet, ceilMode: Bool = false, countIncludePad: Bool = false) {
        self.kernelShape = kernelShape
        self.strides = strides
        self.dilations = dilations
        self.pads = pads
        self.autoPad = autoPad
        self.ceilMode = ceilMode
        self.countIncludePad = countIncludePad
    }
}

/// Softmax / LogSoftmax attributes.
public struct SoftmaxAttributes: Sendable, Equatable {
    /// The axis the softmax normalizes over; negative counts from the end.
    public var axis: Int
    /// Opset < 13: the input is viewed as 2-D `[prod(dims[..<axis]), prod(dims[axis...])]`
    /// and the softmax runs over the whole second dimension.
    public var coercedTo2D: Bool

    /// Creates softmax attributes; `coercedTo2D` is true for models of opset 12 and older.
    public init(axis: Int, coercedTo2D: Bool) {
        self.axis = axis
        self.coercedTo2D = coercedTo2D
    }
}

/// `Y = alpha * op(A) * op(B) + beta * C`.
public struct GemmAttributes: Sendable, Equatable {
    /// Scale of the product `op(A) * op(B)`.
    public var alpha: Float
    /// Scale of `C`; `C` is ignored when it is absent.
    public var beta: Float
    /// Whether `A` is transposed before the product.
    public var transA: Bool
    /// Whether `B` is transposed before the product.
    public var transB: Bool

    /// Creates Gemm attributes; the defaults are ONNX's.
    public init(alpha: Float = 1, beta: Float = 1, transA: Bool = false, transB: Bool = false) {
        self.alpha = alpha
        self.beta = beta
        self.transA = transA
        self.transB = transB
    }
}

/// Local response normalization across channels.
public struct LRNAttributes: Sendable, Equatable {
    /// Scale of the sum of squares (divided by ``size``, as ONNX defines it).
    public var alpha: Float
    /// Exponent of the normalizer.
    public var beta: Float
    /// Constant added to the scaled sum of squares (ONNX's `bias`, `k` in the paper).
    public var bias: Float
    /// Number of channels summed over, centered on the output's channel.
    public var size: Int

    /// Creates LRN attributes: `y = x / (bias + alpha / size * sum(x²))^beta` over `size` neighboring channels.
    public init(alpha: Float = 0.0001, beta: Float = 0.75, bias: Float = 1, size: Int) {
        self.alpha = alpha
        self.beta = beta
        self.bias = bias
        self.size = size
    }
}

/// The two 1×1 convolutions of ``Op/squeezeExcitation(_:)``, each with its
/// fused activation (the second one's is the gate: Sigmoid or HardSigmoid).
public struct SqueezeExcitationAttributes: Sendable, Equatable {
    /// Channels → reduced channels, usually with ReLU or SiLU.
    public var reduce: ConvAttributes
    /// Reduced channels → channels, with the gate activation.
    public var expand: ConvAttributes

    /// Creates the attributes of a block from its two 1×1 convolutions.
    public init(reduce: ConvAttributes, expand: ConvAttributes) {
        self.reduce = reduce
        self.expand = expand
    }
}
