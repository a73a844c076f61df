/// Folding the shape computations exporters write for a dynamic batch
/// (`Shape → Gather → Unsqueeze → Concat → Reshape`) once the input shapes are known.
extension Graph {
    /// Whether some node's parameters are computed by the graph (a Reshape
    /// whose target shape is not a constant in the file, ...): see ``ComputedParameters``.
    public var hasComputedShapes: Bool {
        nodes.contains { if case .withComputedParameters = $0.op { return true } else { return false } }
    }

    /// The most elements a folded value may have: shape computations are small.
    static let maximumFoldedElements = 1 << 16

    /// The graph with its shape computations evaluated for `inputShapes`, and
    /// the type of every value.
    ///
    /// Walking the nodes in order, a `Shape` or `Size` of a value whose type is known,
    /// and any operator whose inputs are all known values and whose outputs are
    /// int64 or bool (small: shape arithmetic, not float math on weights),
    /// becomes a constant; a node with ``ComputedParameters`` whose parameters
    /// are then known becomes the ordinary operator (ConstantOfShape, a
    /// constant). Other nodes that produce graph outputs are kept.
    ///
    /// - Throws: `FoveaError` naming the node, as ``inferTypes(inputShapes:)``;
    ///   `.unsupported` for a Reshape whose target depends on run-time data.
    public func foldingShapeComputations(inputShapes: [String: [Int]] = [:]) throws -> (graph: Graph, types: [String: TensorType]) {
        var types = try inputTypes(inputShapes: inputShapes)
        var values = initializers
        let graphOutputs = Set(outputs.map(\.name))
        var kept: [Node] = []
        for original in nodes {
            var node = original
            let location = location(of: node)
            if case .withComputedParameters(let computed) = node.op,
               let parameters = try FoveaError.at(location, { try Self.knownParameters(node, computed, values) }) {
                if let output = node.outputs.first, let tensor = try FoveaError.at(location, { try computed.constantValue(parameters) }) {
                    values[output] = tensor
                    types[output] = TensorType(tensor.dataType, tensor.shape)
                    continue
                }
                let op = try FoveaError.at(location) { try computed.resolved(parameters) }
                node = Node(name: node.name, op: op, inputs: Array(node.inputs.prefix(computed.firstParameter)), outputs: node.outputs)
            }
            let inputTypes: [TensorType?] = try node.inputs.map { name in
                guard !name.isEmpty else { return nil }
                guard let type = types[name] else {
                    throw FoveaError(.invalidModel, "input '\(name)' is not produced before it is used", location: location)
                }
                return type
            }
            let outputTypes = try FoveaError.at(location) { try node.op.outputTypes(inputs: inputTypes, outputCount: node.outputs.count) }
            for (name, type) in zip(node.outputs, outputTypes) where !name.isEmpty { types[name] = type }

            guard !node.outputs.contains(where: graphOutputs.contains),
                  let folded = try FoveaError.at(location, { try Self.fold(node, inputTypes: inputTypes, outputTypes: outputTypes, values: values) })
            else {
                kept.append(node)
                continue
            }
            for (name, tensor) in zip(node.outputs, folded) where !name.isEmpty { values[name] = tensor }
        }
        var read = graphOutputs
        for node in kept { read.formUnion(node.inputs) }
        let graph = Graph(name: name, inputs: inputs, outputs: outputs, nodes: kept,
                          initializers: values.filter { read.contains($0.key) }, metadata: metadata)
        return (graph, types)
    }

    /// The values of a node's parameter inputs (`nil` for an absent optional
    /// one), or `nil` if some are not known yet.
    private static func knownParameters(_ node: Node, _ computed: ComputedParameters, _ values: [String: Tensor]) throws -> [[Int]?]? {
        var parameters: [[Int]?] = []
        for name in node.inputs.dropFirst(computed.firstParameter) {
            if name.isEmpty { parameters.append(nil); continue }
            guard let value = values[name] else { return nil }
            parameters.append(try value.integerValues("parameter '\(name)'"))
        }
        return parameters
    }

    /// The outputs of `node` if it can be folded, else `nil`.
    private static func fold(_ node: Node, inputTypes: [TensorType?], outputTypes: [TensorType], values: [String: Tensor]) throws -> [Tensor]? {
        if case .shape(let start, let end) = node.op, let input = inputTypes.first ?? nil {
            let dims = input.shape[Op.shapeSlice(rank: input.shape.count, start: start, end: end)].map { Int64($0) }
            return [try Tensor(shape: [dims.count], int64s: dims)]
        }
        if case .size = node.op, let input = inputTypes.first ?? nil {
            return [try Tensor(shape: [], int64s: [Int64(input.shape.elementCount)])]
        }
        let inputs = node.inputs.map { $0.isEmpty ? nil : values[$0] }
        guard !node.inputs.isEmpty, zip(node.inputs, inputs).allSatisfy({ $0.0.isEmpty || $0.1 != nil }),
              outputTypes.allSatisfy({ $0.dataType != .float32 && $0.shape.elementCount <= maximumFoldedElements }) else {
            return nil
        }
        return try ReferenceBackend.evaluate(node.op, inputs: inputs, outputTypes: outputTypes)
    }
}
