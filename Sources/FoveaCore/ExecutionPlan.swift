/// A graph made ready to run for fixed input shapes: validated, every value's
/// type inferred, every node assigned to a backend and prepared (weights packed)
/// once. Run it many times; `run` may be called from several threads at once.
///
/// ```swift
/// let plan = try ExecutionPlan(graph: graph, inputShapes: ["data": [1, 3, 224, 224]],
///                              backends: [SIMDBackend()])
/// let outputs = try plan.run(["data": image], context: RunContext(threads: 2))
/// ```
public final class ExecutionPlan: Sendable {
    /// The graph this plan runs.
    public let graph: Graph
    /// The type of every value for this plan's input shapes.
    public let valueTypes: [String: TensorType]
    /// Per node, in run order: which backend runs it and how.
    public let assignments: [Assignment]
    private let steps: [Step]

    /// Where one node runs.
    public struct Assignment: Sendable, Equatable, Codable {
        public var node: String
        public var opType: String
        public var backend: String
        public var algorithm: String
        /// The node went to the reference backend because none of the
        /// requested backends can run it.
        public var isFallback: Bool
    }

    private struct Step: Sendable {
        var node: Node
        var step: any PreparedStep
        var outputTypes: [TensorType]
        /// Values no later step (and no graph output) reads: freed after this step.
        var releases: [String]
    }

    /// - Parameters:
    ///   - inputShapes: concrete shapes for graph inputs whose declared shape
    ///     is symbolic, or to run a batch larger than declared.
    ///   - backends: the backends to use, in order of preference. Each node
    ///     goes to the first that supports it; the reference backend is always
    ///     added last and takes what no other backend takes.
    /// - Throws: `FoveaError` if the graph is malformed, its shapes do not fit,
    ///   or a backend fails to prepare a node.
    public init(graph: Graph, inputShapes: [String: [Int]] = [:], backends: [any Backend] = []) throws {
        try graph.validateStructure()
        let types = try graph.inferTypes(inputShapes: inputShapes)
        self.graph = graph
        self.valueTypes = types

        let referenceRequested = backends.contains { $0.name == ReferenceBackend.name }
        let candidates = backends.filter { $0.name != ReferenceBackend.name } + [ReferenceBackend()]

        var lastUse: [String: Int] = [:]
        for (index, node) in graph.nodes.enumerated() {
            for input in node.inputs where !input.isEmpty { lastUse[input] = index }
        }
        let kept = Set(graph.outputs.map(\.name)).union(graph.initializers.keys)
        var releases = [[String]](repeating: [], count: graph.nodes.count)
        for (name, index) in lastUse where !kept.contains(name) { releases[index].append(name) }

        var steps: [Step] = []
        var assignments: [Assignment] = []
        for (index, node) in graph.nodes.enumerated() {
            // An unnamed optional output has no type; give it an empty placeholder.
            let outputTypes = node.outputs.map { types[$0] ?? TensorType(.float32, []) }
            var constants: [Int: Tensor] = [:]
            for (i, input) in node.inputs.enumerated() where !input.isEmpty {
                if let value = graph.initializers[input] { constants[i] = value }
            }
            let context = NodeContext(node: node,
                                      inputTypes: node.inputs.map { $0.isEmpty ? nil : types[$0] },
                                      outputTypes: outputTypes,
                                      constantInputs: constants)
            let location = graph.location(of: node)
            guard let backend = candidates.first(where: { $0.supports(context) }) else {
                throw FoveaError(.unsupported, "no backend can run this node", location: location)
            }
            let step = try FoveaError.at(location) { try backend.prepare(context) }
            steps.append(Step(node: node, step: step, outputTypes: outputTypes, releases: releases[index]))
            assignments.append(Assignment(
                node: node.name, opType: node.op.typeName, backend: backend.name, algorithm: step.algorithm,
                isFallback: backend.name == ReferenceBackend.name && !referenceRequested && !backends.isEmpty))
        }
        self.steps = steps
        self.assignments = assignments
    }

    /// The plan's graph inputs with their concrete types, in declaration order.
    public var inputTypes: [(name: String, type: TensorType)] {
        graph.inputs.compactMap { input in valueTypes[input.name].map { (input.name, $0) } }
    }

    /// Runs the graph.
    ///
    /// - Parameters:
    ///   - feeds: a tensor for every graph input, by name, of the type this
    ///     plan was built for.
    ///   - context: the thread count for this run.
    ///   - observer: called after each node with its index and its run time in
    ///     seconds (for profiles); `nil` to skip timing.
    /// - Returns: every graph output, by name.
    public func run(_ feeds: [String: Tensor], context: RunContext = RunContext(),
                    observer: ((_ node: Int, _ seconds: Double) -> Void)? = nil) throws -> [String: Tensor] {
        try run(feeds, context: context, keepingAllValues: false, observer: observer)
    }

    /// Runs the graph and returns every value it computed (graph inputs,
    /// initializers and every node output), for comparing backends node by node.
    public func runKeepingAllValues(_ feeds: [String: Tensor], context: RunContext = RunContext()) throws -> [String: Tensor] {
        try run(feeds, context: context, keepingAllValues: true, observer: nil)
    }

    private func run(_ feeds: [String: Tensor], context: RunContext, keepingAllValues: Bool,
                     observer: ((_ node: Int, _ seconds: Double) -> Void)?) throws -> [String: Tensor] {
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
        for (index, step) in steps.enumerated() {
            let node = step.node
            let inputs = node.inputs.map { $0.isEmpty ? nil : values[$0] }
            let start = observer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
            let outputs = try FoveaError.at(graph.location(of: node)) {
                try step.step.run(inputs, context: context)
            }
            if let observer {
                observer(index, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            }
            for (index, name) in node.outputs.enumerated() where !name.isEmpty {
                guard index < outputs.count, outputs[index].shape == step.outputTypes[index].shape,
                      outputs[index].dataType == step.outputTypes[index].dataType else {
                    throw FoveaError(.shapeMismatch, "output \(index) does not have its planned type \(step.outputTypes[index])", location: graph.location(of: node))
                }
                values[name] = outputs[index]
            }
            if !keepingAllValues {
                for name in step.releases { values[name] = nil }
            }
        }
        if keepingAllValues { return values }
        var results: [String: Tensor] = [:]
        for output in graph.outputs {
            results[output.name] = values[output.name]
        }
        return results
    }
}

import Dispatch
