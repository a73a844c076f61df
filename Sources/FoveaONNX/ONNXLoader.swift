import Foundation
import FoveaCore
import SwiftProtobuf

/// Loads ONNX models (`.onnx`, opsets 7 to 21 of the default domain) into Fovea's `Graph`.
///
/// Every node is translated into the canonical ``Op``: opset-dependent forms
/// (Clip's bounds as attributes or inputs, Squeeze's axes, Pad's pads, ...) all
/// end up as attributes. Parameter inputs such as Reshape's `shape` must be
/// constants at load time: an initializer, a `Constant` node's output, or a
/// value passed in `knownInputs`.
///
/// Every failure is a ``FoveaError`` whose location names the file and, for a
/// node, the node, its op type and the opset:
///
/// ```
/// model.onnx: unsupported op 'FooBar' (opset 13) at node 'foo'
/// model.onnx: 2 unsupported ops: 'Erf' (opset 13) ×2 at nodes 'a', 'b'; 'ReduceMean' (opset 13) at node 'c'
/// model.onnx: node 'conv1' (Conv, opset 13): attribute 'group' is 0; expected >= 1
/// ```
public enum ONNXLoader {
    /// The opsets of the default domain (`""` or `ai.onnx`) Fovea reads.
    public static let supportedOpsets: ClosedRange<Int> = 7...21

    /// Loads the model at `path`.
    ///
    /// - Parameters:
    ///   - path: The `.onnx` file; messages name it as given.
    ///   - knownInputs: Values of graph inputs known at load time (the
    ///     conformance runner passes a test's inputs here). They serve as
    ///     constants for parameter inputs, such as a Reshape's `shape` or Clip's
    ///     `min`; a graph input they fold away entirely is removed from
    ///     ``Graph/inputs``, and one that some node still reads as a tensor
    ///     stays an input. Names that are not graph inputs are ignored.
    /// - Throws: `FoveaError` (`.io`, `.invalidModel`, `.unsupported`, `.invalidAttribute`).
    public static func load(contentsOf path: String, knownInputs: [String: Tensor] = [:]) throws -> Graph {
        let data = try readFile(path, what: "model")
        return try load(data: data, fileName: path, knownInputs: knownInputs)
    }

    /// Loads a model from the bytes of an `.onnx` file.
    ///
    /// - Parameters:
    ///   - data: The serialized `ModelProto`.
    ///   - fileName: The name used in messages.
    ///   - knownInputs: See ``load(contentsOf:knownInputs:)``.
    public static func load(data: Data, fileName: String, knownInputs: [String: Tensor] = [:]) throws -> Graph {
        let file = FoveaError.Location(file: fileName)
        return try FoveaError.at(file) {
            let model = try decodeModel(data)
            let (opset, domainOpsets) = try opsets(of: model)
            let builder = ONNXGraphBuilder(
                graph: model.graph, file: fileName, opset: opset, domainOpsets: domainOpsets,
                knownInputs: knownInputs, metadata: metadata(of: model, opset: opset)
            )
            let graph = try builder.build()
            try graph.validateStructure()
            return graph
        }
    }

    /// The operator types a model's nodes use, read without translating them
    /// (`domain.OpType` outside the default domain): what a test runner needs to
    /// pick the tests Fovea can run.
    ///
    /// - Throws: `FoveaError` (`.io`, `.invalidModel`) when the file is not a model.
    public static func operatorTypes(contentsOf path: String) throws -> Set<String> {
        let data = try readFile(path, what: "model")
        return try FoveaError.at(FoveaError.Location(file: path)) {
            let nodes = try decodeModel(data).graph.node
            return Set(nodes.map { node in
                ONNXGraphBuilder.isDefaultDomain(node.domain) ? node.opType : "\(node.domain).\(node.opType)"
            })
        }
    }

    /// Every operator of the model at `path` that Fovea does not read, with
    /// its opset and the nodes using it, in order of first use; empty when all
    /// are supported. This is the list the load error gives, for tools that
    /// want it as data (`fovea inspect`).
    ///
    /// - Throws: `FoveaError` (`.io`, `.invalidModel`, or `.unsupported` for an unsupported opset).
    public static func unsupportedOperators(contentsOf path: String) throws -> [UnsupportedONNXOperator] {
        let data = try readFile(path, what: "model")
        return try FoveaError.at(FoveaError.Location(file: path)) {
            let model = try decodeModel(data)
            let (opset, domainOpsets) = try opsets(of: model)
            return ONNXGraphBuilder.unsupportedOperators(model.graph.node, opset: opset, domainOpsets: domainOpsets)
        }
    }

    // MARK: -

    private static func decodeModel(_ data: Data) throws -> Onnx_ModelProto {
        guard !data.isEmpty else {
            throw FoveaError(.invalidModel, "the file is empty (0 bytes); expected an ONNX model")
        }
        let model = try decodeProtobuf(Onnx_ModelProto.self, from: data, what: "ONNX model")
        // Protobuf accepts almost any bytes; a model needs at least these.
        guard model.hasGraph else {
            throw FoveaError(.invalidModel, "not a valid ONNX model: it has no graph")
        }
        guard !model.opsetImport.isEmpty else {
            throw FoveaError(.invalidModel, "not a valid ONNX model: it has no opset_import")
        }
        guard !model.graph.output.isEmpty else {
            throw FoveaError(.invalidModel, "not a valid ONNX model: its graph has no outputs")
        }
        return model
    }

    /// The default-domain opset (checked against ``supportedOpsets``) and the other domains' opsets.
    private static func opsets(of model: Onnx_ModelProto) throws -> (Int, [String: Int]) {
        var defaultOpset: Int64?
        var others: [String: Int] = [:]
        for entry in model.opsetImport {
            if ONNXGraphBuilder.isDefaultDomain(entry.domain) {
                defaultOpset = max(defaultOpset ?? entry.version, entry.version)
            } else {
                others[entry.domain] = Int(truncatingIfNeeded: entry.version)
            }
        }
        guard let defaultOpset else {
            // A model made only of ops of other domains (such as ai.onnx.preview.training).
            let names = ONNXGraphBuilder.uniqueNodeNames(model.graph.node)
            if let index = model.graph.node.firstIndex(where: { !ONNXGraphBuilder.isDefaultDomain($0.domain) }) {
                let node = model.graph.node[index]
                throw FoveaError(.unsupported, "unsupported op '\(node.domain).\(node.opType)' (opset \(others[node.domain] ?? 0)) at node '\(names[index])'")
            }
            throw FoveaError(.invalidModel, "opset_import has no entry for the default domain ('' or 'ai.onnx')")
        }
        guard defaultOpset >= Int64(supportedOpsets.lowerBound), defaultOpset <= Int64(supportedOpsets.upperBound) else {
            throw FoveaError(.unsupported, "opset \(defaultOpset) is not supported (Fovea reads opsets \(supportedOpsets.lowerBound) to \(supportedOpsets.upperBound))")
        }
        return (Int(defaultOpset), others)
    }

    private static func metadata(of model: Onnx_ModelProto, opset: Int) -> ModelMetadata {
        var metadata = ModelMetadata()
        metadata.format = "ONNX"
        metadata.producerName = model.producerName
        metadata.producerVersion = model.producerVersion
        metadata.domain = model.domain
        metadata.modelVersion = model.modelVersion
        metadata.docString = model.docString
        metadata.irVersion = model.irVersion
        metadata.opset = opset
        for entry in model.metadataProps {
            metadata.properties[entry.key] = entry.value
        }
        return metadata
    }
}

// MARK: - Shared by the model loader and the tensor-file reader

/// The contents of a file, or a `.io` error naming it.
func readFile(_ path: String, what: String) throws -> Data {
    try FileContents.read(path, expected: "an ONNX \(what) file")
}

/// Decodes a protobuf message, turning swift-protobuf's errors into `.invalidModel`.
/// Fields outside Fovea's subset of onnx.proto are skipped, not kept.
func decodeProtobuf<M: SwiftProtobuf.Message>(_ type: M.Type, from data: Data, what: String) throws -> M {
    var options = BinaryDecodingOptions()
    options.discardUnknownFields = true
    do {
        return try M(serializedBytes: data, options: options)
    } catch let error as BinaryDecodingError {
        let reason: String
        switch error {
        case .truncated: reason = "the data ends in the middle of a field (truncated file?)"
        case .malformedProtobuf: reason = "malformed protobuf data"
        case .invalidUTF8: reason = "a string field is not valid UTF-8"
        case .messageDepthLimit: reason = "messages are nested too deeply"
        case .trailingGarbage: reason = "unexpected data after the end"
        case .missingRequiredFields: reason = "required fields are missing"
        case .internalExtensionError: reason = "internal protobuf error"
        @unknown default: reason = "\(error)"
        }
        throw FoveaError(.invalidModel, "not a valid \(what): protobuf decoding failed: \(reason)")
    } catch {
        throw FoveaError(.invalidModel, "not a valid \(what): protobuf decoding failed: \(error)")
    }
}
