import Foundation
import Fovea
import FoveaONNX
import FoveaCoreML

/// The trained classifier as one model file that classifies with no flags.
enum ClassifierExport {
    /// ONNX: the base graph up to the feature layer, [GlobalAveragePool,]
    /// Flatten, a Gemm holding the head with the standardization folded in,
    /// Softmax; labels and preprocessing in `metadata_props["fovea"]`.
    static func onnx(_ classifier: ImageClassifier) throws -> Data {
        let base = classifier.extractor.baseModel
        guard try ModelFile.format(ofFileAt: base.path) == .onnx else {
            throw FoveaError(.unsupported, "an ONNX export needs an ONNX base model; write a .mlmodel instead", location: .init(file: base.path))
        }
        let (weights, bias) = classifier.standardization.folded(into: classifier.head)
        return try ONNXClassifierExport.data(baseModel: base.path, featureValue: classifier.extractor.layer.name,
                                             pool: classifier.extractor.layer.isPooled,
                                             weights: weights.map(Float.init), bias: bias.map(Float.init),
                                             metadata: ["fovea": try description(classifier)])
    }

    /// Fovea's description of the exported model (see `ModelSidecar`): the
    /// base model's image preprocessing, the class labels and the output.
    static func description(_ classifier: ImageClassifier) throws -> String {
        var json: [String: Any] = [
            "labels": classifier.classes,
            "output": ONNXClassifierExport.outputName,
            "output_kind": "probabilities",
        ]
        if let image = classifier.extractor.baseModel.modelDescription.imageInput {
            json["input"] = image.name
            json["input_size"] = [image.width, image.height]
            json["channel_order"] = image.channelOrder.rawValue
            json["mean"] = image.normalization.mean.map(Double.init)
            json["std"] = image.normalization.std.map(Double.init)
            if let fraction = image.cropFraction { json["crop_fraction"] = fraction }
        }
        let data = try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// Core ML: a `NeuralNetworkClassifier` of the base network's layers up
    /// to the feature layer, [global pooling,] an inner product holding the
    /// head with the standardization folded in, and a softmax; the image
    /// scaler carries the normalization.
    static func coreML(_ classifier: ImageClassifier) throws -> Data {
        let base = classifier.extractor.baseModel
        guard let image = base.modelDescription.imageInput, image.channelOrder != .gray else {
            throw FoveaError(.unsupported, "a Core ML export needs a base model with an RGB or BGR image input", location: .init(file: base.path))
        }
        if let fraction = image.cropFraction, fraction < 1 {
            // Core ML's image input has no crop fraction: Vision's centre crop sees fraction 1.
            FileHandle.standardError.write(Data("warning: the base model's crop fraction \(fraction) cannot be stored in a .mlmodel; Core ML and Vision crop with fraction 1\n".utf8))
        }
        let (weights, bias) = classifier.standardization.folded(into: classifier.head)
        let input = CoreMLClassifierExport.ImageInput(name: image.name, width: image.width, height: image.height,
                                                      bgr: image.channelOrder == .bgr,
                                                      mean: image.normalization.mean, std: image.normalization.std)
        return try FoveaError.at(.init(file: base.path)) {
            try CoreMLClassifierExport.data(graph: try ModelFile.loadGraph(contentsOf: base.path), featureValue: classifier.extractor.layer.name,
                                            pool: classifier.extractor.layer.isPooled,
                                            weights: weights.map(Float.init), bias: bias.map(Float.init), labels: classifier.classes,
                                            image: input, metadata: ["fovea.feature_layer": classifier.extractor.layer.name,
                                                                     "fovea.base_model": (base.path as NSString).lastPathComponent],
                                            shortDescription: "Image classifier trained by fovea train on \(classifier.classes.count) classes")
        }
    }
}
