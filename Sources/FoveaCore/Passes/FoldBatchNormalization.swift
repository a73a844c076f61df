/// Folds an inference BatchNormalization into the Conv that feeds it.
///
/// `BN(conv(x, W) + B) = conv(x, W·f) + (B − mean)·f + bias` with
/// `f = scale / sqrt(var + ε)` per output channel, so the Conv takes new
/// weights and bias (computed once here, in Double) and the BatchNormalization
/// node goes away. It applies only when nothing else reads the Conv's raw
/// output (nor is it a graph output), the Conv has no activation fused yet,
/// and the weights, bias and every BatchNormalization parameter are constants.
/// New initializers get new names, so weights shared with another node stay as they are.
public struct FoldBatchNormalization: GraphPass {
    public var name: String { "FoldBatchNormalization" }

    /// Creates the pass. It has no settings; one value serves any number of graphs.
    public init() {}

    public func run(_ graph: inout Graph) throws -> Bool {
        let producer = graph.convsReadOnce()
        guard !producer.isEmpty else { return false }

        var removed = Set<Int>()
        for (index, node) in graph.nodes.enumerated() {
            guard case .batchNormalization(let epsilon) = node.op, node.inputs.count == 5,
                  node.outputs.count == 1 || node.outputs.dropFirst().allSatisfy(\.isEmpty),
                  let convIndex = producer[node.inputs[0]],
                  let folded = fold(conv: graph.nodes[convIndex], batchNorm: node, epsilon: epsilon, graph: graph)
            else { continue }
            var conv = graph.nodes[convIndex]
            let weightName = unique("\(conv.name)_W_bn", in: graph)
            graph.initializers[weightName] = folded.weights
            let biasName = unique("\(conv.name)_B_bn", in: graph)
            graph.initializers[biasName] = folded.bias
            let replaced = [conv.input(1), conv.input(2)].compactMap { $0 } + node.inputs.dropFirst()
            conv.inputs = [conv.inputs[0], weightName, biasName]
            conv.outputs = [node.outputs[0]]
            graph.nodes[convIndex] = conv
            removed.insert(index)
            dropUnread(replaced, from: &graph, ignoring: removed)
        }
        return graph.removeNodes(at: removed)
    }

    /// The folded weights and bias, or `nil` if a parameter is not a float constant of the right size.
    private func fold(conv: Node, batchNorm: Node, epsilon: Float, graph: Graph) -> (weights: Tensor, bias: Tensor)? {
        guard let weightName = conv.input(1), let weights = graph.initializers[weightName]?.floats,
              let shape = graph.initializers[weightName]?.shape, shape.count >= 3 else { return nil }
        let channels = shape[0]
        guard channels > 0, weights.count % channels == 0 else { return nil }
        var bias = [Float](repeating: 0, count: channels)
        if let biasName = conv.input(2) {
            guard let values = graph.initializers[biasName]?.floats, values.count == channels else { return nil }
            bias = values
        }
        let parameters = batchNorm.inputs.dropFirst().map { name in graph.initializers[name]?.floats }
        guard parameters.allSatisfy({ $0?.count == channels }) else { return nil }
        let scale = parameters[0]!, shift = parameters[1]!, mean = parameters[2]!, variance = parameters[3]!
        let perChannel = weights.count / channels
        var newWeights = weights
        var newBias = bias
        for c in 0..<channels {
            let factor = Double(scale[c]) / (Double(variance[c]) + Double(epsilon)).squareRoot()
            for i in (c * perChannel)..<((c + 1) * perChannel) {
                newWeights[i] = Float(Double(weights[i]) * factor)
            }
            newBias[c] = Float((Double(bias[c]) - Double(mean[c])) * factor + Double(shift[c]))
        }
        guard let w = try? Tensor(shape: shape, floats: newWeights),
              let b = try? Tensor(shape: [channels], floats: newBias) else { return nil }
        return (w, b)
    }

    /// `base`, or `base_2`, `base_3`, ... : a name no value of the graph has.
    private func unique(_ base: String, in graph: Graph) -> String {
        var taken = Set(graph.initializers.keys)
        taken.formUnion(graph.inputs.map(\.name))
        for node in graph.nodes { taken.formUnion(node.outputs) }
        var name = base, suffix = 2
        while taken.contains(name) {
            name = "\(base)_\(suffix)"
            suffix += 1
        }
        return name
    }

    /// Removes the initializers among `names` that nothing reads any more.
    private func dropUnread(_ names: [String], from graph: inout Graph, ignoring removed: Set<Int>) {
        var read = Set(graph.outputs.map(\.name))
        read.formUnion(graph.inputs.map(\.name))
        for (index, node) in graph.nodes.enumerated() where !removed.contains(index) { read.formUnion(node.inputs) }
        for name in names where !read.contains(name) { graph.initializers[name] = nil }
    }
}
