/// Cutting a graph so that an intermediate value becomes its output.
extension Graph {
    /// The part of the graph that computes `values`, with those values as its
    /// only outputs: every node they do not depend on is dropped, and so are the
    /// initializers and graph inputs no kept node reads.
    ///
    /// This is how an intermediate value (a feature layer) is read: the cut graph
    /// is planned and run like any model, so it runs on the fastest backend.
    ///
    /// - Throws: `.invalidArgument` if a name is not a value of the graph (the
    ///   message lists a few that are).
    public func truncated(at values: [String]) throws -> Graph {
        var types: [String: DataType] = [:]
        for input in inputs { types[input.name] = input.dataType }
        for (name, tensor) in initializers { types[name] = tensor.dataType }
        var producer: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            for output in node.outputs where !output.isEmpty { producer[output] = index }
        }
        for value in values where producer[value] == nil && types[value] == nil {
            let known = nodes.suffix(8).flatMap(\.outputs).filter { !$0.isEmpty }
            throw FoveaError(.invalidArgument, "'\(value)' is not a value of the model (its last values: \(known.joined(separator: ", ")))")
        }
        // Walk back from the requested values to everything they read.
        var needed = Set(values)
        var keep = Set<Int>()
        var pending = values
        while let value = pending.popLast() {
            guard let index = producer[value], keep.insert(index).inserted else { continue }
            for input in nodes[index].inputs where !input.isEmpty && needed.insert(input).inserted {
                pending.append(input)
            }
        }
        let keptNodes = nodes.indices.filter(keep.contains).map { nodes[$0] }
        let outputs = values.map { value in
            ValueInfo(name: value, dataType: types[value] ?? .float32, dimensions: nil)
        }
        return Graph(name: name, inputs: inputs.filter { needed.contains($0.name) }, outputs: outputs, nodes: keptNodes,
                     initializers: initializers.filter { needed.contains($0.key) }, metadata: metadata)
    }
}
