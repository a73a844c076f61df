import Foundation
import Fovea
import FoveaONNX

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

    static func coreML(_ classifier: ImageClassifier) throws -> Data {
        throw FoveaError(.unsupported, "Core ML export is not written yet")
    }
}
