extension Graph {
    /// Checks that the graph is well formed: every value is produced exactly
    /// once (graph input, initializer or node output) before it is read, every
    /// graph output is produced, and every node has an input count its
    /// operator accepts. When every graph input has a known shape it also runs
    /// shape inference, so shape errors surface here too.
    ///
    /// - Throws: `FoveaError` (`.invalidModel` or `.shapeMismatch`) naming the node.
    public func validate() throws {
        try validateStructure()
        if inputs.allSatisfy({ $0.knownShape != nil }) {
            _ = try inferTypes()
        }
    }

    /// The structural half of ``validate()``: producers, consumers and input counts, no shapes.
    public func validateStructure() throws {
        var defined = Set<String>()
        for input in inputs {
            guard defined.insert(input.name).inserted else {
                throw FoveaError(.invalidModel, "graph input '\(input.name)' is declared twice")
            }
        }
        for name in initializers.keys {
            guard defined.insert(name).inserted else {
                throw FoveaError(.invalidModel, "value '\(name)' is both a graph input and an initializer")
            }
        }
        var nodeNames = Set<String>()
        for node in nodes {
            let location = location(of: node)
            guard nodeNames.insert(node.name).inserted else {
                throw FoveaError(.invalidModel, "node name is used twice", location: location)
            }
            let arity = node.op.inputArity
            guard arity.contains(node.inputs.count) else {
                throw FoveaError(.invalidModel, "has \(node.inputs.count) inputs; expected \(arity.lowerBound)\(arity.upperBound == Int.max ? " or more" : arity.count > 1 ? " to \(arity.upperBound)" : "")", location: location)
            }
            for (index, input) in node.inputs.enumerated() where !input.isEmpty {
                guard defined.contains(input) else {
                    throw undefinedInputError(index: index, input: input, node: node)
                }
            }
            for index in 0..<node.op.requiredInputCount where node.input(index) == nil {
                throw FoveaError(.invalidModel, "required input \(index) is missing", location: location)
            }
            guard !node.outputs.isEmpty, !node.outputs[0].isEmpty else {
                throw FoveaError(.invalidModel, "has no output", location: location)
            }
            guard node.op.outputArity.contains(node.outputs.count) else {
                throw FoveaError(.invalidModel, "has \(node.outputs.count) outputs; \(node.op.typeName) has at most \(node.op.outputArity.upperBound)", location: location)
            }
            for output in node.outputs where !output.isEmpty {
                guard defined.insert(output).inserted else {
                    throw FoveaError(.invalidModel, "output '\(output)' is already produced elsewhere", location: location)
                }
            }
        }
        for output in outputs where !defined.contains(output.name) {
            throw FoveaError(.invalidModel, "graph output '\(output.name)' is never produced")
        }
    }
}

extension Graph {
    /// Why `node`'s input `input` is not defined before it: a cycle through the
    /// graph (naming its nodes), a later producer (nodes out of order), or no producer.
    func undefinedInputError(index: Int, input: String, node: Node) -> FoveaError {
        let location = location(of: node)
        if let cycle = cycle() {
            let names = (cycle + [cycle[0]]).map { "'\($0.name)' (\($0.op.typeName))" }.joined(separator: " -> ")
            return FoveaError(.invalidModel, "the graph has a cycle: \(names)")
        }
        if let producer = nodes.first(where: { $0.outputs.contains(input) }) {
            return FoveaError(.invalidModel, "input \(index) '\(input)' is produced by node '\(producer.name)', which comes later; nodes must be in topological order", location: location)
        }
        return FoveaError(.invalidModel, "input \(index) '\(input)' is not produced by any node, graph input or initializer", location: location)
    }

    /// The nodes on one cycle of the graph (each feeds the next, the last
    /// feeds the first), or `nil` when the graph is acyclic.
    public func cycle() -> [Node]? {
        var producer: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            for output in node.outputs where !output.isEmpty { producer[output] = index }
        }
        // Edges from a node to the nodes producing its inputs; iterative depth-first search.
        let predecessors = nodes.map { node in node.inputs.compactMap { producer[$0] } }
        var state = [UInt8](repeating: 0, count: nodes.count)  // 0 new, 1 on the stack, 2 done
        for root in nodes.indices where state[root] == 0 {
            var stack: [(node: Int, next: Int)] = [(root, 0)]
            state[root] = 1
            while let top = stack.last {
                let edges = predecessors[top.node]
                if top.next == edges.count {
                    state[top.node] = 2
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let target = edges[top.next]
                if state[target] == 1 {
                    // The stack from `target` up is the cycle, walked against the data flow.
                    let start = stack.firstIndex { $0.node == target }!
                    return stack[start...].map { nodes[$0.node] }.reversed()
                }
                if state[target] == 0 {
                    state[target] = 1
                    stack.append((target, 0))
                }
            }
        }
        return nil
    }
}

extension Op {
    /// How many inputs a node of this operator may have.
    public var inputArity: ClosedRange<Int> {
        switch self {
        case .conv(let attributes): return attributes.addsResidual ? 4...4 : 2...3
        case .gemm, .layerNormalization: return 2...3
        case .prelu, .matMul, .add, .sub, .mul, .div, .pow, .mod, .gather, .compare: return 2...2
        case .withComputedParameters(let computed): return computed.inputArity
        case .select, .scatterND: return 3...3
        case .batchNormalization, .squeezeExcitation: return 5...5
        case .instanceNormalization, .groupNormalization: return 3...3
        case .concat, .sum, .maximum, .minimum: return 1...Int.max
        case .quantizeLinear, .dequantizeLinear: return 2...3
        case .qLinearConv: return 8...9
        case .qLinearMatMul: return 8...8
        case .convInteger, .matMulInteger: return 2...4
        case .quantizedConv: return 2...3
        case .qLinearGlobalAveragePool: return 5...5
        default: return 1...1
        }
    }

    /// How many outputs a node of this operator may have: MaxPool may add its
    /// Indices, Dropout its mask, LayerNormalization its Mean and InvStdDev.
    public var outputArity: ClosedRange<Int> {
        switch self {
        case .maxPool, .dropout: return 1...2
        case .layerNormalization: return 1...3
        case .dynamicQuantizeLinear: return 3...3
        case .split(_, let sizes): return sizes.map { $0.count...$0.count } ?? 1...Int.max
        default: return 1...1
        }
    }

    /// How many leading inputs must be present (not `""`).
    public var requiredInputCount: Int {
        switch self {
        case .conv, .gemm, .layerNormalization, .squeezeExcitation: return 2
        case .withComputedParameters(let computed): return computed.firstParameter + (computed == .slice ? 2 : 1)
        case .concat, .sum, .maximum, .minimum: return 1
        default: return inputArity.lowerBound
        }
    }
}
