import Foundation
import FoveaCore
import FoveaCoreML

/// A model loaded from a file, ready to run.
///
/// Load it once and share it: `Model` is immutable and `Sendable`, and
/// ``prediction(from:)`` may be called from several threads at once. The execution
/// plan for the model's declared input shapes is built at load time; plans for
/// other batch sizes are built on first use and kept.
public final class Model: Sendable {
    /// The file the model was loaded from.
    public let path: String
    /// The model's computation graph, after the configured graph passes.
    @_spi(Internals) public let graph: Graph
    /// Backends and threads.
    public let configuration: ModelConfiguration
    /// Inputs, outputs, the image input's preprocessing, class labels and metadata.
    public let modelDescription: ModelDescription
    private let plans: PlanCache

    /// Loads the model at `path` (`.onnx`) with its description: what the graph
    /// says, then the `metadata_props` entry `fovea`, then the sidecar file
    /// `<name>.fovea.json` next to the model if there is one (see <doc:SidecarFile>).
    ///
    /// - Parameters:
    ///   - path: the model file.
    ///   - configuration: backends, threads and limits.
    ///   - description: use this description instead (no sidecar is read).
    /// - Throws: `FoveaError` if the file is missing, corrupt or uses an
    ///   operator Fovea does not run, the sidecar is invalid, or the
    ///   configuration names an unknown backend.
    public convenience init(contentsOfFile path: String, configuration: ModelConfiguration = ModelConfiguration(),
                            description: ModelDescription? = nil) throws {
        if try ModelFile.format(ofFileAt: path) == .coreML {
            // A Core ML model describes its own image input, labels and outputs.
            let coreML = try CoreMLLoader.load(contentsOf: path)
            let resolved = try description ?? FoveaError.at(.init(file: path)) { try ModelDescription(coreML: coreML) }
            try self.init(graph: coreML.graph, path: path, configuration: configuration, description: resolved)
            return
        }
        let graph = try ModelFile.loadGraph(contentsOf: path)
        let resolved = try description ?? Model.describe(graph, modelPath: path)
        try self.init(graph: graph, path: path, configuration: configuration, description: resolved)
    }

    /// Loads the model at a file URL; see the path form, ``init(contentsOfFile:configuration:description:)``.
    ///
    /// - Throws: `.invalidArgument` for a URL that is not a file URL (Fovea
    ///   reads no network resources), else as the `String` form.
    public convenience init(contentsOf url: URL, configuration: ModelConfiguration = ModelConfiguration(),
                            description: ModelDescription? = nil) throws {
        guard url.isFileURL else {
            throw FoveaError(.invalidArgument, "only file URLs can be read, not '\(url.absoluteString)'")
        }
        try self.init(contentsOfFile: url.path, configuration: configuration, description: description)
    }

    /// Renamed ``init(contentsOfFile:configuration:description:)`` (Foundation's spelling
    /// for a path); unavailable so that the compiler names the new spelling. Removed at 1.0.
    @available(*, unavailable, renamed: "init(contentsOfFile:configuration:description:)")
    public convenience init(contentsOf path: String, configuration: ModelConfiguration = ModelConfiguration(),
                            description: ModelDescription? = nil) throws {
        try self.init(contentsOfFile: path, configuration: configuration, description: description)
    }

    /// Wraps an already-built graph; `description` defaults to what the graph says.
    ///
    /// The model keeps (in ``graph``) and runs the graph as rewritten by the
    /// passes ``ModelConfiguration/optimizations`` turns on (by default:
    /// Identity and Dropout removed, BatchNormalization folded and activations
    /// fused into the convolutions before them). Inputs and outputs are unchanged.
    @_spi(Internals) public convenience init(graph: Graph, path: String = "", configuration: ModelConfiguration = ModelConfiguration(),
                            description: ModelDescription? = nil) throws {
        if let threads = configuration.threads, threads < 1 {
            throw FoveaError(.invalidArgument, "threads is \(threads); give at least 1, or nil for every core")
        }
        let optimized = try FoveaError.at(.init(file: path.isEmpty ? nil : path)) {
            try GraphOptimizer(configuration.optimizations).optimize(graph)
        }
        let plans = PlanCache(graph: optimized, backends: try configuration.resolvedBackends(),
                              memoryOptions: configuration.optimizations.memoryOptions,
                              maxThreads: configuration.maxThreads, memoryLimit: configuration.memoryLimit,
                              precision: configuration.precision)
        try self.init(graph: optimized, path: path, configuration: configuration,
                      description: description ?? ModelDescription(graph: graph), plans: plans)
    }

    private init(graph: Graph, path: String, configuration: ModelConfiguration, description: ModelDescription, plans: PlanCache) throws {
        self.path = path
        self.graph = graph
        self.configuration = configuration
        self.modelDescription = description
        self.plans = plans
        // The graph was validated by GraphOptimizer.optimize (every path here goes through it).
        try FoveaError.at(.init(file: path.isEmpty ? nil : path)) {
            // Build the default plan now so shape errors surface at load time.
            if graph.inputs.allSatisfy({ $0.knownShape != nil }) {
                _ = try plans.plan(for: [:])
            }
            try description.validate()
            try checkLabels()
        }
    }

    /// The same model (same graph, same prepared plans) with its description
    /// changed by `update`: labels, normalization, crop fraction and so on set in code.
    ///
    /// ```swift
    /// let model = try Model(contentsOfFile: "squeezenet1.1.onnx").describing {
    ///     $0.classLabels = try ClassLabels(contentsOfFile: "labels1000.txt")
    ///     $0.imageInput?.cropFraction = 0.875
    /// }
    /// ```
    public func describing(_ update: (inout ModelDescription) throws -> Void) throws -> Model {
        var description = modelDescription
        try update(&description)
        return try Model(graph: graph, path: path, configuration: configuration, description: description, plans: plans)
    }

    /// The graph's description, then `metadata_props["fovea"]`, then the sidecar file.
    static func describe(_ graph: Graph, modelPath: String) throws -> ModelDescription {
        var description = ModelDescription(graph: graph)
        let directory = (modelPath as NSString).deletingLastPathComponent
        if let embedded = graph.metadata.properties["fovea"] {
            try FoveaError.at(.init(file: modelPath)) {
                try ModelSidecar(json: Data(embedded.utf8), baseDirectory: directory).apply(to: &description)
            }
        }
        let sidecarPath = ModelSidecar.path(forModelAt: modelPath)
        if FileManager.default.fileExists(atPath: sidecarPath) {
            try FoveaError.at(.init(file: sidecarPath)) {
                try ModelSidecar(contentsOf: sidecarPath).apply(to: &description)
            }
        }
        return description
    }

    /// The number of classes in the scores output, when its shape is known
    /// (from the plan built at load time for the declared input shapes).
    public var classCount: Int? {
        guard let name = modelDescription.scoresOutputName else { return nil }
        guard graph.inputs.allSatisfy({ $0.knownShape != nil }) else { return nil }
        return (try? plans.plan(for: [:]))?.valueTypes[name]?.shape.last
    }

    /// Whether the model names its classes (``ModelDescription/classLabels`` is
    /// set): a Core ML classifier always does; an ONNX model does when its
    /// sidecar or code gave labels.
    public var hasClassLabels: Bool { modelDescription.classLabels != nil }

    /// A one-line warning when the model classifies images but has no class
    /// labels, so that its observations are named by class index (`class 387`)
    /// instead of by name; `nil` when it has labels or is not an image classifier
    /// (no image input). Show it to users: the results are right, but read as numbers.
    ///
    /// ```swift
    /// if let warning = model.classLabelsWarning { logger.warning("\(warning)") }
    /// ```
    public var classLabelsWarning: String? {
        guard !hasClassLabels, modelDescription.imageInput != nil, modelDescription.scoresOutputName != nil else { return nil }
        let classes = classCount
        var text = path.isEmpty ? "" : SafeText.escaped(path) + ": "
        text += "the model has no class labels" + (classes.map { " for its \($0) classes" } ?? "")
        text += "; observations are named by index (\"class 0\", \"class 1\", ...)."
        text += " Give \"labels\" in its sidecar, or set them in code: describing { $0.classLabels = ... }"
        if classes == ClassLabels.imageNet1kClassCount { text += " (ImageNet's 1000 classes: ClassLabels.imageNet1k)" }
        return text
    }

    private func checkLabels() throws {
        guard let labels = modelDescription.classLabels, let classes = classCount else { return }
        guard labels.count == classes else {
            // Labels come from a file, a sidecar, a Core ML model or code: the message must fit each.
            throw FoveaError(.invalidArgument, "the class labels name \(labels.count) classes but the model has \(classes); give one label per class")
        }
    }

    /// The first graph input: for an image classifier, the image.
    public var primaryInput: ValueInfo? { graph.inputs.first }

    /// Runs the model on `inputs` (one tensor per graph input, by name) and
    /// returns every graph output by name. The input shapes select (or build)
    /// the execution plan, so any batch size the model allows works.
    @_spi(Internals) public func predict(_ inputs: [String: Tensor]) throws -> [String: Tensor] {
        try predict(inputs, threads: nil)
    }

    /// ``predict(_:)`` on `threads` threads (at most the configured ones), or on
    /// the configured ones when `nil`: the pipelined classifier runs on fewer
    /// while its decoding thread is busy.
    func predict(_ inputs: [String: Tensor], threads: Int?) throws -> [String: Tensor] {
        let shapes = inputs.mapValues(\.shape)
        var context = configuration.runContext
        if let threads, threads < context.threads { context = RunContext(threads: threads) }
        return try plans.plan(for: shapes).run(inputs, context: context)
    }

    /// The execution plan for the given input shapes (the declared ones when empty).
    @_spi(Internals) public func plan(inputShapes: [String: [Int]] = [:]) throws -> ExecutionPlan {
        try plans.plan(for: inputShapes)
    }
}

/// Execution plans by input shapes, built once each.
private final class PlanCache: @unchecked Sendable {
    // @unchecked: every access to `plans` holds `lock`.
    private let graph: Graph
    private let backends: [any Backend]
    private let memoryOptions: MemoryPlan.Options
    private let maxThreads: Int
    private let memoryLimit: MemoryLimit
    private let precision: Precision
    private let lock = NSLock()
    private var plans: [[String: [Int]]: ExecutionPlan] = [:]

    init(graph: Graph, backends: [any Backend], memoryOptions: MemoryPlan.Options, maxThreads: Int, memoryLimit: MemoryLimit,
         precision: Precision) {
        self.graph = graph
        self.backends = backends
        self.memoryOptions = memoryOptions
        self.maxThreads = maxThreads
        self.memoryLimit = memoryLimit
        self.precision = precision
    }

    func plan(for shapes: [String: [Int]]) throws -> ExecutionPlan {
        // Normalize: shapes equal to the declared ones share the default plan.
        let key = shapes.filter { name, shape in
            graph.inputs.first(where: { $0.name == name })?.knownShape != shape
        }
        if let plan = lock.withLock({ plans[key] }) { return plan }
        let plan = try ExecutionPlan(graph: graph, inputShapes: key, backends: backends,
                                     memoryOptions: memoryOptions, maxThreads: maxThreads, memoryLimit: memoryLimit,
                                     precision: precision)
        lock.withLock { plans[key] = plan }
        return plan
    }
}
