/// One dimension of a declared tensor type: a number, or a name such as `N` for
/// a batch size chosen when the model is run.
public enum TensorDimension: Sendable, Hashable, CustomStringConvertible {
    case known(Int)
    case symbolic(String)

    public var description: String {
        switch self {
        case .known(let n): return String(n)
        case .symbolic(let name): return name.isEmpty ? "?" : name
        }
    }
}

/// A named value's declared type: a graph input or output.
public struct ValueInfo: Sendable, Equatable {
    public var name: String
    public var dataType: DataType
    /// `nil` when the model does not declare a shape.
    public var dimensions: [TensorDimension]?

    public init(name: String, dataType: DataType, dimensions: [TensorDimension]?) {
        self.name = name
        self.dataType = dataType
        self.dimensions = dimensions
    }

    /// The declared shape if every dimension is a number.
    public var knownShape: [Int]? {
        guard let dims = dimensions else { return nil }
        var shape: [Int] = []
        for d in dims {
            guard case .known(let n) = d else { return nil }
            shape.append(n)
        }
        return shape
    }

    /// `1×3×224×224`, `N×3×224×224`, `?` when unknown.
    public var shapeDescription: String {
        guard let dims = dimensions else { return "?" }
        return dims.isEmpty ? "scalar" : dims.map(\.description).joined(separator: "×")
    }
}

/// A concrete tensor type: what shape inference assigns to every value.
public struct TensorType: Sendable, Equatable, CustomStringConvertible {
    public var dataType: DataType
    public var shape: [Int]

    public init(_ dataType: DataType, _ shape: [Int]) {
        self.dataType = dataType
        self.shape = shape
    }

    public var description: String { "\(dataType)[\(shape.shapeDescription)]" }
}

/// One operation: reads named values, writes named values.
public struct Node: Sendable, Equatable {
    /// Unique within the graph (loaders name unnamed nodes `OpType_index`).
    public var name: String
    public var op: Op
    /// Value names in the operator's input order; `""` is an absent optional input.
    public var inputs: [String]
    public var outputs: [String]

    public init(name: String, op: Op, inputs: [String], outputs: [String]) {
        self.name = name
        self.op = op
        self.inputs = inputs
        self.outputs = outputs
    }

    /// The input at `index`, or `nil` if it is absent or beyond the list.
    public func input(_ index: Int) -> String? {
        index < inputs.count && !inputs[index].isEmpty ? inputs[index] : nil
    }
}

/// What a model file says about itself.
public struct ModelMetadata: Sendable, Equatable {
    /// The format the graph was loaded from, such as `ONNX`.
    public var format: String = ""
    public var producerName: String = ""
    public var producerVersion: String = ""
    public var domain: String = ""
    public var modelVersion: Int64 = 0
    public var docString: String = ""
    /// ONNX IR version (0 when not applicable).
    public var irVersion: Int64 = 0
    /// Opset of the default operator domain.
    public var opset: Int = 0
    /// Free-form key/value pairs (ONNX `metadata_props`).
    public var properties: [String: String] = [:]

    public init() {}
}

/// A model's computation: nodes in topological order over named values.
///
/// Values are produced once: by a graph input, an initializer (a constant
/// tensor such as a weight) or one node's output. ``validate()`` checks this.
public struct Graph: Sendable {
    public var name: String
    public var inputs: [ValueInfo]
    public var outputs: [ValueInfo]
    /// Topologically sorted.
    public var nodes: [Node]
    public var initializers: [String: Tensor]
    public var metadata: ModelMetadata

    public init(name: String = "", inputs: [ValueInfo], outputs: [ValueInfo], nodes: [Node],
                initializers: [String: Tensor] = [:], metadata: ModelMetadata = ModelMetadata()) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.nodes = nodes
        self.initializers = initializers
        self.metadata = metadata
    }

    /// The number of scalar parameters held in float initializers.
    public var parameterCount: Int {
        initializers.values.reduce(0) { $0 + ($1.dataType == .float32 ? $1.count : 0) }
    }

    /// How many nodes use each op type, such as `["Conv": 26, "Relu": 26]`.
    public var opHistogram: [String: Int] {
        var histogram: [String: Int] = [:]
        for node in nodes { histogram[node.op.typeName, default: 0] += 1 }
        return histogram
    }

    /// The location of `node` for error messages.
    public func location(of node: Node) -> FoveaError.Location {
        FoveaError.Location(node: node.name, opType: node.op.typeName, opset: metadata.opset > 0 ? metadata.opset : nil)
    }
}
