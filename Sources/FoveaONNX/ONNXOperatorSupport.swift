import FoveaCore

/// The ONNX operators Fovea reads, each with the opsets of the default domain
/// at which it reads it.
///
/// This table is what the loader checks every node against before translating
/// any (so a model's load error names every missing operator at once), what
/// `fovea inspect --ops` prints, and what the conformance runner uses to pick
/// the node tests Fovea must account for.
public enum ONNXOperatorSupport {
    /// Operator type → the default-domain opsets Fovea reads it at (within
    /// ``ONNXLoader/supportedOpsets``).
    public static let opsets: [String: ClosedRange<Int>] = {
        let all = ONNXLoader.supportedOpsets
        var table: [String: ClosedRange<Int>] = [:]
        for op in [
            "Conv", "Relu", "LeakyRelu", "PRelu", "Sigmoid", "HardSigmoid", "Clip", "MaxPool", "AveragePool",
            "GlobalAveragePool", "GlobalMaxPool", "Concat", "Softmax", "LogSoftmax", "Flatten", "Reshape",
            "Squeeze", "Unsqueeze", "Transpose", "Gemm", "MatMul", "Add", "Sub", "Mul", "Div", "Sum",
            "BatchNormalization", "LRN", "Dropout", "Identity", "Constant", "Pad", "Shape", "Size",
            "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceL2", "ReduceSumSquare", "ArgMax",
            "Pow", "Sqrt", "Reciprocal", "Exp", "Log", "Tanh", "Abs", "Neg", "Min", "Max", "Floor", "Ceil",
            "Elu", "Selu", "Softplus", "Softsign", "InstanceNormalization",
            "Slice", "Split", "Gather", "Tile", "Equal", "Less", "Greater", "Not", "Cast",
            "DepthToSpace", "SpaceToDepth",
        ] {
            table[op] = all
        }
        // Operators defined after opset 7 start at the opset that introduced them.
        table["Expand"] = 8...all.upperBound
        table["Erf"] = 9...all.upperBound
        table["Where"] = 9...all.upperBound
        table["ConstantOfShape"] = 9...all.upperBound
        table["Range"] = 11...all.upperBound
        table["Mod"] = 10...all.upperBound
        table["ScatterND"] = 11...all.upperBound
        for op in ["QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "QLinearConv", "QLinearMatMul",
                   "ConvInteger", "MatMulInteger"] {
            table[op] = 10...all.upperBound
        }
        // Upsample was deprecated by Resize in opset 10.
        table["Upsample"] = all.lowerBound...9
        // Resize-10 has no coordinate_transformation_mode; Fovea reads it from 11.
        table["Resize"] = 11...all.upperBound
        table["Celu"] = 12...all.upperBound
        table["LessOrEqual"] = 12...all.upperBound
        table["GreaterOrEqual"] = 12...all.upperBound
        table["HardSwish"] = 14...all.upperBound
        table["LayerNormalization"] = 17...all.upperBound
        table["Mish"] = 18...all.upperBound
        table["GroupNormalization"] = 18...all.upperBound
        table["Gelu"] = 20...all.upperBound
        return table
    }()

    /// Whether Fovea reads `opType` of the default domain at `opset`.
    public static func isSupported(_ opType: String, opset: Int) -> Bool {
        opsets[opType]?.contains(opset) ?? false
    }

    /// The table as text lines, `Conv  7–21`, sorted by name.
    public static var listing: [String] {
        let width = opsets.keys.map(\.count).max() ?? 0
        return opsets.keys.sorted().map { name in
            let range = opsets[name]!
            return name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + "\(range.lowerBound)–\(range.upperBound)"
        }
    }
}

/// One operator of a model that Fovea does not read, with every node that uses it.
public struct UnsupportedONNXOperator: Sendable, Equatable, Codable {
    /// The op type; `domain.OpType` outside the default domain.
    public var opType: String
    /// The opset the model imports for the operator's domain.
    public var opset: Int
    /// The nodes using it, in graph order.
    public var nodes: [String]

    /// Records that `nodes` use `opType`, which Fovea does not read at `opset`.
    public init(opType: String, opset: Int, nodes: [String]) {
        self.opType = opType
        self.opset = opset
        self.nodes = nodes
    }

    /// How many nodes use it.
    public var count: Int { nodes.count }

    /// `'Erf' (opset 13) at node 'erf_0'`, or with several nodes
    /// `'Erf' (opset 13) ×5 at nodes 'a', 'b', 'c' and 2 more`.
    public var summary: String {
        let quoted = nodes.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
        let more = nodes.count > 3 ? " and \(nodes.count - 3) more" : ""
        return nodes.count == 1
            ? "'\(opType)' (opset \(opset)) at node \(quoted)"
            : "'\(opType)' (opset \(opset)) ×\(nodes.count) at nodes \(quoted)\(more)"
    }

    /// The one error that names every unsupported operator of a model:
    /// `unsupported op 'FooBar' (opset 13) at node 'foo'`, or
    /// `2 unsupported ops: 'Erf' (opset 13) ×2 at nodes 'a', 'b'; 'ReduceMean' (opset 13) at node 'c'`.
    static func error(_ operators: [UnsupportedONNXOperator], file: String) -> FoveaError {
        let message = operators.count == 1
            ? "unsupported op \(operators[0].summary)"
            : "\(operators.count) unsupported ops: \(operators.map(\.summary).joined(separator: "; "))"
        return FoveaError(.unsupported, message, location: FoveaError.Location(file: file))
    }
}

extension ONNXGraphBuilder {
    /// Every operator of the graph that Fovea does not read at the model's
    /// opsets, in order of first use. `Constant` nodes count as supported.
    static func unsupportedOperators(_ nodes: [Onnx_NodeProto], opset: Int, domainOpsets: [String: Int]) -> [UnsupportedONNXOperator] {
        let names = uniqueNodeNames(nodes)
        var found: [UnsupportedONNXOperator] = []
        var indexByKey: [String: Int] = [:]
        for (proto, name) in zip(nodes, names) {
            let isDefault = isDefaultDomain(proto.domain)
            if isDefault, ONNXOperatorSupport.isSupported(proto.opType, opset: opset) { continue }
            // A node with no op_type is a malformed model, reported by translation.
            if proto.opType.isEmpty { continue }
            let opType = isDefault ? proto.opType : "\(proto.domain).\(proto.opType)"
            if let index = indexByKey[opType] {
                found[index].nodes.append(name)
            } else {
                indexByKey[opType] = found.count
                found.append(UnsupportedONNXOperator(opType: opType, opset: isDefault ? opset : domainOpsets[proto.domain] ?? opset, nodes: [name]))
            }
        }
        return found
    }
}
