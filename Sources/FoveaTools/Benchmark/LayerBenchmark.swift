@_spi(Internals) import Fovea
import FoveaCore

/// Microbenchmarks of a model's layers, one backend at a time: what
/// `fovea bench --layers` reports.
///
/// The graph's nodes are grouped into distinct **layers**: nodes with the
/// same operator and attributes, the same input, output and weight shapes are
/// one layer (SqueezeNet's eight Fire modules share several). Each layer is
/// run alone, as a one-node graph with its weights copied, on every given
/// backend that supports it (`Backend.supports(_:)`), planned for that backend only.
/// Each result has the median time of the step, the algorithm the backend
/// chose, GFLOP/s (two per multiply-add, Conv, Gemm and MatMul only) and that
/// as a percentage of the machine's measured ``FMAPeak`` times the thread count.
/// GFLOP/s always count the direct algorithm's multiply-adds (effective
/// GFLOP/s), so a step that does fewer, such as Winograd, can pass 100%.
/// Every result also has GB/s: the bytes of the layer's inputs (weights
/// included) and outputs over the time, and that as a percentage of the
/// machine's measured ``MemoryBandwidth`` on the same threads: the yardstick
/// of memory-bound layers (depthwise convolutions, pooling, elementwise).
/// A layer run alone finds its data in cache, so it can pass 100% too.
///
/// ```swift
/// let model = try Model(contentsOfFile: "squeezenet1.1.onnx")
/// let benchmark = try LayerBenchmark(model: model)
/// let result = try benchmark.run(backends: BackendRegistry.standard.backends, threads: 1, runs: 20)
/// for layer in result.layers { print(layer.op, layer.shape, layer.backends.map(\.milliseconds)) }
/// ```
///
/// View-only operators (Flatten, Reshape, Squeeze, Unsqueeze, Identity,
/// Dropout) are left out: they run nothing. Inputs are seeded random values.
public struct LayerBenchmark: Sendable {
    /// One distinct layer: a representative node with its types and weights,
    /// and every node of the graph that is the same layer.
    public struct Layer: Sendable {
        /// The first node of the graph that is this layer.
        public let node: Node
        /// The names of every node that is this layer, in graph order.
        public internal(set) var nodeNames: [String]
        /// Input types in node input order (`nil` for absent optional inputs).
        public let inputTypes: [TensorType?]
        /// One per node output (an unnamed optional output has an empty placeholder).
        public let outputTypes: [TensorType]
        /// The representative node's constant inputs (weights, biases), by input index.
        public let constantInputs: [Int: Tensor]
        /// Multiply-adds of one run of the layer (0 for operators other than Conv, Gemm and MatMul).
        public let multiplyAccumulates: Int
        /// Bytes of every distinct input (weights included) and output: what the layer must move at least.
        public let bytesMoved: Int

        /// How many nodes of the graph are this layer.
        public var count: Int { nodeNames.count }

        /// The operator with its main attributes: `Conv 3×3/2 +relu`, `MaxPool 3×3/2`, `Concat`.
        public var summary: String { LayerBenchmark.summary(of: node.op, input: inputTypes.first ?? nil) }

        /// The run-time inputs' shapes and the outputs': `1×64×55×55 → 1×16×55×55`.
        public var shapeDescription: String {
            let inputs = node.inputs.indices.compactMap { index -> String? in
                guard constantInputs[index] == nil, let type = inputTypes[index] else { return nil }
                return type.shape.shapeDescription
            }
            let outputs = zip(node.outputs, outputTypes).filter { !$0.0.isEmpty }.map { $0.1.shape.shapeDescription }
            return inputs.joined(separator: ", ") + " → " + outputs.joined(separator: ", ")
        }

        /// What a backend sees when it decides whether it can run the layer.
        public var context: NodeContext {
            NodeContext(node: node, inputTypes: inputTypes, outputTypes: outputTypes, constantInputs: constantInputs)
        }

        /// Same operator and attributes, same types, and the same inputs constant.
        func isSameLayer(as other: Node, inputTypes: [TensorType?], outputTypes: [TensorType], constantIndices: Set<Int>) -> Bool {
            node.op == other.op && self.inputTypes == inputTypes && self.outputTypes == outputTypes
                && Set(constantInputs.keys) == constantIndices && node.outputs.map(\.isEmpty) == other.outputs.map(\.isEmpty)
        }
    }

    /// One backend's numbers for one layer.
    public struct BackendResult: Sendable, Codable, Equatable {
        /// The backend's name.
        public var backend: String
        /// The algorithm the backend's step chose, such as `im2col+gemm 8x32`.
        public var algorithm: String
        /// Median time of the step over the measured runs, in milliseconds.
        public var milliseconds: Double
        /// `2 × multiply-adds / time`, in GFLOP/s (0 when the layer has no multiply-adds).
        public var gflops: Double
        /// ``gflops`` as a percentage of the measured peak × threads (0 when the layer has no multiply-adds).
        public var percentOfPeak: Double
        /// ``LayerResult/bytes`` over the time, in GB/s.
        public var gigabytesPerSecond: Double
        /// ``gigabytesPerSecond`` as a percentage of the measured bandwidth on the run's threads.
        public var percentOfBandwidth: Double

        /// Creates one backend's numbers (the benchmark does this; reports may too).
        public init(backend: String, algorithm: String, milliseconds: Double, gflops: Double, percentOfPeak: Double,
                    gigabytesPerSecond: Double = 0, percentOfBandwidth: Double = 0) {
            self.backend = backend
            self.algorithm = algorithm
            self.milliseconds = milliseconds
            self.gflops = gflops
            self.percentOfPeak = percentOfPeak
            self.gigabytesPerSecond = gigabytesPerSecond
            self.percentOfBandwidth = percentOfBandwidth
        }

        enum CodingKeys: String, CodingKey {
            case backend, algorithm, gflops
            case milliseconds = "ms"
            case percentOfPeak = "peak_percent"
            case gigabytesPerSecond = "gb_per_s"
            case percentOfBandwidth = "bandwidth_percent"
        }
    }

    /// One layer's numbers on every backend that runs it.
    public struct LayerResult: Sendable, Codable, Equatable {
        /// 1-based position among the distinct layers, in graph order.
        public var index: Int
        /// ``Layer/summary``: the operator with its main attributes.
        public var op: String
        /// The ONNX operator type, such as `Conv`.
        public var opType: String
        /// ``Layer/shapeDescription``: run-time input shapes → output shapes.
        public var shape: String
        /// How many nodes of the graph are this layer.
        public var count: Int
        /// Their names, in graph order.
        public var nodes: [String]
        /// Multiply-adds of one run of the layer.
        public var multiplyAccumulates: Int
        /// ``Layer/bytesMoved``.
        public var bytes: Int
        /// In the order the backends were given; backends that cannot run the layer are absent.
        public var backends: [BackendResult]

        /// Creates one layer's numbers (the benchmark does this; reports may too).
        public init(index: Int, op: String, opType: String, shape: String, count: Int, nodes: [String],
                    multiplyAccumulates: Int, bytes: Int = 0, backends: [BackendResult]) {
            self.index = index
            self.op = op
            self.opType = opType
            self.shape = shape
            self.count = count
            self.nodes = nodes
            self.multiplyAccumulates = multiplyAccumulates
            self.bytes = bytes
            self.backends = backends
        }

        enum CodingKeys: String, CodingKey {
            case index, op, shape, count, nodes, backends, bytes
            case opType = "op_type"
            case multiplyAccumulates = "macs"
        }
    }

    /// A run's numbers with the machine they were measured on.
    public struct Result: Sendable, Codable, Equatable {
        /// The processor the numbers were measured on.
        public var cpu: CPUDescription
        /// The measured single-thread peak.
        public var peak: FMAPeak
        /// The measured memory bandwidth on ``threads`` threads.
        public var bandwidth: MemoryBandwidth
        /// Threads each step ran with.
        public var threads: Int
        /// Measured runs per layer and backend.
        public var runs: Int
        /// Unmeasured runs before them.
        public var warmup: Int
        /// Every distinct layer, in graph order.
        public var layers: [LayerResult]

        /// Creates a result; a `nil` bandwidth records 0 GB/s.
        public init(cpu: CPUDescription, peak: FMAPeak, bandwidth: MemoryBandwidth? = nil, threads: Int, runs: Int,
                    warmup: Int, layers: [LayerResult]) {
            self.cpu = cpu
            self.peak = peak
            self.bandwidth = bandwidth ?? MemoryBandwidth(threads: threads, gigabytesPerSecond: 0)
            self.threads = threads
            self.runs = runs
            self.warmup = warmup
            self.layers = layers
        }

        /// The peak the percentages are relative to: one thread's × ``threads``.
        public var peakGFLOPS: Double { peak.gflopsPerCore * Double(threads) }

        /// The number of (layer, backend) measurements.
        public var measurementCount: Int { layers.reduce(0) { $0 + $1.backends.count } }

        enum CodingKeys: String, CodingKey {
            case cpu, peak, bandwidth, threads, runs, warmup, layers
        }
    }

    /// The distinct layers, in the order of their first node in the graph.
    public let layers: [Layer]

    /// The distinct layers of `graph` with the value types of a plan
    /// (`ExecutionPlan.valueTypes`, or `Graph.inferTypes(inputShapes:)`).
    public init(graph: Graph, valueTypes: [String: TensorType]) {
        var layers: [Layer] = []
        for node in graph.nodes where !node.op.isView {
            let inputTypes = node.inputs.map { $0.isEmpty ? nil : valueTypes[$0] }
            let outputTypes = node.outputs.map { valueTypes[$0] ?? MemoryPlan.unnamedOutputType }
            var constants: [Int: Tensor] = [:]
            for (index, input) in node.inputs.enumerated() where !input.isEmpty {
                if let value = graph.initializers[input] { constants[index] = value }
            }
            let constantIndices = Set(constants.keys)
            if let existing = layers.firstIndex(where: {
                $0.isSameLayer(as: node, inputTypes: inputTypes, outputTypes: outputTypes, constantIndices: constantIndices)
            }) {
                layers[existing].nodeNames.append(node.name)
                continue
            }
            var bytes = 0
            for name in Set(node.inputs.filter { !$0.isEmpty }) + node.outputs.filter({ !$0.isEmpty }) {
                if let type = valueTypes[name] { bytes += type.shape.elementCount * type.dataType.byteSize }
            }
            layers.append(Layer(node: node, nodeNames: [node.name], inputTypes: inputTypes, outputTypes: outputTypes,
                                constantInputs: constants,
                                multiplyAccumulates: Graph.multiplyAccumulates(of: node, types: valueTypes),
                                bytesMoved: bytes))
        }
        self.layers = layers
    }

    /// The distinct layers of an execution plan's graph, with its planned shapes.
    public init(plan: ExecutionPlan) {
        self.init(graph: plan.graph, valueTypes: plan.valueTypes)
    }

    /// The distinct layers of `model`'s graph (after its graph passes: with
    /// BatchNormalization folded and activations fused, as it runs).
    ///
    /// - Parameters:
    ///   - model: the loaded model.
    ///   - inputShapes: shapes for graph inputs; an input not listed takes its
    ///     declared shape, with 1 for each symbolic dimension.
    /// - Throws: `FoveaError` if the shapes do not fit the graph.
    public init(model: Model, inputShapes: [String: [Int]] = [:]) throws {
        var shapes = inputShapes
        for input in model.graph.inputs where shapes[input.name] == nil && input.knownShape == nil {
            if let dimensions = input.dimensions {
                shapes[input.name] = dimensions.map { if case .known(let n) = $0 { n } else { 1 } }
            }
        }
        self.init(graph: model.graph, valueTypes: try model.graph.inferTypes(inputShapes: shapes))
    }

    /// The backends named (every registered one, in preference order, when `names` is `nil`).
    ///
    /// - Throws: `.invalidArgument` for an empty list, an unknown name (the
    ///   message lists the known ones) or a name given twice.
    public static func backends(named names: [String]?, registry: BackendRegistry = .standard) throws -> [any Backend] {
        guard let names else { return registry.backends }
        guard !names.isEmpty else { throw FoveaError(.invalidArgument, "the backend list is empty") }
        if let repeated = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) }) {
            throw FoveaError(.invalidArgument, "backend '\(repeated.element)' is listed twice")
        }
        return try registry.backends(named: names)
    }

    /// Measures every layer on every backend of `backends` that supports it.
    ///
    /// - Parameters:
    ///   - backends: the backends to compare, in the order results are listed.
    ///   - threads: intra-op threads of every run (and the plans' `maxThreads`).
    ///   - runs: measured runs per layer and backend; the median is reported.
    ///   - warmup: unmeasured runs first (packing caches, waking threads).
    ///   - peak: the single-thread peak to compare with; by default the one
    ///     measured once per process (``FMAPeak/measured``).
    ///   - bandwidth: the memory bandwidth to compare with; by default the one
    ///     measured once per process on `threads` threads (``MemoryBandwidth/measured(threads:)``).
    /// - Throws: `.invalidArgument` if `backends` is empty or names one
    ///   backend twice, `runs` or `threads` is below 1 or `warmup` below 0;
    ///   a backend's error preparing or running a layer, located at the layer's node.
    ///   - precision: the precision each layer's plan is built in (the algorithm names a bf16 kernel;
    ///     the share of peak stays against the float32 FMA peak).
    public func run(backends: [any Backend], threads: Int = RunContext.defaultThreadCount, runs: Int = 20,
                    warmup: Int = 3, peak: FMAPeak = .measured, bandwidth: MemoryBandwidth? = nil,
                    precision: Precision = .f32) throws -> Result {
        guard runs >= 1 else { throw FoveaError(.invalidArgument, "runs must be at least 1 (got \(runs))") }
        guard warmup >= 0 else { throw FoveaError(.invalidArgument, "warmup must be at least 0 (got \(warmup))") }
        guard threads >= 1 else { throw FoveaError(.invalidArgument, "threads must be at least 1 (got \(threads))") }
        guard !backends.isEmpty else { throw FoveaError(.invalidArgument, "the backend list is empty") }
        let names = backends.map(\.name)
        if let repeated = names.enumerated().first(where: { names[..<$0.offset].contains($0.element) }) {
            throw FoveaError(.invalidArgument, "backend '\(repeated.element)' is listed twice")
        }
        let peakGFLOPS = peak.gflopsPerCore * Double(threads)
        let bandwidth = bandwidth ?? MemoryBandwidth.measured(threads: threads)
        var results: [LayerResult] = []
        for (index, layer) in layers.enumerated() {
            let context = layer.context
            var measured: [BackendResult] = []
            for backend in backends where backend.supports(context) {
                let (algorithm, milliseconds) = try measure(layer, on: backend, threads: threads, runs: runs, warmup: warmup,
                                                            precision: precision)
                let gflops = layer.multiplyAccumulates > 0 && milliseconds > 0
                    ? 2 * Double(layer.multiplyAccumulates) / (milliseconds * 1e6) : 0
                let gigabytes = milliseconds > 0 ? Double(layer.bytesMoved) / (milliseconds * 1e6) : 0
                measured.append(BackendResult(backend: backend.name, algorithm: algorithm, milliseconds: milliseconds,
                                              gflops: gflops, percentOfPeak: peakGFLOPS > 0 ? 100 * gflops / peakGFLOPS : 0,
                                              gigabytesPerSecond: gigabytes,
                                              percentOfBandwidth: bandwidth.gigabytesPerSecond > 0
                                                  ? 100 * gigabytes / bandwidth.gigabytesPerSecond : 0))
            }
            results.append(LayerResult(index: index + 1, op: layer.summary, opType: layer.node.op.typeName,
                                       shape: layer.shapeDescription, count: layer.count, nodes: layer.nodeNames,
                                       multiplyAccumulates: layer.multiplyAccumulates, bytes: layer.bytesMoved,
                                       backends: measured))
        }
        return Result(cpu: .current, peak: peak, bandwidth: bandwidth, threads: threads, runs: runs, warmup: warmup,
                      layers: results)
    }

    /// The layer as a one-node graph: its run-time inputs become graph inputs, its weights initializers.
    public static func graph(of layer: Layer) -> Graph {
        let node = layer.node
        var inputs: [ValueInfo] = []
        var initializers: [String: Tensor] = [:]
        for (index, name) in node.inputs.enumerated() where !name.isEmpty {
            if let constant = layer.constantInputs[index] {
                initializers[name] = constant
            } else if let type = layer.inputTypes[index], !inputs.contains(where: { $0.name == name }) {
                inputs.append(ValueInfo(name: name, dataType: type.dataType, dimensions: type.shape.map { .known($0) }))
            }
        }
        let outputs = zip(node.outputs, layer.outputTypes).filter { !$0.0.isEmpty }.map { name, type in
            ValueInfo(name: name, dataType: type.dataType, dimensions: type.shape.map { .known($0) })
        }
        return Graph(name: node.name, inputs: inputs, outputs: outputs, nodes: [node], initializers: initializers)
    }

    /// Plans `layer` for `backend` alone and returns its algorithm and median step time in ms.
    private func measure(_ layer: Layer, on backend: any Backend, threads: Int, runs: Int,
                         warmup: Int, precision: Precision) throws -> (algorithm: String, milliseconds: Double) {
        let graph = Self.graph(of: layer)
        let plan = try ExecutionPlan(graph: graph, backends: [backend], maxThreads: threads, precision: precision)
        guard let assignment = plan.assignments.first, assignment.backend == backend.name else {
            throw FoveaError(.unsupported, "backend '\(backend.name)' said it supports this node but the plan gave it to '\(plan.assignments.first?.backend ?? "none")'",
                             location: graph.location(of: layer.node))
        }
        let feeds = Self.randomFeeds(for: graph, seed: 0)
        let context = RunContext(threads: threads)
        for _ in 0..<warmup { _ = try plan.run(feeds, context: context) }
        var times: [Double] = []
        times.reserveCapacity(runs)
        for _ in 0..<runs {
            var seconds = 0.0
            _ = try plan.run(feeds, context: context) { _, elapsed in seconds += elapsed }
            times.append(seconds * 1e3)
        }
        return (assignment.algorithm, LatencyBenchmark.percentile(times, 0.5))
    }

    /// Seeded standard-normal floats for float inputs; zeros (false) for the others.
    static func randomFeeds(for graph: Graph, seed: UInt64) -> [String: Tensor] {
        var generator = SeededGenerator(seed: seed)
        var feeds: [String: Tensor] = [:]
        for input in graph.inputs {
            let shape = input.knownShape ?? []
            let count = shape.elementCount
            let storage: Tensor.Storage
            switch input.dataType {
            case .float32: storage = .float32((0..<count).map { _ in generator.nextGaussian() })
            case .int64: storage = .int64([Int64](repeating: 0, count: count))
            default: storage = .bool([Bool](repeating: false, count: count))
            }
            feeds[input.name] = try? Tensor(shape: shape, storage: storage)
        }
        return feeds
    }

    /// `Conv 3×3/2 +relu`, `Conv 3×3 dw` (depthwise), `Conv 3×3 g4`, `MaxPool 3×3/2`, or the op type.
    static func summary(of op: Op, input: TensorType?) -> String {
        func window(_ kernel: [Int], _ strides: [Int], _ dilations: [Int]) -> String {
            var text = kernel.shapeDescription
            if strides.contains(where: { $0 != 1 }) {
                text += "/" + (Set(strides).count == 1 ? String(strides[0]) : strides.shapeDescription)
            }
            if dilations.contains(where: { $0 != 1 }) {
                text += " d" + (Set(dilations).count == 1 ? String(dilations[0]) : dilations.shapeDescription)
            }
            return text
        }
        switch op {
        case .conv(let conv):
            var text = "Conv " + window(conv.kernelShape, conv.strides, conv.dilations)
            if conv.group > 1 {
                let channels = input.flatMap { $0.shape.count > 1 ? $0.shape[1] : nil }
                text += conv.group == channels ? " dw" : " g\(conv.group)"
            }
            return text + conv.fusionSuffix
        case .maxPool(let pool):
            return "MaxPool " + window(pool.kernelShape, pool.strides, pool.dilations)
        case .averagePool(let pool):
            return "AveragePool " + window(pool.kernelShape, pool.strides, pool.dilations)
        case .gemm(let gemm):
            let flags = [gemm.transA ? "Aᵀ" : nil, gemm.transB ? "Bᵀ" : nil].compactMap { $0 }
            return flags.isEmpty ? "Gemm" : "Gemm " + flags.joined(separator: " ")
        case .concat(let axis):
            return "Concat axis \(axis)"
        default:
            return op.typeName
        }
    }
}
