import Foundation
@_spi(Internals) import Fovea
import FoveaCore
import FoveaCoreML

/// What `fovea inspect` shows about a model: what Xcode's model view shows
/// (inputs, outputs, metadata) and the numbers an engineer asks next
/// (operator histogram, parameters, multiply-accumulates).
public struct ModelSummary: Sendable, Codable, Equatable {
    /// A graph input or output.
    public struct Value: Sendable, Codable, Equatable {
        /// The value's name.
        public var name: String
        /// The element type, such as `float32`; empty for a Core ML feature (see ``featureType``).
        public var dataType: String
        /// Declared dimensions, `N` style names for symbolic ones.
        public var shape: [String]
        /// The feature type as Xcode shows it, for Core ML models: `Image (Color 224×224)`.
        public var featureType: String? = nil
        /// The value's description, for Core ML models that give one.
        public var description: String? = nil
    }

    /// The model file's path.
    public var file: String
    /// The file's size in bytes.
    public var fileSizeBytes: Int
    /// `ONNX` or `Core ML`.
    public var format: String
    /// The tool that wrote the file and its version, such as `pytorch 2.1`.
    public var producer: String
    /// The ONNX IR version (0 for Core ML).
    public var irVersion: Int64
    /// The default domain's opset (0 for Core ML).
    public var opset: Int
    /// The model's domain (ONNX `domain`); may be empty.
    public var domain: String
    /// The model's own version number (ONNX `model_version`).
    public var modelVersion: Int64
    /// The model's free-form description (ONNX `doc_string`, Core ML `shortDescription`).
    public var description: String
    /// Free-form key/value pairs (ONNX `metadata_props`, Core ML `userDefined`).
    public var metadata: [String: String]
    /// The graph inputs, in declaration order.
    public var inputs: [Value]
    /// The graph outputs, in declaration order.
    public var outputs: [Value]
    /// The number of nodes, before graph passes.
    public var nodeCount: Int
    /// Operator type → number of nodes.
    public var operators: [String: Int]
    /// Scalar parameters in float initializers (weights and biases).
    public var parameterCount: Int
    /// Bytes of those parameters.
    public var parameterBytes: Int
    /// Multiply-accumulates of one run at batch 1 (nil when the shapes cannot be inferred).
    public var multiplyAccumulates: Int?

    // What Core ML models add (nil for ONNX).
    /// "Neural Network Classifier" or "Neural Network".
    public var modelType: String?
    /// Core ML `specificationVersion` (1 to 4).
    public var specificationVersion: Int?
    /// The author the Core ML model declares.
    public var author: String?
    /// The license the Core ML model declares.
    public var license: String?
    /// The version string the Core ML model declares.
    public var version: String?
    /// The number of class labels of a Core ML classifier.
    public var classCount: Int?
    /// Core ML layer type → number of layers.
    public var layers: [String: Int]?
    /// Weight storage (`float32`, `float16`, `8-bit lookup table`) → number of weights.
    public var weightPrecision: [String: Int]?

    /// Summarizes the model at `path`.
    public init(modelAt path: String) throws {
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
        guard try ModelFile.format(ofFileAt: path) == .coreML else {
            self.init(graph: try ModelFile.loadGraph(contentsOf: path), file: path, fileSizeBytes: size)
            return
        }
        let coreML = try CoreMLLoader.load(contentsOf: path)
        self.init(graph: coreML.graph, file: path, fileSizeBytes: size)
        modelType = coreML.modelType.displayName
        specificationVersion = coreML.specificationVersion
        description = coreML.metadata.shortDescription
        author = coreML.metadata.author
        license = coreML.metadata.license
        version = coreML.metadata.versionString
        metadata = coreML.metadata.userDefined
        classCount = coreML.classifier?.labels.count
        layers = coreML.layerHistogram
        weightPrecision = coreML.weightPrecision
        // The model's own features, as Core ML declares them (not the graph's tensors).
        inputs = coreML.inputs.map { feature in
            let shape = coreML.imageInputs.first(where: { $0.name == feature.name })?.tensorShape.map(String.init) ?? []
            return Value(name: feature.name, dataType: "", shape: shape, featureType: feature.type.description, description: feature.shortDescription)
        }
        outputs = coreML.outputs.map { feature in
            Value(name: feature.name, dataType: "", shape: [], featureType: feature.type.description, description: feature.shortDescription)
        }
    }

    /// Summarizes `graph`.
    public init(graph: Graph, file: String, fileSizeBytes: Int) {
        let meta = graph.metadata
        self.file = file
        self.fileSizeBytes = fileSizeBytes
        format = meta.format
        producer = [meta.producerName, meta.producerVersion].filter { !$0.isEmpty }.joined(separator: " ")
        irVersion = meta.irVersion
        opset = meta.opset
        domain = meta.domain
        modelVersion = meta.modelVersion
        description = meta.docString
        metadata = meta.properties
        inputs = graph.inputs.map { Value(name: $0.name, dataType: $0.dataType.rawValue, shape: $0.dimensions?.map(\.description) ?? []) }
        nodeCount = graph.nodes.count
        operators = graph.opHistogram
        parameterCount = graph.parameterCount
        parameterBytes = graph.initializers.values.reduce(0) { $0 + $1.count * $1.dataType.byteSize }

        // Shapes at batch 1: symbolic dimensions become 1.
        let batchOne = Dictionary(uniqueKeysWithValues: graph.inputs.compactMap { input -> (String, [Int])? in
            guard let dims = input.dimensions else { return nil }
            return (input.name, dims.map { if case .known(let n) = $0 { return n } else { return 1 } })
        })
        let types = try? graph.inferTypes(inputShapes: batchOne)
        multiplyAccumulates = types.map { graph.multiplyAccumulateCount(types: $0) }
        outputs = graph.outputs.map { output in
            let declared = output.dimensions?.map(\.description)
            let inferred = types?[output.name]?.shape.map(String.init)
            return Value(name: output.name, dataType: output.dataType.rawValue, shape: declared ?? inferred ?? [])
        }
    }

    /// A human-readable report; text from the file (names, metadata) has its
    /// control characters escaped (`SafeText`).
    public var text: String {
        var lines: [String] = []
        func row(_ key: String, _ value: String) { lines.append(key.padding(toLength: 18, withPad: " ", startingAt: 0) + value) }
        row("Model", file)
        row("Format", "\(format)\(irVersion > 0 ? " (IR version \(irVersion))" : "")\(specificationVersion.map { " (specification version \($0))" } ?? "")")
        if let modelType { row("Type", modelType) }
        row("Size", Self.bytes(fileSizeBytes))
        if let author, !author.isEmpty { row("Author", author) }
        if let license, !license.isEmpty { row("License", license) }
        if let version, !version.isEmpty { row("Version", version) }
        if !producer.isEmpty { row("Producer", producer) }
        if opset > 0 { row("Opset", String(opset)) }
        if !domain.isEmpty { row("Domain", domain) }
        if modelVersion != 0 { row("Version", String(modelVersion)) }
        if !description.isEmpty { row("Description", description) }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { row("Metadata", "\(key) = \(value)") }
        lines.append("Inputs")
        for value in inputs { lines.append("  " + Self.describe(value, empty: "scalar")) }
        lines.append("Outputs")
        for value in outputs { lines.append("  " + Self.describe(value, empty: "?")) }
        if let classCount { row("Classes", String(classCount)) }
        if let layers {
            row("Layers", layers.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if let weightPrecision, !weightPrecision.isEmpty {
            row("Weights", weightPrecision.sorted { $0.value > $1.value }.map { "\($0.key) (\(Self.grouped($0.value)))" }.joined(separator: ", "))
        }
        row("Nodes", String(nodeCount))
        row("Operators", operators.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        row("Parameters", "\(Self.grouped(parameterCount)) (\(Self.bytes(parameterBytes)))")
        row("Multiply-adds", multiplyAccumulates.map { "\(Self.grouped($0)) per image (\(String(format: "%.1f", Double($0) / 1e6)) M)" } ?? "unknown (shapes cannot be inferred)")
        return lines.map(SafeText.escaped).joined(separator: "\n")
    }

    /// `data  float32 1×3×224×224`, or for a Core ML feature `image  Image (Color 224×224)  — description`.
    static func describe(_ value: Value, empty: String) -> String {
        let type = value.featureType ?? "\(value.dataType) \(value.shape.isEmpty ? empty : value.shape.joined(separator: "×"))"
        let note = value.description.map { $0.isEmpty ? "" : "  — \($0)" } ?? ""
        return "\(value.name)  \(type)\(note)"
    }

    static func grouped(_ n: Int) -> String {
        let digits = Array(String(n))
        var out = ""
        for (i, d) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out += "," }
            out.append(d)
        }
        return out
    }

    static func bytes(_ n: Int) -> String {
        n >= 1 << 20 ? String(format: "%.1f MB (%@ bytes)", Double(n) / 1e6, grouped(n)) : "\(grouped(n)) bytes"
    }
}
