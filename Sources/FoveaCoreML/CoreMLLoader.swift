import Foundation
import FoveaCore
import SwiftProtobuf

/// Loads Core ML `.mlmodel` files (NeuralNetwork and NeuralNetworkClassifier,
/// specification versions 1 to 4) into a ``CoreMLModel``: a Fovea ``Graph`` plus
/// the model's interface (image preprocessing, class labels, output names).
///
/// Every failure is a ``FoveaError`` naming the file and, for a layer, the
/// layer and its Core ML type:
///
/// ```
/// Model.mlmodel: node 'gelu1' (gelu): layer type 'gelu' (NeuralNetworkLayer field 795) is not supported by Fovea
/// Model.mlmodel: this is an ML Program (mlProgram, ...); Fovea runs only NeuralNetwork models ...
/// ```
public enum CoreMLLoader {
    /// The `Model.specificationVersion`s Fovea reads (iOS 11 to iOS 13).
    public static let supportedSpecificationVersions: ClosedRange<Int> = 1...4

    /// Loads the model at `path`.
    ///
    /// - Throws: `FoveaError` (`.io`, `.invalidModel`, `.unsupported`, `.invalidAttribute`, `.shapeMismatch`).
    public static func load(contentsOf path: String) throws -> CoreMLModel {
        let hint = path.hasSuffix(".mlpackage") || path.hasSuffix(".mlpackage/")
            ? " (an .mlpackage holds an ML Program, which Fovea does not run; Fovea reads NeuralNetwork .mlmodel files)" : ""
        let data = try FileContents.read(path, expected: "a Core ML model (.mlmodel)", directoryHint: hint)
        return try load(data: data, fileName: path)
    }

    /// Loads a model from the bytes of an `.mlmodel` file; `fileName` names it in messages.
    public static func load(data: Data, fileName: String) throws -> CoreMLModel {
        try FoveaError.at(FoveaError.Location(file: fileName)) {
            let model = try decode(data)
            let version = Int(model.specificationVersion)
            guard version >= 1 else {
                throw FoveaError(.invalidModel, "not a valid Core ML model: specificationVersion is \(version); expected >= 1")
            }
            let network: CoreMLNetworkSpec
            switch model.type {
            case .neuralNetwork(let nn):
                network = CoreMLNetworkSpec(type: .neuralNetwork, layers: nn.layers, preprocessing: nn.preprocessing,
                                            exactArrayMapping: nn.arrayInputShapeMapping == .exactArrayMapping, classifier: nil)
            case .neuralNetworkClassifier(let nn):
                network = CoreMLNetworkSpec(type: .neuralNetworkClassifier, layers: nn.layers, preprocessing: nn.preprocessing,
                                            exactArrayMapping: nn.arrayInputShapeMapping == .exactArrayMapping, classifier: nn)
            default:
                throw FoveaError(.unsupported, CoreMLModelKind.unsupportedReason(model.type))
            }
            guard supportedSpecificationVersions.contains(version) else {
                throw FoveaError(.unsupported, "specification version \(version) is not supported (Fovea reads versions \(supportedSpecificationVersions.lowerBound) to \(supportedSpecificationVersions.upperBound), iOS 11 to iOS 13)")
            }
            return try CoreMLModelBuilder(model: model, network: network, fileName: fileName).build()
        }
    }

    private static func decode(_ data: Data) throws -> CoreML_Specification_Model {
        guard !data.isEmpty else {
            throw FoveaError(.invalidModel, "the file is empty (0 bytes); expected a Core ML model")
        }
        let model: CoreML_Specification_Model
        do {
            // Unknown fields are kept: a layer type outside Fovea's subset is named from them.
            model = try CoreML_Specification_Model(serializedBytes: data)
        } catch let error as BinaryDecodingError {
            let reason: String
            switch error {
            case .truncated: reason = "the data ends in the middle of a field (truncated file?)"
            case .malformedProtobuf: reason = "malformed protobuf data"
            case .invalidUTF8: reason = "a string field is not valid UTF-8"
            case .messageDepthLimit: reason = "messages are nested too deeply"
            default: reason = "\(error)"
            }
            throw FoveaError(.invalidModel, "not a valid Core ML model: protobuf decoding failed: \(reason)")
        } catch {
            throw FoveaError(.invalidModel, "not a valid Core ML model: protobuf decoding failed: \(error)")
        }
        // Protobuf accepts many byte strings; a model needs at least a description.
        guard model.hasDescription_p, !model.description_p.input.isEmpty || model.type != nil else {
            throw FoveaError(.invalidModel, "not a valid Core ML model: it has no model description and no model type")
        }
        return model
    }
}

/// The parts of `NeuralNetwork` and `NeuralNetworkClassifier` the builder reads.
struct CoreMLNetworkSpec {
    var type: CoreMLModelType
    var layers: [CoreML_Specification_NeuralNetworkLayer]
    var preprocessing: [CoreML_Specification_NeuralNetworkPreprocessing]
    var exactArrayMapping: Bool
    var classifier: CoreML_Specification_NeuralNetworkClassifier?
}
