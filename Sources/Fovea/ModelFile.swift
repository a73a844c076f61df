import Foundation
import FoveaCore
import FoveaONNX
import FoveaCoreML

/// Reads a model file into a `Graph`, choosing the format from the file.
package enum ModelFile {
    /// The formats Fovea reads.
    public enum Format: String, Sendable {
        /// An ONNX model (`.onnx`): a protobuf `ModelProto`.
        case onnx = "ONNX"
        /// A Core ML model (`.mlmodel`) with a NeuralNetwork or NeuralNetworkClassifier.
        case coreML = "Core ML"
    }

    /// The format of the file at `path`, from its extension.
    public static func format(ofFileAt path: String) throws -> Format {
        // A device, FIFO or directory is named as such, whatever its name ends with.
        if let kind = try? FileContents.specialKind(ofFileAt: path) {
            throw FoveaError(.io, "is \(kind), not a regular file; expected a model file (.onnx or .mlmodel)", location: .init(file: path))
        }
        switch (path as NSString).pathExtension.lowercased() {
        case "onnx": return .onnx
        case "mlmodel": return .coreML
        default:
            throw FoveaError(.invalidArgument, "unknown model format (expected a .onnx or .mlmodel file)", location: .init(file: path))
        }
    }

    /// Loads the graph in the model file at `path`.
    ///
    /// - Parameters:
    ///   - path: the model file (`.onnx` or `.mlmodel`).
    ///   - knownInputs: values for graph inputs that the model uses as constants
    ///     (such as a Reshape's target shape); see `ONNXLoader`.
    public static func loadGraph(contentsOf path: String, knownInputs: [String: Tensor] = [:]) throws -> Graph {
        switch try format(ofFileAt: path) {
        case .onnx:
            return try ONNXLoader.load(contentsOf: path, knownInputs: knownInputs)
        case .coreML:
            return try CoreMLLoader.load(contentsOf: path).graph
        }
    }

    /// The operators of the model at `path` that Fovea cannot load, each with
    /// its opset and the nodes using it; empty for a Core ML model or when
    /// every operator is supported.
    public static func unsupportedOperators(ofFileAt path: String) throws -> [UnsupportedONNXOperator] {
        guard try format(ofFileAt: path) == .onnx else { return [] }
        return try ONNXLoader.unsupportedOperators(contentsOf: path)
    }
}
