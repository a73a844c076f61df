extension Graph {
    /// The concrete type of every value (graph inputs, initializers, node outputs).
    ///
    /// - Parameter inputShapes: shapes for graph inputs, overriding the declared
    ///   ones. Needed for inputs with symbolic dimensions (such as a batch `N`).
    ///   An override must have the declared rank and agree with every declared
    ///   number except the first (batch) dimension.
    /// - Throws: `FoveaError` naming the node whose inputs do not fit.
    public func inferTypes(inputShapes: [String: [Int]] = [:]) throws -> [String: TensorType] {
        // A shape computed by the graph is known only by evaluating the computation.
        if hasComputedShapes { return try foldingShapeComputations(inputShapes: inputShapes).types }
        var types = try inputTypes(inputShapes: inputShapes)
        for node in nodes {
            let inputTypes: [TensorType?] = try node.inputs.map { name in
                guard !name.isEmpty else { return nil }
                guard let type = types[name] else {
                    throw FoveaError(.invalidModel, "input '\(name)' is not produced before it is used", location: location(of: node))
                }
                return type
            }
            let outputTypes = try FoveaError.at(location(of: node)) {
                try node.op.outputTypes(inputs: inputTypes, outputCount: node.outputs.count)
            }
            for (name, type) in zip(node.outputs, outputTypes) where !name.isEmpty {
                types[name] = type
            }
        }
        return types
    }

    /// The types of the initializers and the graph inputs (see ``inferTypes(inputShapes:)``).
    func inputTypes(inputShapes: [String: [Int]]) throws -> [String: TensorType] {
        var types: [String: TensorType] = [:]
        for (name, tensor) in initializers {
            types[name] = TensorType(tensor.dataType, tensor.shape)
        }
        for name in inputShapes.keys where !inputs.contains(where: { $0.name == name }) {
            throw FoveaError(.invalidArgument, "'\(name)' is not an input of the model (inputs: \(inputs.map(\.name).joined(separator: ", ")))")
        }
        for input in inputs {
            types[input.name] = TensorType(input.dataType, try resolvedShape(of: input, override: inputShapes[input.name]))
        }
        return types
    }

    private func resolvedShape(of input: ValueInfo, override: [Int]?) throws -> [Int] {
        guard let override else {
            guard let dims = input.dimensions else {
                throw FoveaError(.invalidArgument, "input '\(input.name)' has no declared shape; give one")
            }
            guard let shape = input.knownShape else {
                throw FoveaError(.invalidArgument, "input '\(input.name)' has shape \(input.shapeDescription) with symbolic dimensions; give a concrete shape such as \(dims.map { if case .known(let n) = $0 { return String(n) } else { return "1" } }.joined(separator: "×"))")
            }
            return shape
        }
        guard override.allSatisfy({ $0 >= 0 }) else {
            throw FoveaError(.invalidArgument, "input '\(input.name)': shape \(override) has a negative dimension")
        }
        if let dims = input.dimensions {
            guard dims.count == override.count else {
                throw FoveaError(.shapeMismatch, "input '\(input.name)' has rank \(dims.count) (\(input.shapeDescription)); got shape \(override.shapeDescription)")
            }
            for (axis, (dim, given)) in zip(dims, override).enumerated() where axis > 0 {
                if case .known(let n) = dim, n != given {
                    throw FoveaError(.shapeMismatch, "input '\(input.name)' expects \(input.shapeDescription); got \(override.shapeDescription)")
                }
            }
        }
        return override
    }
}
