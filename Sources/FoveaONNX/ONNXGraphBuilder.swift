import FoveaCore

/// Builds a `Graph` from a decoded ONNX graph whose default-domain opset is supported.
struct ONNXGraphBuilder {
    let graph: Onnx_GraphProto
    let file: String
    /// The default-domain opset.
    let opset: Int
    /// Opsets of the other domains the model imports, for messages.
    let domainOpsets: [String: Int]
    let knownInputs: [String: Tensor]
    let metadata: ModelMetadata

    func build() throws -> Graph {
        // Name every missing operator at once, before any translation can stop at the first.
        let unsupported = Self.unsupportedOperators(graph.node, opset: opset, domainOpsets: domainOpsets)
        guard unsupported.isEmpty else { throw UnsupportedONNXOperator.error(unsupported, file: file) }
        let names = Self.uniqueNodeNames(graph.node)
        var initializers = try decodeInitializers()
        // Constant nodes become initializers first, so that a parameter input can
        // read them wherever they sit in the node list.
        for (index, proto) in graph.node.enumerated() where isConstantNode(proto) {
            let location = FoveaError.Location(file: file, node: names[index], opType: "Constant", opset: opset)
            let (name, tensor) = try FoveaError.at(location) { try constantNode(proto) }
            guard initializers[name] == nil else {
                throw FoveaError(.invalidModel, "output '\(name)' is already produced elsewhere", location: location)
            }
            initializers[name] = tensor
        }

        // Graph inputs that are also initializers are constants: IR < 4 lists
        // every initializer among the inputs, and from IR 4 such an input only
        // has a default value, which Fovea fixes. `knownInputs` supply values
        // for other graph inputs (and override such defaults).
        var constants = initializers
        var declaredShapes: [String: [Int]] = [:]
        for proto in graph.input {
            if let known = knownInputs[proto.name] {
                constants[proto.name] = known
                if initializers[proto.name] != nil { initializers[proto.name] = known }
            }
            declaredShapes[proto.name] = (try? ONNXValueInfo.valueInfo(proto, role: "graph input"))?.knownShape
        }

        var nodes: [Node] = []
        for (index, proto) in graph.node.enumerated() where !isConstantNode(proto) {
            switch try translate(proto, name: names[index], constants: constants, declaredShapes: declaredShapes) {
            case .node(let node):
                nodes.append(node)
            case .constant(let output, let tensor):
                // Computed at load time (ConstantOfShape, Range); later nodes may read it as a parameter.
                guard initializers[output] == nil else {
                    throw FoveaError(.invalidModel, "output '\(output)' is already produced elsewhere",
                                     location: FoveaError.Location(file: file, node: names[index], opType: proto.opType, opset: opset))
                }
                initializers[output] = tensor
                constants[output] = tensor
            }
        }

        // Parameter inputs have been folded into ops: drop the initializers and
        // the known graph inputs nothing reads any more.
        let outputs = try graph.output.map { try ONNXValueInfo.valueInfo($0, role: "graph output") }
        var read = Set(outputs.map(\.name))
        for node in nodes { read.formUnion(node.inputs) }
        let inputs = try graph.input
            .filter { initializers[$0.name] == nil && (knownInputs[$0.name] == nil || read.contains($0.name)) }
            .map { try ONNXValueInfo.valueInfo($0, role: "graph input") }

        return Graph(name: graph.name, inputs: inputs, outputs: outputs, nodes: nodes,
                     initializers: initializers.filter { read.contains($0.key) }, metadata: metadata)
    }

    // MARK: -

    private func decodeInitializers() throws -> [String: Tensor] {
        var tensors: [String: Tensor] = [:]
        for proto in graph.initializer {
            guard !proto.name.isEmpty else {
                throw FoveaError(.invalidModel, "an initializer has no name")
            }
            let tensor = try ONNXTensorDecoder.decode(proto)
            guard tensors.updateValue(tensor, forKey: proto.name) == nil else {
                throw FoveaError(.invalidModel, "initializer '\(proto.name)' is defined twice")
            }
        }
        return tensors
    }

    /// What one ONNX node becomes: a node, or a constant computed at load time.
    private enum Translation {
        case node(Node)
        case constant(output: String, Tensor)
    }

    private func translate(_ proto: Onnx_NodeProto, name: String, constants: [String: Tensor], declaredShapes: [String: [Int]]) throws -> Translation {
        guard Self.isDefaultDomain(proto.domain) else {
            throw unsupportedOp("\(proto.domain).\(proto.opType)", opset: domainOpsets[proto.domain] ?? opset, node: name)
        }
        let location = FoveaError.Location(file: file, node: name, opType: proto.opType, opset: opset)
        let outputs = Self.trimmed(proto.output)
        let translated = try FoveaError.at(location) { () throws -> TranslatedNode? in
            guard !proto.opType.isEmpty else {
                throw FoveaError(.invalidModel, "has no op_type")
            }
            let context = ONNXNodeContext(
                opType: proto.opType, opset: opset, inputs: Self.trimmed(proto.input), outputs: outputs,
                attributes: try ONNXAttributes(proto.attribute),
                constants: constants, declaredShapes: declaredShapes
            )
            return try ONNXOpTranslator.translate(context)
        }
        guard let translated else {
            throw unsupportedOp(proto.opType, opset: opset, node: name)
        }
        if let constant = translated.constant {
            guard outputs.count == 1, let output = outputs.first else {
                throw FoveaError(.invalidModel, "has \(outputs.count) outputs; expected 1", location: location)
            }
            return .constant(output: output, constant)
        }
        return .node(Node(name: name, op: translated.op, inputs: Self.trimmed(translated.inputs), outputs: translated.outputs ?? outputs))
    }

    /// The output name and value of a `Constant` node.
    private func constantNode(_ proto: Onnx_NodeProto) throws -> (String, Tensor) {
        let outputs = Self.trimmed(proto.output)
        guard outputs.count == 1, let output = outputs.first, !output.isEmpty else {
            throw FoveaError(.invalidModel, "has \(outputs.count) outputs; expected 1")
        }
        let attributes = try ONNXAttributes(proto.attribute)
        let tensor = try ONNXConstantNode.value(attributes, inputCount: Self.trimmed(proto.input).count, opset: opset)
        return (output, tensor)
    }

    /// Node names, unique: unnamed nodes are `OpType_index`, repeated names get `_1`, `_2`, ...
    static func uniqueNodeNames(_ nodes: [Onnx_NodeProto]) -> [String] {
        var used = Set<String>()
        var nextSuffix: [String: Int] = [:]  // so that many repeats of one name stay linear
        var names: [String] = []
        for (index, proto) in nodes.enumerated() {
            let base = proto.name.isEmpty ? "\(proto.opType.isEmpty ? "Node" : proto.opType)_\(index)" : proto.name
            var candidate = base
            while !used.insert(candidate).inserted {
                let suffix = nextSuffix[base, default: 1]
                nextSuffix[base] = suffix + 1
                candidate = "\(base)_\(suffix)"
            }
            names.append(candidate)
        }
        return names
    }

    private func isConstantNode(_ proto: Onnx_NodeProto) -> Bool {
        proto.opType == "Constant" && Self.isDefaultDomain(proto.domain)
    }

    static func isDefaultDomain(_ domain: String) -> Bool {
        domain.isEmpty || domain == "ai.onnx"
    }

    private func unsupportedOp(_ opType: String, opset: Int, node: String) -> FoveaError {
        FoveaError(.unsupported, "unsupported op '\(opType)' (opset \(opset)) at node '\(node)'", location: FoveaError.Location(file: file))
    }

    /// Drops trailing absent (`""`) names: ONNX writes them for skipped optional inputs and outputs.
    private static func trimmed(_ names: [String]) -> [String] {
        var names = names
        while names.last == "" { names.removeLast() }
        return names
    }
}
