@_spi(Internals) import Fovea
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
///
/// With a ``precision`` other than float32, each backend's plan is built in
/// that precision (its bfloat16 steps carry their looser tolerances), and
/// every step is also checked on its own: the reference runs the node again on
/// the inputs the backend gave it (``NodeReport/stepRelativeError``), and the
/// backend passes if each step stays within its own tolerance. The error
/// from the model's input on (``NodeReport/maxRelativeError``) is still
/// reported, but a bound on it cannot tell a faulty kernel from roundings
/// that compound: on MobileNetV2 (seeded weights) the bf16 steps err by at
/// most a few percent each, and 17 blocks of them drift to 12% by the last
/// layer. What the precision costs the whole model is
/// ``comparePrecision(samples:backends:)``'s job: against the same backend
/// in float32, the largest logit error and how often the top classes agree.
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
        /// The arithmetic the step ran in (`PreparedStep.precision`).
        public var precision: Precision
        /// The node's bound (relative to the reference output's largest
        /// magnitude): the loosest step tolerance on any path into it.
        public var tolerance: Float
        /// The largest absolute difference from the reference output.
        public var maxAbsoluteError: Float
        /// ``maxAbsoluteError`` divided by the reference output's largest magnitude: what ``tolerance`` bounds
        /// in a float32 plan.
        public var maxRelativeError: Float
        /// In a plan of reduced precision, the step's own error: the reference run on
        /// the inputs this backend gave the node, compared with the node's output, as a
        /// relative error; `nil` in a float32 plan.
        public var stepRelativeError: Float?
        /// The step's own tolerance (``PreparedStep/tolerance``), which bounds ``stepRelativeError``.
        public var stepTolerance: Float

        /// Whether the node is within its bound: the step's own error in a plan of
        /// reduced precision, the error from the model's input in a float32 plan.
        public var passed: Bool {
            if let step = stepRelativeError { return step <= stepTolerance }
            return maxRelativeError <= tolerance
        }
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

    /// What a precision costs one backend on the whole model, against the same
    /// backend in float32 over every sample given (``comparePrecision(samples:backends:)``).
    public struct PrecisionReport: Sendable, Codable, Equatable {
        /// The backend compared with itself.
        public var backend: String
        /// The precision compared with float32.
        public var precision: Precision
        /// Steps of the plan that ran in ``precision``.
        public var reducedSteps: Int
        /// All the plan's steps.
        public var steps: Int
        /// Samples compared (an image each, or one set of inputs).
        public var samples: Int
        /// The largest error of a graph output over every sample, divided by that
        /// sample's largest float32 output magnitude (the logits of a classifier).
        public var maxRelativeLogitError: Float
        /// Rows (images) whose highest-scoring class is the same as in float32.
        public var top1Agreements: Int
        /// Rows whose five highest-scoring classes are the same set as in float32
        /// (all of them when a row has fewer than five).
        public var top5Agreements: Int
        /// Rows compared: samples × batch.
        public var rows: Int
    }

    /// The model under test.
    public let model: Model
    /// Threads per run; `nil` uses every active core.
    public let threads: Int?
    /// The precision the backends' plans are built in (see `ExecutionPlan`'s `precision`).
    public let precision: Precision

    /// Creates a check of `model`'s backends on up to `threads` threads, their plans in `precision`.
    public init(model: Model, threads: Int? = nil, precision: Precision = .f32) {
        self.model = model
        self.threads = threads
        self.precision = precision
    }

    private var runContext: RunContext {
        RunContext(threads: RunContext.clampedThreadCount(threads ?? RunContext.defaultThreadCount))
    }

    /// Runs every sample through each backend's plan in ``precision`` and in float32,
    /// and compares their graph outputs: the error over every float32 output, the
    /// top classes on the first (a classifier's logits or probabilities, one row
    /// per image along the first axis).
    public func comparePrecision(samples: [[String: Tensor]], backends: [any Backend]) throws -> [PrecisionReport] {
        let context = runContext
        let memoryOptions = model.configuration.optimizations.memoryOptions
        let limit = model.configuration.memoryLimit
        let location = FoveaError.Location(file: model.path.isEmpty ? nil : model.path)
        return try FoveaError.at(location) {
            try backends.map { backend in
                var plans: [[String: [Int]]: (reduced: ExecutionPlan, f32: ExecutionPlan)] = [:]
                var report = PrecisionReport(backend: backend.name, precision: precision, reducedSteps: 0, steps: 0,
                                             samples: samples.count, maxRelativeLogitError: 0,
                                             top1Agreements: 0, top5Agreements: 0, rows: 0)
                for sample in samples {
                    let shapes = sample.mapValues(\.shape)
                    let pair = try plans[shapes] ?? (
                        ExecutionPlan(graph: model.graph, inputShapes: shapes, backends: [backend], memoryOptions: memoryOptions,
                                      maxThreads: context.threads, memoryLimit: limit, precision: precision),
                        ExecutionPlan(graph: model.graph, inputShapes: shapes, backends: [backend], memoryOptions: memoryOptions,
                                      maxThreads: context.threads, memoryLimit: limit))
                    plans[shapes] = pair
                    report.reducedSteps = pair.reduced.assignments.filter { $0.precision == precision }.count
                    report.steps = pair.reduced.assignments.count
                    let reduced = try pair.reduced.run(sample, context: context)
                    let reference = try pair.f32.run(sample, context: context)
                    var ranked = false
                    for output in model.graph.outputs {
                        guard let actual = reduced[output.name], let expected = reference[output.name],
                              case .float32(let e) = expected.storage else { continue }
                        let (_, relative) = Self.errors(actual, expected)
                        report.maxRelativeLogitError = Swift.max(report.maxRelativeLogitError, relative)
                        // Classes are ranked on the first float32 output (the scores).
                        guard !ranked, case .float32(let a) = actual.storage, a.count == e.count else { continue }
                        ranked = true
                        let batch = expected.shape.first ?? 1
                        guard batch > 0, e.count % batch == 0 else { continue }
                        let width = e.count / batch
                        for row in 0..<batch {
                            let range = row * width ..< (row + 1) * width
                            let top = Self.topClasses(e[range], 5), topReduced = Self.topClasses(a[range], 5)
                            report.rows += 1
                            if top.first == topReduced.first { report.top1Agreements += 1 }
                            if Set(top) == Set(topReduced) { report.top5Agreements += 1 }
                        }
                    }
                }
                return report
            }
        }
    }

    /// The indices of the `k` largest values, largest first (NaN ranks lowest; ties by index).
    static func topClasses(_ values: ArraySlice<Float>, _ k: Int) -> [Int] {
        let base = values.startIndex
        let order = values.indices.sorted { i, j in
            let a = values[i].isNaN ? -Float.infinity : values[i], b = values[j].isNaN ? -Float.infinity : values[j]
            return a != b ? a > b : i < j
        }
        return order.prefix(k).map { $0 - base }
    }

    /// Compares each of `backends` with the reference backend on `inputs`.
    public func run(inputs: [String: Tensor], backends: [any Backend]) throws -> [BackendReport] {
        let shapes = inputs.mapValues(\.shape)
        let context = runContext
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
                                         memoryOptions: memoryOptions, maxThreads: context.threads, memoryLimit: limit,
                                         precision: precision)
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
                let step = precision == .f32 ? nil : try stepError(node, values: values, context: context)
                nodes.append(NodeReport(node: node.name, opType: node.op.typeName, backend: assignment.backend,
                                        algorithm: assignment.algorithm, precision: assignment.precision, tolerance: tolerance,
                                        maxAbsoluteError: absolute, maxRelativeError: relative,
                                        stepRelativeError: step, stepTolerance: assignment.tolerance))
            }
            let maxAbsolute = nodes.map(\.maxAbsoluteError).max() ?? 0
            let maxRelative = nodes.map(\.maxRelativeError).max() ?? 0
            return BackendReport(backend: backend.name, tolerance: nodes.map(\.tolerance).max() ?? 0,
                                 fallbacks: plan.assignments.filter(\.isFallback).map(\.node),
                                 nodes: nodes, maxAbsoluteError: maxAbsolute, maxRelativeError: maxRelative,
                                 passed: nodes.allSatisfy(\.passed))
        }
    }

    /// The node's own relative error: the reference backend runs it alone on the
    /// inputs the checked backend gave it (`values`), and its outputs are compared
    /// with the backend's.
    private func stepError(_ node: Node, values: [String: Tensor], context: RunContext) throws -> Float {
        var inputs: [ValueInfo] = []
        var feeds: [String: Tensor] = [:]
        var initializers: [String: Tensor] = [:]
        for name in node.inputs where !name.isEmpty && feeds[name] == nil && initializers[name] == nil {
            if let constant = model.graph.initializers[name] {
                initializers[name] = constant
            } else if let value = values[name] {
                feeds[name] = value
                inputs.append(ValueInfo(name: name, dataType: value.dataType, dimensions: value.shape.map { .known($0) }))
            }
        }
        let actuals = node.outputs.filter { !$0.isEmpty }.compactMap { name in values[name].map { (name, $0) } }
        let infos = actuals.map { ValueInfo(name: $0.0, dataType: $0.1.dataType, dimensions: $0.1.shape.map { .known($0) }) }
        let graph = Graph(name: node.name, inputs: inputs, outputs: infos, nodes: [node], initializers: initializers)
        let expected = try ExecutionPlan(graph: graph, inputShapes: feeds.mapValues(\.shape), backends: [ReferenceBackend()])
            .run(feeds, context: context)
        var relative: Float = 0
        for (name, actual) in actuals {
            guard let reference = expected[name] else { continue }
            relative = Swift.max(relative, Self.errors(actual, reference).relative)
        }
        return relative
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
