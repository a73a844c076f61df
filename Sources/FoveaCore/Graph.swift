/// One dimension of a declared tensor type: a number, or a name such as `N` for
/// a batch size chosen when the model is run.
public enum TensorDimension: Sendable, Hashable, CustomStringConvertible {
    /// A dimension of this fixed size.
    case known(Int)
    /// A dimension fixed only when the model is run, by name (`N`, `batch`); `""` when unnamed.
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
    /// The value's name, unique in the graph.
    public var name: String
    /// The element type.
    public var dataType: DataType
    /// `nil` when the model does not declare a shape.
    public var dimensions: [TensorDimension]?

    /// Declares a value; pass `nil` dimensions when the shape is unknown.
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
    /// The element type.
    public var dataType: DataType
    /// The extent of each axis; `[]` for a scalar.
    public var shape: [Int]

    /// Creates a tensor type of `dataType` elements in `shape`.
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
    /// The operation with its attributes, in canonical form whatever the model's opset.
    public var op: Op
    /// Value names in the operator's input order; `""` is an absent optional input.
    public var inputs: [String]
    /// The names of the values this node produces, in the operator's output order.
    public var outputs: [String]

    /// Creates a node that runs `op` over the values named `inputs` into `outputs`.
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
    /// The tool that wrote the model file (ONNX `producer_name`, such as `pytorch`).
    public var producerName: String = ""
    /// The version of that tool (ONNX `producer_version`).
    public var producerVersion: String = ""
    /// The model's namespace, reverse-DNS style (ONNX `domain`).
    public var domain: String = ""
    /// The model's own version number (ONNX `model_version`; 0 when absent).
    public var modelVersion: Int64 = 0
    /// Free-form description of the model (ONNX `doc_string`, Core ML `shortDescription`).
    public var docString: String = ""
    /// ONNX IR version (0 when not applicable).
    public var irVersion: Int64 = 0
    /// Opset of the default operator domain.
    public var opset: Int = 0
    /// Free-form key/value pairs (ONNX `metadata_props`).
    public var properties: [String: String] = [:]

    /// Empty metadata: every field blank or zero.
    public init() {}
}

/// A model's computation: nodes in topological order over named values.
///
/// Values are produced once: by a graph input, an initializer (a constant
/// tensor such as a weight) or one node's output. ``validate()`` checks this.
public struct Graph: Sendable {
    /// The graph's name as the model file gives it; may be empty.
    public var name: String
    /// The values the caller provides, in declaration order (initializers excluded).
    public var inputs: [ValueInfo]
    /// The values a run returns, in declaration order.
    public var outputs: [ValueInfo]
    /// Topologically sorted.
    public var nodes: [Node]
    /// Constant tensors by value name: weights, biases, shape constants.
    public var initializers: [String: Tensor]
    /// What the model file says about itself.
    public var metadata: ModelMetadata

    /// Creates a graph; call ``validate()`` to check that values are produced once and nodes are in topological order.
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
