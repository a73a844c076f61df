import Foundation
import FoveaCore
import SwiftProtobuf

/// Writes a Core ML `NeuralNetworkClassifier` (`.mlmodel`) made of a base
/// network up to a feature value, then (if that value is spatial) global
/// average pooling, a fully connected layer with the given weights and a
/// softmax: the model `fovea train` exports for an iPhone app. Its image input
/// carries the normalization in the image scaler (`x = p × scale + bias`),
/// with a per-channel scale layer after it when the channels' standard
/// deviations differ (the scaler has one scale for all channels). Outputs:
/// `classLabel` (the top class) and `classLabelProbs` (every class's probability).
public enum CoreMLClassifierExport {
    /// The image input's preprocessing, as Fovea describes it: `x = (p/255 - mean) / std`.
    public struct ImageInput: Sendable {
        /// The input's feature name.
        public var name: String
        /// The input image's width, in pixels.
        public var width: Int
        /// The input image's height, in pixels.
        public var height: Int
        /// `true` for BGR channel order.
        public var bgr: Bool
        /// Per-channel mean, in the 0...1 range of `p/255`, in the input's channel order.
        public var mean: [Float]
        /// Per-channel standard deviation, in the input's channel order; each must be nonzero.
        public var std: [Float]

        /// Describes an image input of `width × height` pixels normalized as `(p/255 - mean) / std`.
        public init(name: String, width: Int, height: Int, bgr: Bool, mean: [Float], std: [Float]) {
            self.name = name
            self.width = width
            self.height = height
            self.bgr = bgr
            self.mean = mean
            self.std = std
        }
    }

    /// The serialized model.
    ///
    /// - Parameters:
    ///   - graph: the base network as loaded (before graph passes).
    ///   - featureValue: the value the features are read from.
    ///   - pool: whether to global-average-pool it first.
    ///   - weights: `labels.count × featureCount`, row-major; `bias`: one per class.
    ///   - metadata: the model's user-defined metadata.
    /// - Throws: `.unsupported` naming an operator that has no Core ML layer here.
    public static func data(graph: Graph, featureValue: String, pool: Bool, weights: [Float], bias: [Float],
                            labels: [String], image: ImageInput, metadata: [String: String],
                            shortDescription: String) throws -> Data {
        guard image.mean.count == 3, image.std.count == 3, image.std.allSatisfy({ $0 > 0 }) else {
            throw FoveaError(.unsupported, "a Core ML export needs an RGB or BGR image input with three means and positive standard deviations")
        }
        guard !labels.isEmpty, bias.count == labels.count, weights.count % labels.count == 0 else {
            throw FoveaError(.invalidArgument, "the head has \(weights.count) weights and \(bias.count) biases for \(labels.count) labels")
        }
        var writer = CoreMLLayerWriter(graph: try graph.truncated(at: [featureValue]))
        // Image scaler: x = p × channelScale + bias. Equal stds fold in whole;
        // otherwise the scaler subtracts the mean and a scale layer divides by std.
        var scaler = CoreML_Specification_NeuralNetworkImageScaler()
        let equalStd = image.std.allSatisfy { $0 == image.std[0] }
        let channelScale = equalStd ? 1 / (255 * image.std[0]) : 1 / Float(255)
        let biases = (0..<3).map { equalStd ? -image.mean[$0] / image.std[$0] : -image.mean[$0] }
        scaler.channelScale = channelScale
        (scaler.redBias, scaler.greenBias, scaler.blueBias) = (biases[0], biases[1], biases[2])
        if !equalStd {
            writer.writeScale("fovea_input_std", input: image.name, output: "fovea_input_normalized",
                              scale: image.std.map { 1 / $0 }, bias: [0, 0, 0])
            writer.alias(image.name, to: "fovea_input_normalized")
        }
        try writer.writeNodes()
        var features = writer.blob(featureValue)
        if pool {
            var params = CoreML_Specification_PoolingLayerParams()
            params.type = .average
            params.globalPooling = true
            writer.append("fovea_head_pool", [features], "fovea_head_pooled") { $0.pooling = params }
            features = "fovea_head_pooled"
        }
        let featureCount = weights.count / labels.count
        try writer.writeInnerProduct("fovea_head_fc", input: features, output: "fovea_head_logits", inputs: featureCount,
                                     weights: weights, bias: bias)
        writer.append("fovea_head_softmax", ["fovea_head_logits"], "fovea_head_probabilities") { $0.softmax = .init() }

        var classifier = CoreML_Specification_NeuralNetworkClassifier()
        classifier.layers = writer.layers
        var preprocessing = CoreML_Specification_NeuralNetworkPreprocessing()
        preprocessing.featureName = image.name
        preprocessing.scaler = scaler
        classifier.preprocessing = [preprocessing]
        var names = CoreML_Specification_StringVector()
        names.vector = labels
        classifier.stringClassLabels = names
        classifier.labelProbabilityLayerName = "fovea_head_probabilities"

        var description = CoreML_Specification_ModelDescription()
        var input = CoreML_Specification_FeatureDescription()
        input.name = image.name
        var imageType = CoreML_Specification_ImageFeatureType()
        imageType.width = Int64(image.width)
        imageType.height = Int64(image.height)
        imageType.colorSpace = image.bgr ? .bgr : .rgb
        input.type.imageType = imageType
        var probabilities = CoreML_Specification_FeatureDescription()
        probabilities.name = "classLabelProbs"
        var dictionary = CoreML_Specification_DictionaryFeatureType()
        dictionary.stringKeyType = .init()
        probabilities.type.dictionaryType = dictionary
        var label = CoreML_Specification_FeatureDescription()
        label.name = "classLabel"
        label.type.stringType = .init()
        description.input = [input]
        description.output = [probabilities, label]
        description.predictedFeatureName = "classLabel"
        description.predictedProbabilitiesName = "classLabelProbs"
        description.metadata.shortDescription = shortDescription
        description.metadata.userDefined = metadata

        var model = CoreML_Specification_Model()
        // 4 (iOS 13): the clip layer needs it.
        model.specificationVersion = 4
        model.description_p = description
        model.neuralNetworkClassifier = classifier
        return try model.serializedData()
    }
}
