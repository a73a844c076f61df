import FoveaCore

/// A Core ML `.mlmodel` (NeuralNetwork or NeuralNetworkClassifier) read into
/// Fovea: the graph to run plus what the model file says about its interface.
///
/// The graph's inputs are the **preprocessed** tensors: for an image input,
/// `[1, C, H, W]` float32 with C = 3 (in the model's channel order, RGB or BGR)
/// or 1 (grayscale), each pixel already mapped by ``CoreMLImageInput/preprocess(_:)``
/// (`p × channelScale + bias[c]`, then minus the mean image if any). For a
/// classifier, the graph's output (``CoreMLClassifier/graphOutputName``) is the
/// probability blob as `[1, classes]`, in the order of ``CoreMLClassifier/labels``.
/// Every other blob is NCHW `[1, C, H, W]` (Core ML's rank-5 `[Seq, Batch, C, H, W]`
/// with Seq = Batch = 1).
public struct CoreMLModel: Sendable {
    /// The network, ready for `ExecutionPlan`.
    public var graph: Graph
    /// The model's type: a classifier or a plain neural network.
    public var modelType: CoreMLModelType
    /// `Model.specificationVersion` (1 to 4).
    public var specificationVersion: Int
    /// The description, author, license and version the model declares.
    public var metadata: CoreMLMetadata
    /// The model's declared inputs and outputs, as Xcode lists them.
    public var inputs: [CoreMLFeature]
    /// The model's declared outputs.
    public var outputs: [CoreMLFeature]
    /// The image inputs with their preprocessing, in declaration order.
    public var imageInputs: [CoreMLImageInput]
    /// Class labels and output names; `nil` unless ``modelType`` is a classifier.
    public var classifier: CoreMLClassifier?
    /// How many layers of each Core ML type the network has, such as `["convolution": 26]`.
    public var layerHistogram: [String: Int]
    /// How the weights are stored, by storage (`float32`, `float16`,
    /// `8-bit lookup table`, `4-bit linear`, ...) → number of weights.
    public var weightPrecision: [String: Int]

    /// The first image input, the one an image request feeds.
    public var imageInput: CoreMLImageInput? { imageInputs.first }
}

/// The Core ML model types Fovea runs.
public enum CoreMLModelType: String, Sendable, Equatable {
    /// A `NeuralNetworkClassifier`: a network with class labels and a probability output.
    case neuralNetworkClassifier = "Neural Network Classifier"
    /// A `NeuralNetwork`: outputs are raw multi-arrays, with no labels.
    case neuralNetwork = "Neural Network"

    /// Xcode's name for the type, such as "Neural Network Classifier".
    public var displayName: String { rawValue }
}

/// `Model.description.metadata`.
public struct CoreMLMetadata: Sendable, Equatable {
    /// The model's one-line description (`shortDescription`).
    public var shortDescription: String = ""
    /// Who made the model (`author`).
    public var author: String = ""
    /// The model's license terms (`license`).
    public var license: String = ""
    /// The model's version as the author wrote it (`versionString`).
    public var versionString: String = ""
    /// Free-form key/value pairs, such as `com.github.apple.coremltools.version`.
    public var userDefined: [String: String] = [:]

    /// Empty metadata: every field blank.
    public init() {}
}

/// A declared input or output of the model.
public struct CoreMLFeature: Sendable, Equatable {
    /// The feature's name, as the model's inputs or outputs list it.
    public var name: String
    /// The feature's one-line description; may be empty.
    public var shortDescription: String
    /// What the feature holds: an image, a multi-array, a dictionary, ...
    public var type: CoreMLFeatureType
    /// Whether the model runs without this feature.
    public var isOptional: Bool
}

/// The type of a model input or output (`FeatureType`).
public enum CoreMLFeatureType: Sendable, Equatable, CustomStringConvertible {
    /// An image of the given size, in pixels, and color space.
    case image(width: Int, height: Int, colorSpace: CoreMLColorSpace)
    /// A multi-array with its declared shape and element type (`Float32`, `Double`, ...).
    case multiArray(shape: [Int], dataType: String)
    /// A 64-bit integer.
    case int64
    /// A double-precision number.
    case double
    /// A string.
    case string
    /// A dictionary from `String` or `Int64` keys to `Double` values.
    case dictionary(keyType: String)
    /// A sequence of strings or integers.
    case sequence
    /// A state feature (Core ML 8 stateful models); Fovea does not run these.
    case state
    /// No type, or one this version of the specification subset does not know.
    case unknown

    /// As Xcode shows it: `Image (Color 224×224)`, `MultiArray (Float32 1×3×32×32)`,
    /// `Dictionary (String → Double)`, `String`.
    public var description: String {
        switch self {
        case .image(let width, let height, let colorSpace):
            return "Image (\(colorSpace == .grayscale ? "Grayscale" : "Color") \(width)×\(height))"
        case .multiArray(let shape, let dataType):
            return "MultiArray (\(dataType)\(shape.isEmpty ? "" : " " + shape.map(String.init).joined(separator: "×")))"
        case .int64: return "Int64"
        case .double: return "Double"
        case .string: return "String"
        case .dictionary(let keyType): return "Dictionary (\(keyType) → Double)"
        case .sequence: return "Sequence"
        case .state: return "State"
        case .unknown: return "Unknown"
        }
    }
}

/// The pixel layout of an image input.
public enum CoreMLColorSpace: String, Sendable, Equatable {
    /// Red, green, blue.
    case rgb = "RGB"
    /// Blue, green, red (common in models converted from Caffe).
    case bgr = "BGR"
    /// One luma channel.
    case grayscale = "Grayscale"

    /// The number of channels of the graph input: 3, or 1 for grayscale.
    public var channelCount: Int { self == .grayscale ? 1 : 3 }
}

/// An image input and the preprocessing Core ML applies before the first layer.
///
/// For a pixel value `p` in 0...255 of channel `c` (in ``colorSpace`` order:
/// R, G, B for RGB; B, G, R for BGR):
///
///     x = p × channelScale + channelBiases[c]          (NeuralNetworkImageScaler: multiply, then add)
///     x = x − meanImage[c, y, x]                       (NeuralNetworkMeanImage, if any)
///
/// Core ML does not resize or crop: the caller supplies a ``width`` × ``height`` image.
public struct CoreMLImageInput: Sendable, Equatable {
    /// The feature name, which is also the graph input's name.
    public var name: String
    /// The image width, in pixels, the model expects.
    public var width: Int
    /// The image height, in pixels, the model expects.
    public var height: Int
    /// The channel order of the image: RGB, BGR or grayscale.
    public var colorSpace: CoreMLColorSpace
    /// `NeuralNetworkImageScaler.channelScale` (1 when the model has no scaler).
    public var channelScale: Float
    /// Per channel in ``colorSpace`` order: `[red, green, blue]` biases for RGB,
    /// `[blue, green, red]` for BGR, `[gray]` for grayscale (0 when the model has no scaler).
    public var channelBiases: [Float]
    /// `NeuralNetworkMeanImage`, `C × H × W` values to subtract, if the model has one.
    public var meanImage: [Float]?

    /// The graph input's shape, `[1, C, height, width]`.
    public var tensorShape: [Int] { [1, colorSpace.channelCount, height, width] }

    /// Applies the preprocessing to raw pixel values (0...255) laid out as
    /// ``tensorShape`` (NCHW, any batch size N), channels in ``colorSpace`` order.
    ///
    /// - Throws: `FoveaError(.shapeMismatch)` if `pixels` is not `[N, C, height, width]` float32.
    public func preprocess(_ pixels: Tensor) throws -> Tensor {
        let expected = tensorShape
        guard pixels.rank == 4, Array(pixels.shape.dropFirst()) == Array(expected.dropFirst()) else {
            throw FoveaError(.shapeMismatch, "image input '\(name)' expects pixels of shape N×\(expected.dropFirst().map(String.init).joined(separator: "×")); found \(pixels.shape.shapeDescription)")
        }
        var values = try pixels.requireFloats("pixels")
        let channels = expected[1], plane = height * width
        for index in values.indices {
            let c = (index / plane) % channels
            var x = values[index] * channelScale + channelBiases[c]
            if let meanImage { x -= meanImage[index % (channels * plane)] }
            values[index] = x
        }
        return try Tensor(shape: pixels.shape, floats: values)
    }
}

/// What a classifier returns and how its outputs are named.
public struct CoreMLClassifier: Sendable, Equatable {
    /// Index `i` of the probability vector is `labels[i]` (`int64ClassLabels` are written in decimal).
    public var labels: [String]
    /// The labels were `int64ClassLabels` rather than strings.
    public var labelsAreIntegers: Bool
    /// The model's dictionary output of label → probability (`predictedProbabilitiesName`, often `classLabelProbs`).
    public var probabilitiesOutputName: String
    /// The model's top-label output (`predictedFeatureName`, often `classLabel`).
    public var labelOutputName: String
    /// The network blob holding the probabilities (`labelProbabilityLayerName`).
    public var probabilityBlobName: String
    /// The graph output holding the probabilities as `[1, labels.count]`.
    public var graphOutputName: String
}
