import Foundation

/// A model loaded from a file, ready to run.
///
/// Load it once and share it: `Model` is immutable and `Sendable`, and
/// ``predict(_:)`` may be called from several threads at once. The execution
/// plan for the model's declared input shapes is built at load time; plans for
/// other batch sizes are built on first use and kept.
public final class Model: Sendable {
    /// The file the model was loaded from.
    public let path: String
    /// The model's computation graph.
    public let graph: Graph
    /// Backends and threads.
    public let configuration: ModelConfiguration
    private let plans: PlanCache

    /// Loads the model at `path` (`.onnx`).
    ///
    /// - Throws: `FoveaError` if the file is missing, corrupt or uses an
    ///   operator Fovea does not run, or the configuration names an unknown backend.
    public convenience init(contentsOf path: String, configuration: ModelConfiguration = ModelConfiguration()) throws {
        try self.init(graph: try ModelFile.loadGraph(contentsOf: path), path: path, configuration: configuration)
    }

    /// Wraps an already-built graph.
    public init(graph: Graph, path: String = "", configuration: ModelConfiguration = ModelConfiguration()) throws {
        self.path = path
        self.graph = graph
        self.configuration = configuration
        self.plans = PlanCache(graph: graph, backends: try configuration.resolvedBackends())
        try FoveaError.at(.init(file: path.isEmpty ? nil : path)) {
            try graph.validateStructure()
            // Build the default plan now so shape errors surface at load time.
            if graph.inputs.allSatisfy({ $0.knownShape != nil }) {
                _ = try plans.plan(for: [:])
            }
        }
    }

    /// The first graph input: for an image classifier, the image.
    public var primaryInput: ValueInfo? { graph.inputs.first }

    /// Runs the model on `inputs` (one tensor per graph input, by name) and
    /// returns every graph output by name. The input shapes select (or build)
    /// the execution plan, so any batch size the model allows works.
    public func predict(_ inputs: [String: Tensor]) throws -> [String: Tensor] {
        let shapes = inputs.mapValues(\.shape)
        return try plans.plan(for: shapes).run(inputs, context: configuration.runContext)
    }

    /// The execution plan for the given input shapes (the declared ones when empty).
    public func plan(inputShapes: [String: [Int]] = [:]) throws -> ExecutionPlan {
        try plans.plan(for: inputShapes)
    }
}

/// Execution plans by input shapes, built once each.
private final class PlanCache: @unchecked Sendable {
    // @unchecked: every access to `plans` holds `lock`.
    private let graph: Graph
    private let backends: [any Backend]
    private let lock = NSLock()
    private var plans: [[String: [Int]]: ExecutionPlan] = [:]

    init(graph: Graph, backends: [any Backend]) {
        self.graph = graph
        self.backends = backends
    }

    func plan(for shapes: [String: [Int]]) throws -> ExecutionPlan {
        // Normalize: shapes equal to the declared ones share the default plan.
        let key = shapes.filter { name, shape in
            graph.inputs.first(where: { $0.name == name })?.knownShape != shape
        }
        if let plan = lock.withLock({ plans[key] }) { return plan }
        let plan = try ExecutionPlan(graph: graph, inputShapes: key, backends: backends)
        lock.withLock { plans[key] = plan }
        return plan
    }
}
