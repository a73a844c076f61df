/// A graph made ready to run for fixed input shapes: validated, every value's
/// type inferred, every node bound to a kernel. Build it once, run it many
/// times; `run` may be called from several threads at once.
///
/// ```swift
/// let plan = try ExecutionPlan(graph: graph, inputShapes: ["data": [1, 3, 224, 224]])
/// let outputs = try plan.run(["data": image])
/// ```
public final class ExecutionPlan: Sendable {
    /// The graph this plan runs.
    public let graph: Graph
    /// The type of every value for this plan's input shapes.
    public let valueTypes: [String: TensorType]
    private let steps: [Step]

    private struct Step: Sendable {
        var node: Node
        var outputTypes: [TensorType]
        /// Values no later step (and no graph output) reads: freed after this step.
        var releases: [String]
    }

    /// - Parameter inputShapes: concrete shapes for graph inputs whose declared
    ///   shape is symbolic, or to run a batch larger than declared.
    /// - Throws: `FoveaError` if the graph is malformed or its shapes do not fit.
    public init(graph: Graph, inputShapes: [String: [Int]] = [:]) throws {
        try graph.validateStructure()
        let types = try graph.inferTypes(inputShapes: inputShapes)
        self.graph = graph
        self.valueTypes = types

        var lastUse: [String: Int] = [:]
        for (index, node) in graph.nodes.enumerated() {
            for input in node.inputs where !input.isEmpty { lastUse[input] = index }
        }
        let kept = Set(graph.outputs.map(\.name)).union(graph.initializers.keys)
        var releases = [[String]](repeating: [], count: graph.nodes.count)
        for (name, index) in lastUse where !kept.contains(name) { releases[index].append(name) }
        steps = graph.nodes.enumerated().map { index, node in
            Step(node: node,
                 outputTypes: node.outputs.map { types[$0] ?? TensorType(.float32, []) },
                 releases: releases[index])
        }
    }

    /// The plan's graph inputs with their concrete types, in declaration order.
    public var inputTypes: [(name: String, type: TensorType)] {
        graph.inputs.compactMap { input in valueTypes[input.name].map { (input.name, $0) } }
    }

    /// Runs the graph.
    ///
    /// - Parameter feeds: a tensor for every graph input, by name, of the type
    ///   this plan was built for.
    /// - Returns: every graph output, by name.
    public func run(_ feeds: [String: Tensor]) throws -> [String: Tensor] {
        var values = graph.initializers
        for name in feeds.keys where !graph.inputs.contains(where: { $0.name == name }) {
            throw FoveaError(.invalidArgument, "'\(name)' is not an input of the model (inputs: \(graph.inputs.map(\.name).joined(separator: ", ")))")
        }
        for input in graph.inputs {
            guard let tensor = feeds[input.name] else {
                throw FoveaError(.invalidArgument, "missing input '\(input.name)'")
            }
            let expected = valueTypes[input.name]
            guard expected == TensorType(tensor.dataType, tensor.shape) else {
                throw FoveaError(.shapeMismatch, "input '\(input.name)' is \(TensorType(tensor.dataType, tensor.shape)); this plan was built for \(expected.map(String.init(describing:)) ?? "?")")
            }
            values[input.name] = tensor
        }
        for step in steps {
            let node = step.node
            let inputs = node.inputs.map { $0.isEmpty ? nil : values[$0] }
            let outputs = try FoveaError.at(graph.location(of: node)) {
                try ReferenceBackend.evaluate(node.op, inputs: inputs, outputTypes: step.outputTypes)
            }
            for (index, name) in node.outputs.enumerated() where !name.isEmpty {
                guard index < outputs.count, outputs[index].shape == step.outputTypes[index].shape else {
                    throw FoveaError(.shapeMismatch, "output \(index) does not have its inferred type \(step.outputTypes[index])", location: graph.location(of: node))
                }
                values[name] = outputs[index]
            }
            for name in step.releases { values[name] = nil }
        }
        var results: [String: Tensor] = [:]
        for output in graph.outputs {
            results[output.name] = values[output.name]
        }
        return results
    }
}
