import Fovea
import FoveaCore

/// Runs one input through several backends, each forced in turn, and compares
/// every node's output with the reference backend's: what `fovea parity` reports.
///
/// The relative error of a node is its max absolute error divided by the
/// largest magnitude of the reference output of that node, so values near
/// zero do not inflate it. A backend passes if no node exceeds its bound: the
/// loosest `PreparedStep.tolerance` among the step that ran it and every
/// step upstream of it, since error flows downstream (a node after a Winograd
/// step inherits Winograd's bound, and a reference fallback after SIMD steps
/// inherits theirs).
public struct ParityCheck: Sendable {
    /// The comparison of one node.
    public struct NodeReport: Sendable, Codable, Equatable {
        /// The node's name.
        public var node: String
        /// The node's operator (`Conv`, `Relu`, ...).
        public var opType: String
        /// The backend that ran the node (the reference when the forced one could not).
        public var backend: String
        /// The algorithm the step used (`PreparedStep.algorithm`).
        public var algorithm: String
        /// The node's bound (relative to the reference output's largest
        /// magnitude): the loosest step tolerance on any path into it.
        public var tolerance: Float
        /// The largest absolute difference from the reference output.
        public var maxAbsoluteError: Float
        /// ``maxAbsoluteError`` divided by the reference output's largest magnitude: what ``tolerance`` bounds.
        public var maxRelativeError: Float
    }

    /// The comparison of one backend.
    public struct BackendReport: Sendable, Codable, Equatable {
        /// The backend that was forced.
        public var backend: String
        /// The loosest step tolerance of the plan.
        public var tolerance: Float
        /// Nodes that ran on the reference backend because this one cannot run them.
        public var fallbacks: [String]
        /// Every node's comparison, in plan order.
        public var nodes: [NodeReport]
        /// The largest absolute error over all nodes.
        public var maxAbsoluteError: Float
        /// The largest relative error over all nodes.
        public var maxRelativeError: Float
        /// Whether every node stayed within its tolerance.
        public var passed: Bool
    }

    /// The model under test.
    public let model: Model
    /// Threads per run; `nil` uses every active core.
    public let threads: Int?

    /// Creates a check of `model`'s backends on up to `threads` threads.
    public init(model: Model, threads: Int? = nil) {
        self.model = model
        self.threads = threads
    }

    /// Compares each of `backends` with the reference backend on `inputs`.
    public func run(inputs: [String: Tensor], backends: [any Backend]) throws -> [BackendReport] {
        let shapes = inputs.mapValues(\.shape)
        let context = RunContext(threads: RunContext.clampedThreadCount(threads ?? RunContext.defaultThreadCount))
        let memoryOptions = model.configuration.optimizations.memoryOptions
        let limit = model.configuration.memoryLimit
        let location = FoveaError.Location(file: model.path.isEmpty ? nil : model.path)
        let baseline = try FoveaError.at(location) {
            try ExecutionPlan(graph: model.graph, inputShapes: shapes, backends: [ReferenceBackend()],
                              memoryOptions: memoryOptions, memoryLimit: limit)
            .runKeepingAllValues(inputs, context: context)
        }
        return try FoveaError.at(location) { try compare(inputs: inputs, shapes: shapes, baseline: baseline, backends: backends,
                                                         context: context, memoryOptions: memoryOptions, limit: limit) }
    }

    private func compare(inputs: [String: Tensor], shapes: [String: [Int]], baseline: [String: Tensor], backends: [any Backend],
                         context: RunContext, memoryOptions: MemoryPlan.Options, limit: MemoryLimit) throws -> [BackendReport] {
        return try backends.map { backend in
            let plan = try ExecutionPlan(graph: model.graph, inputShapes: shapes, backends: [backend],
                                         memoryOptions: memoryOptions, maxThreads: context.threads, memoryLimit: limit)
            let values = try plan.runKeepingAllValues(inputs, context: context)
            var nodes: [NodeReport] = []
            var bound: [String: Float] = [:]
            for (node, assignment) in zip(model.graph.nodes, plan.assignments) {
                let upstream = node.inputs.compactMap { bound[$0] }.max() ?? 0
                let tolerance = Swift.max(assignment.tolerance, upstream)
                for output in node.outputs { bound[output] = tolerance }
                var absolute: Float = 0
                var relative: Float = 0
                for output in node.outputs where !output.isEmpty {
                    guard let expected = baseline[output], let actual = values[output] else { continue }
                    let (a, r) = Self.errors(actual, expected)
                    absolute = Swift.max(absolute, a)
                    relative = Swift.max(relative, r)
                }
                nodes.append(NodeReport(node: node.name, opType: node.op.typeName, backend: assignment.backend,
                                        algorithm: assignment.algorithm, tolerance: tolerance,
                                        maxAbsoluteError: absolute, maxRelativeError: relative))
            }
            let maxAbsolute = nodes.map(\.maxAbsoluteError).max() ?? 0
            let maxRelative = nodes.map(\.maxRelativeError).max() ?? 0
            return BackendReport(backend: backend.name, tolerance: nodes.map(\.tolerance).max() ?? 0,
                                 fallbacks: plan.assignments.filter(\.isFallback).map(\.node),
                                 nodes: nodes, maxAbsoluteError: maxAbsolute, maxRelativeError: maxRelative,
                                 passed: nodes.allSatisfy { $0.maxRelativeError <= $0.tolerance })
        }
    }

    /// Max absolute error, and that divided by the reference's largest magnitude.
    /// A shape or type difference, or a NaN where the reference has none, is an infinite error.
    static func errors(_ actual: Tensor, _ expected: Tensor) -> (absolute: Float, relative: Float) {
        guard actual.shape == expected.shape else { return (.infinity, .infinity) }
        switch (actual.storage, expected.storage) {
        case (.float32(let a), .float32(let e)):
            var absolute: Float = 0
            var scale: Float = 0
            for i in a.indices {
                let difference = abs(a[i] - e[i])
                if difference.isNaN {
                    if a[i].isNaN != e[i].isNaN { return (.infinity, .infinity) }
                    continue
                }
                absolute = Swift.max(absolute, difference)
                scale = Swift.max(scale, abs(e[i]))
            }
            return (absolute, scale > 0 ? absolute / scale : absolute)
        case (.int64(let a), .int64(let e)):
            return a == e ? (0, 0) : (.infinity, .infinity)
        case (.bool(let a), .bool(let e)):
            return a == e ? (0, 0) : (.infinity, .infinity)
        default:
            return (.infinity, .infinity)
        }
    }
}
