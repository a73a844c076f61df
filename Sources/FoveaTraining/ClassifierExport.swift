import Foundation
@_spi(Internals) import Fovea
import FoveaONNX
import FoveaCoreML

/// The trained classifier as one model file that classifies with no flags.
enum ClassifierExport {
    /// ONNX: the base graph up to the feature layer, [GlobalAveragePool,]
    /// Flatten, a Gemm holding the head with the standardization folded in,
    /// Softmax; labels and preprocessing in `metadata_props["fovea"]`.
    static func onnx(_ head: Head) throws -> Data {
        guard try ModelFile.format(ofFileAt: head.base.path) == .onnx else {
            throw FoveaError(.unsupported, "an ONNX export needs an ONNX base model; write a .mlmodel instead", location: .init(file: head.base.path))
        }
        return try ONNXClassifierExport.data(baseModel: head.base.path, featureValue: head.layer.name, pool: head.layer.isPooled,
                                             weights: head.weights, bias: head.bias, metadata: ["fovea": try description(head)])
    }

    /// What an export needs: the base model, the feature layer, and the head
    /// on raw features (standardization folded in).
    struct Head {
        let base: Model
        let layer: FeatureLayer
        let classes: [String]
        let weights: [Float]
        let bias: [Float]

        init(_ classifier: ImageClassifier) {
            let (weights, bias) = classifier.standardization.folded(into: classifier.head)
            self.init(base: classifier.extractor.baseModel, layer: classifier.extractor.layer, classes: classifier.classes,
                      weights: weights.map(Float.init), bias: bias.map(Float.init))
        }

        init(base: Model, layer: FeatureLayer, classes: [String], weights: [Float], bias: [Float]) {
            self.base = base
            self.layer = layer
            self.classes = classes
            self.weights = weights
            self.bias = bias
        }
    }

    /// The model file for `head`, by the extension of `path`.
    static func data(_ head: Head, forPath path: String) throws -> Data {
        switch (path as NSString).pathExtension.lowercased() {
        case "onnx": return try onnx(head)
        case "mlmodel": return try coreML(head)
        default:
            throw FoveaError(.invalidArgument, "the output must end in .onnx or .mlmodel", location: .init(file: path))
        }
    }

    /// Fovea's description of the exported model (see `ModelSidecar`): the
    /// base model's image preprocessing, the class labels and the output.
    static func description(_ head: Head) throws -> String {
        var json: [String: Any] = [
            "labels": head.classes,
            "output": ONNXClassifierExport.outputName,
            "output_kind": "probabilities",
        ]
        if let image = head.base.modelDescription.imageInput {
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
    static func coreML(_ head: Head) throws -> Data {
        let base = head.base
        guard let image = base.modelDescription.imageInput, image.channelOrder != .gray else {
            throw FoveaError(.unsupported, "a Core ML export needs a base model with an RGB or BGR image input", location: .init(file: base.path))
        }
        if let fraction = image.cropFraction, fraction < 1 {
            // Core ML's image input has no crop fraction: Vision's centre crop sees fraction 1.
            FileHandle.standardError.write(Data("warning: the base model's crop fraction \(fraction) cannot be stored in a .mlmodel; Core ML and Vision crop with fraction 1\n".utf8))
        }
        let input = CoreMLClassifierExport.ImageInput(name: image.name, width: image.width, height: image.height,
                                                      bgr: image.channelOrder == .bgr,
                                                      mean: image.normalization.mean, std: image.normalization.std)
        return try FoveaError.at(.init(file: base.path)) {
            try CoreMLClassifierExport.data(graph: try ModelFile.loadGraph(contentsOf: base.path), featureValue: head.layer.name,
                                            pool: head.layer.isPooled, weights: head.weights, bias: head.bias, labels: head.classes,
                                            image: input, metadata: ["fovea.feature_layer": head.layer.name,
                                                                     "fovea.base_model": (base.path as NSString).lastPathComponent],
                                            shortDescription: "Image classifier trained by fovea train on \(head.classes.count) classes")
        }
    }
}
