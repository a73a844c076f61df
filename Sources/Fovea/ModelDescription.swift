import Foundation
import FoveaCore

/// Whether a classifier's scores are raw logits (Fovea applies softmax) or
/// already probabilities.
public enum ClassifierOutputKind: String, Sendable, Equatable, Codable, CaseIterable {
    /// Unnormalized scores: Fovea applies a softmax to get confidences.
    case logits
    /// Probabilities already (the model ends in a softmax): used as they are.
    case probabilities
}

/// What a model's image input wants: its size and how pixels become numbers.
public struct ImageInputDescription: Sendable, Equatable {
    /// The graph input that takes the image (`N×C×H×W`).
    public var name: String
    /// Input width and height in pixels.
    public var width: Int
    /// Input height in pixels.
    public var height: Int
    /// Channel order (RGB, BGR or gray) and the per-channel mean/std or scale/bias.
    public var normalization: PixelNormalization
    /// For ``ImageCropAndScaleOption/centerCrop``: the central fraction of the
    /// scaled image the model saw in training (0.875 for ImageNet's 224 of 256),
    /// or `nil` for Vision's plain centre crop (fraction 1).
    public var cropFraction: Double?

    /// Describes an image input named `name` of `width × height` pixels.
    public init(name: String, width: Int, height: Int, normalization: PixelNormalization, cropFraction: Double? = nil) {
        self.name = name
        self.width = width
        self.height = height
        self.normalization = normalization
        self.cropFraction = cropFraction
    }

    /// The channel order, from ``normalization``.
    public var channelOrder: ChannelOrder { normalization.channelOrder }
}

/// What a model is: its inputs and outputs, the image input's preprocessing,
/// its class labels, and its own metadata.
///
/// ONNX files carry no preprocessing or labels, so Fovea fills in what it can
/// from the graph (the image size; ImageNet normalization is assumed) and then
/// applies, in order, the model's `metadata_props` entry `fovea` and the sidecar
/// file `<name>.fovea.json` (see <doc:SidecarFile>). Code can change any field
/// with ``Model/describing(_:)``. Other loaders (Core ML) fill it directly.
public struct ModelDescription: Sendable, Equatable {
    /// The graph inputs, as declared.
    public var inputs: [ValueInfo]
    /// The graph outputs, as declared.
    public var outputs: [ValueInfo]
    /// The image input, or `nil` if the model has none Fovea recognizes.
    public var imageInput: ImageInputDescription?
    /// Class names in class-index order.
    public var classLabels: ClassLabels?
    /// The output holding the class scores; `nil` means the first output.
    public var scoresOutput: String?
    /// Logits or probabilities; `nil` detects it (a final Softmax, or scores
    /// that are in 0…1 and sum to 1, are taken as probabilities).
    public var outputKind: ClassifierOutputKind?
    /// Format, producer, version, doc string and free-form properties.
    public var metadata: ModelMetadata
    /// The names a Core ML classifier gives its outputs (`classLabelProbs`,
    /// `classLabel`), so results can be reported as Core ML would return them;
    /// `nil` for other models.
    public var classifierOutputNames: ClassifierOutputNames?

    /// Creates a description from its parts; ``Model`` makes one from the model file and sidecar.
    public init(inputs: [ValueInfo], outputs: [ValueInfo], imageInput: ImageInputDescription? = nil,
                classLabels: ClassLabels? = nil, scoresOutput: String? = nil,
                outputKind: ClassifierOutputKind? = nil, metadata: ModelMetadata = ModelMetadata()) {
        self.inputs = inputs
        self.outputs = outputs
        self.imageInput = imageInput
        self.classLabels = classLabels
        self.scoresOutput = scoresOutput
        self.outputKind = outputKind
        self.metadata = metadata
    }

    /// What the graph alone says: the first `N×3×H×W` (or `N×1×H×W`, gray)
    /// input with known `H` and `W` is the image, normalized as ImageNet
    /// (or `p / 255` for gray); a final Softmax means probabilities.
    @_spi(Internals) public init(graph: Graph) {
        self.init(inputs: graph.inputs, outputs: graph.outputs, metadata: graph.metadata)
        imageInput = graph.inputs.lazy.compactMap(ModelDescription.imageInput(from:)).first
        if let output = graph.outputs.first?.name,
           let producer = graph.nodes.last(where: { $0.outputs.contains(output) }),
           case .softmax = producer.op {
            outputKind = .probabilities
        }
    }

    private static func imageInput(from input: ValueInfo) -> ImageInputDescription? {
        guard input.dataType == .float32, let dims = input.dimensions, dims.count == 4,
              case .known(let channels) = dims[1], channels == 3 || channels == 1,
              case .known(let height) = dims[2], case .known(let width) = dims[3], width > 0, height > 0 else { return nil }
        let normalization = channels == 3 ? PixelNormalization.imageNet : PixelNormalization.unitGray
        return ImageInputDescription(name: input.name, width: width, height: height, normalization: normalization)
    }

    /// The name of the output holding class scores.
    public var scoresOutputName: String? { scoresOutput ?? outputs.first?.name }

    /// Throws `.invalidModel` unless the named inputs and outputs exist and the
    /// image input's values are usable.
    public func validate() throws {
        if let image = imageInput {
            guard let input = inputs.first(where: { $0.name == image.name }) else {
                throw FoveaError(.invalidModel, "the image input '\(image.name)' is not a model input (inputs: \(inputs.map(\.name).joined(separator: ", ")))")
            }
            guard image.width > 0, image.height > 0 else {
                throw FoveaError(.invalidModel, "the image input size \(image.width)×\(image.height) is empty")
            }
            if let dims = input.dimensions, dims.count == 4, case .known(let channels) = dims[1],
               channels != image.channelOrder.channelCount {
                throw FoveaError(.invalidModel, "input '\(image.name)' has \(channels) channel(s) but the description says \(image.channelOrder.rawValue)")
            }
            try image.normalization.validate()
            if let fraction = image.cropFraction, !(fraction > 0 && fraction <= 1) {
                throw FoveaError(.invalidModel, "crop fraction \(fraction) must be in (0, 1]")
            }
        }
        if let scoresOutput, !outputs.contains(where: { $0.name == scoresOutput }) {
            throw FoveaError(.invalidModel, "the scores output '\(scoresOutput)' is not a model output (outputs: \(outputs.map(\.name).joined(separator: ", ")))")
        }
    }
}

/// A Core ML classifier's own output names.
public struct ClassifierOutputNames: Sendable, Equatable {
    /// The dictionary of label → probability (`classLabelProbs`).
    public var probabilities: String
    /// The most likely label (`classLabel`).
    public var label: String

    /// Names a classifier's probability and label outputs.
    public init(probabilities: String, label: String) {
        self.probabilities = probabilities
        self.label = label
    }
}

