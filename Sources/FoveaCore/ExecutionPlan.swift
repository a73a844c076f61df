/// A graph made ready to run for fixed input shapes: validated, every value's
/// type inferred, every node assigned to a backend and prepared (weights packed)
/// once, and its memory planned (see ``MemoryPlan``). Run it many times; `run`
/// may be called from several threads at once.
///
/// The plan is shared and immutable, like tract's `SimplePlan`; each run checks
/// out its own arena (an ``ExecutionState``, tract's `SimpleState`) from a pool,
/// so N concurrent runs cost N × ``MemoryPlan/arenaBytes`` besides the plan.
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
    /// Where every value lives during a run.
    public let memory: MemoryPlan
    /// The most threads a run uses: workspaces are planned for this many, and
    /// a run that asks for more gets this many.
    public let maxThreads: Int
    /// The limit this plan was checked against (see ``MemoryLimit``).
    public let memoryLimit: MemoryLimit
    /// The precision the plan asked its backends for; each step's own is in ``assignments``.
    public let precision: Precision
    /// What one run needs: the arena, the constant block and the inputs.
    public var requiredBytes: Int { memory.arenaBytes + memory.constantBytes + inputBytes }
    /// The graph inputs' bytes for this plan's shapes.
    public let inputBytes: Int
    private let steps: [Step]
    private let pool: ArenaPool
    /// The plan with no memory reuse that ``runKeepingAllValues(_:context:)`` needs, made on first use.
    private let keepingPlan: KeepingPlan

    /// Where one node runs.
    public struct Assignment: Sendable, Equatable, Codable {
        /// The node's name in the graph.
        public var node: String
        /// The node's operator, ONNX-style (`Conv`, `Relu`, ...).
        public var opType: String
        /// The name of the backend that runs the node (`simd`, `kernels`, ...).
        public var backend: String
        /// The algorithm the backend chose (``PreparedStep/algorithm``).
        public var algorithm: String
        /// The node went to the reference backend because none of the
        /// requested backends can run it.
        public var isFallback: Bool
        /// The step's ``PreparedStep/tolerance``.
        public var tolerance: Float
        /// The arithmetic the step runs in (``PreparedStep/precision``).
        public var precision: Precision
    }

    private struct Step: Sendable {
        var node: Node
        var step: any PreparedStep
        var location: FoveaError.Location
    }

    /// - Parameters:
    ///   - inputShapes: concrete shapes for graph inputs whose declared shape
    ///     is symbolic, or to run a batch larger than declared.
    ///   - backends: the backends to use, in order of preference. Each node
    ///     goes to the first that supports it; the reference backend is always
    ///     added last and takes what no other backend takes.
    ///   - memoryOptions: the memory planner's switches (reuse, Concat elision).
    ///   - maxThreads: the most threads a run will use (workspaces are sized
    ///     for it); the machine's active cores when `nil`.
    ///   - memoryLimit: the most bytes one run may need (inputs, arena and
    ///     constants); checked from the shapes before anything is allocated.
    ///   - precision: the arithmetic backends may use (``NodeContext/precision``):
    ///     with ``Precision/bf16`` those that have bfloat16 kernels use them for
    ///     the nodes they choose, every other step runs in float32.
    /// - Throws: `FoveaError` if the graph is malformed, its shapes do not fit,
    ///   a backend fails to prepare a node, or (`.limitExceeded`) the plan needs
    ///   more memory than `memoryLimit`.
    public init(graph: Graph, inputShapes: [String: [Int]] = [:], backends: [any Backend] = [],
                memoryOptions: MemoryPlan.Options = MemoryPlan.Options(), maxThreads: Int? = nil,
                memoryLimit: MemoryLimit = .default, precision: Precision = .f32) throws {
        try graph.validateStructure()
        // Inputs are checked against the limit before anything is inferred from them.
        let inputBytes = try Self.checkInputs(graph: graph, inputShapes: inputShapes, limit: memoryLimit)
        // Shapes the graph computes from its input shapes become constants first.
        let (graph, types) = graph.hasComputedShapes
            ? try graph.foldingShapeComputations(inputShapes: inputShapes)
            : (graph, try graph.inferTypes(inputShapes: inputShapes))
        try Self.checkValues(graph: graph, types: types, inputBytes: inputBytes, limit: memoryLimit)
        self.graph = graph
        self.valueTypes = types
        self.maxThreads = Swift.max(1, maxThreads ?? RunContext.defaultThreadCount)
        self.memoryLimit = memoryLimit
        self.precision = precision
        self.inputBytes = inputBytes

        let referenceRequested = backends.contains { $0.name == ReferenceBackend.name }
        let candidates = backends.filter { $0.name != ReferenceBackend.name } + [ReferenceBackend()]

        var steps: [Step] = []
        var assignments: [Assignment] = []
        for node in graph.nodes {
            // An unnamed optional output has no type; give it an empty placeholder.
            let outputTypes = node.outputs.map { types[$0] ?? MemoryPlan.unnamedOutputType }
            var constants: [Int: Tensor] = [:]
            for (i, input) in node.inputs.enumerated() where !input.isEmpty {
                if let value = graph.initializers[input] { constants[i] = value }
            }
            let context = NodeContext(node: node,
                                      inputTypes: node.inputs.map { $0.isEmpty ? nil : types[$0] },
                                      outputTypes: outputTypes,
                                      constantInputs: constants,
                                      precision: precision)
            let location = graph.location(of: node)
            guard let backend = candidates.first(where: { $0.supports(context) }) else {
                throw FoveaError(.unsupported, "no backend can run this node", location: location)
            }
            let step = try FoveaError.at(location) { try backend.prepare(context) }
            steps.append(Step(node: node, step: step, location: location))
            assignments.append(Assignment(
                node: node.name, opType: node.op.typeName, backend: backend.name, algorithm: step.algorithm,
                isFallback: backend.name == ReferenceBackend.name && !referenceRequested && !backends.isEmpty,
                tolerance: step.tolerance, precision: step.precision))
        }
        self.steps = steps
        self.assignments = assignments
        let infos = steps.map { MemoryPlanner.StepInfo(node: $0.node, step: $0.step) }
        let memory = try MemoryPlanner.plan(graph: graph, types: types, steps: infos, options: memoryOptions,
                                            maxThreads: self.maxThreads)
        self.memory = memory
        // Before the constant block and any arena are allocated.
        try memoryLimit.check(Self.sum([memory.arenaBytes, memory.constantBytes, inputBytes]), for: "the execution plan",
                              detail: " (arena \(MemoryLimit.format(memory.arenaBytes)), constants \(MemoryLimit.format(memory.constantBytes)), inputs \(MemoryLimit.format(inputBytes)))")
        let constants = ConstantBlock(graph: graph, offsets: memory.constantOffsets, bytes: memory.constantBytes)
        self.pool = ArenaPool { ExecutionState(memory: memory, constants: constants) }
        var keeping = memoryOptions
        keeping.reuseMemory = false
        self.keepingPlan = KeepingPlan(graph: graph, types: types, steps: infos, options: keeping,
                                       maxThreads: self.maxThreads, constants: constants,
                                       limit: memoryLimit, otherBytes: memory.constantBytes + inputBytes,
                                       existing: memoryOptions.reuseMemory ? nil : (memory, pool))
    }

    /// The graph inputs' total bytes for `inputShapes` (else their declared
    /// shapes), checked against `limit` before shape inference.
    static func checkInputs(graph: Graph, inputShapes: [String: [Int]], limit: MemoryLimit) throws -> Int {
        var sizes: [Int?] = []
        for input in graph.inputs {
            guard let shape = inputShapes[input.name] ?? input.knownShape else { continue }
            let type = TensorType(input.dataType, shape)
            let bytes = MemoryLimit.bytes(of: type)
            try limit.check(bytes, for: "input '\(input.name)' (\(type))")
            sizes.append(bytes)
        }
        let total = sum(sizes)
        try limit.check(total, for: "the inputs together")
        return total ?? Int.max
    }

    /// Refuses, before any backend prepares anything, a plan whose inputs,
    /// initializers and largest intermediate value already exceed `limit`.
    static func checkValues(graph: Graph, types: [String: TensorType], inputBytes: Int, limit: MemoryLimit) throws {
        let constants = sum(graph.initializers.values.map { MemoryLimit.bytes(of: TensorType($0.dataType, $0.shape)) })
        try limit.check(constants, for: "the initializers (weights)")
        var largest: (bytes: Int, what: String, node: Node)?
        for node in graph.nodes {
            for output in node.outputs where !output.isEmpty {
                guard let type = types[output] else { continue }
                let what = "value '\(output)' (\(type))"
                guard let bytes = MemoryLimit.bytes(of: type) else {
                    try FoveaError.at(graph.location(of: node)) { try limit.check(nil, for: what) }
                    continue
                }
                if bytes > largest?.bytes ?? -1 { largest = (bytes, what, node) }
            }
        }
        guard let largest else { return }
        // Inputs and weights stay alive while the largest value is written.
        try FoveaError.at(graph.location(of: largest.node)) {
            try limit.check(largest.bytes, for: largest.what)
            try limit.check(sum([largest.bytes, inputBytes, constants]), for: "\(largest.what) with the inputs and weights")
        }
    }

    /// The sum, or `nil` when an entry is `nil` or the sum overflows.
    static func sum(_ values: [Int?]) -> Int? {
        var total = 0
        for value in values {
            guard let value else { return nil }
            let (result, overflow) = total.addingReportingOverflow(value)
            if overflow { return nil }
            total = result
        }
        return total
    }

    /// The plan's graph inputs with their concrete types, in declaration order.
    public var inputTypes: [(name: String, type: TensorType)] {
        graph.inputs.compactMap { input in valueTypes[input.name].map { (input.name, $0) } }
    }

    /// Runs the graph.
    ///
    /// - Parameters:
    ///   - feeds: a tensor for every graph input, by name, of the type this
    ///     plan was built for. They are read, never written.
    ///   - context: the thread count for this run (at most ``maxThreads`` are used).
    ///   - observer: called after each node with its index and its run time in
    ///     seconds (for profiles); `nil` to skip timing.
    /// - Returns: every graph output, by name, as tensors the caller owns.
    /// - Throws: `CancellationError` when the current task is cancelled: checked before each step.
    public func run(_ feeds: [String: Tensor], context: RunContext = RunContext(),
                    observer: ((_ node: Int, _ seconds: Double) -> Void)? = nil) throws -> [String: Tensor] {
        let ordered = try orderedFeeds(feeds)
        return try pool.withState { state in
            try execute(ordered, state: state, memory: memory, context: context, observer: observer) {
                var results: [String: Tensor] = [:]
                for output in graph.outputs {
                    results[output.name] = copyOut(output.name, memory: memory, state: state, feeds: $0)
                }
                return results
            }
        }
    }

    /// Runs the graph with no memory reuse and returns every value it computed
    /// (graph inputs, initializers and every node output), for comparing
    /// backends node by node.
    public func runKeepingAllValues(_ feeds: [String: Tensor], context: RunContext = RunContext()) throws -> [String: Tensor] {
        let ordered = try orderedFeeds(feeds)
        let (memory, pool) = try keepingPlan.get()
        return try pool.withState { state in
            try execute(ordered, state: state, memory: memory, context: context, observer: nil) { feedPointers in
                var values = graph.initializers
                for (name, _) in memory.placements where values[name] == nil {
                    values[name] = copyOut(name, memory: memory, state: state, feeds: feedPointers)
                }
                return values
            }
        }
    }

    /// The feeds in graph input order, checked against the planned types.
    private func orderedFeeds(_ feeds: [String: Tensor]) throws -> [Tensor] {
        for name in feeds.keys where !graph.inputs.contains(where: { $0.name == name }) {
            throw FoveaError(.invalidArgument, "'\(name)' is not an input of the model (inputs: \(graph.inputs.map(\.name).joined(separator: ", ")))")
        }
        return try graph.inputs.map { input in
            guard let tensor = feeds[input.name] else {
                throw FoveaError(.invalidArgument, "missing input '\(input.name)'")
            }
            let expected = valueTypes[input.name]
            guard expected == TensorType(tensor.dataType, tensor.shape) else {
                throw FoveaError(.shapeMismatch, "input '\(input.name)' is \(TensorType(tensor.dataType, tensor.shape)); this plan was built for \(expected.map(String.init(describing:)) ?? "?")")
            }
            return tensor
        }
    }

    /// Runs every step on `state`'s arena, with the feeds' elements pinned,
    /// then calls `collect` (still pinned) to copy the results out.
    private func execute<Result>(_ feeds: [Tensor], state: ExecutionState, memory: MemoryPlan, context: RunContext,
                                 observer: ((_ node: Int, _ seconds: Double) -> Void)?,
                                 collect: (UnsafeBufferPointer<UnsafeRawPointer>) throws -> Result) throws -> Result {
        let context = context.threads > maxThreads ? RunContext(threads: maxThreads) : context
        return try withPinnedFeeds(feeds) { pointers in
            state.bind(feeds: pointers)
            for (index, step) in steps.enumerated() {
                // A cancelled task stops between steps (one layer's time at most); outside a task this is false.
                try Task.checkCancellation()
                let start = observer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
                do {
                    switch memory.actions[index] {
                    case .view:
                        break
                    case .concat:
                        for (input, destination) in state.concatCopies[index] {
                            guard let source = state.inputs[index][input] else { continue }
                            Self.copy(source, into: destination)
                        }
                    case .run:
                        try step.step.run(StepBuffers(inputs: state.inputs[index], outputs: state.outputs[index],
                                                      workspace: state.workspaces[index]), context: context)
                    }
                } catch let error as FoveaError {
                    throw error.located(step.location)
                }
                if let observer {
                    observer(index, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
                }
            }
            return try collect(pointers)
        }
    }

    /// Calls `body` with a pointer to every feed's elements, valid inside `body`.
    private func withPinnedFeeds<Result>(_ feeds: [Tensor], _ body: (UnsafeBufferPointer<UnsafeRawPointer>) throws -> Result) throws -> Result {
        try withUnsafeTemporaryAllocation(of: UnsafeRawPointer.self, capacity: Swift.max(1, feeds.count)) { pointers in
            func pin(_ index: Int) throws -> Result {
                guard index < feeds.count else { return try body(UnsafeBufferPointer(rebasing: pointers[0..<feeds.count])) }
                return try feeds[index].withUnsafeRawPointer { pointer in
                    pointers[index] = pointer
                    return try pin(index + 1)
                }
            }
            return try pin(0)
        }
    }

    /// A named value's elements copied out of this run (a graph output, or any value of a keeping plan).
    private func copyOut(_ name: String, memory: MemoryPlan, state: ExecutionState,
                         feeds: UnsafeBufferPointer<UnsafeRawPointer>) -> Tensor? {
        memory.placements[name].map { state.view($0, feeds: feeds).copyToTensor() }
    }

    /// Copies a contiguous view into a (possibly strided) one of the same type.
    static func copy(_ source: TensorView, into destination: TensorView) {
        let per = source.imageCount * source.dataType.byteSize
        let images = source.shape.isEmpty ? 1 : source.batch
        let stride = destination.batchStride * destination.dataType.byteSize
        for n in 0..<images {
            (destination.base + n * stride).copyMemory(from: source.base + n * per, byteCount: per)
        }
    }

    /// The no-reuse memory plan and its pool, made on first use and kept.
    private final class KeepingPlan: @unchecked Sendable {
        private let lock = NSLock()
        private var made: (MemoryPlan, ArenaPool)?
        private let make: () throws -> (MemoryPlan, ArenaPool)

        init(graph: Graph, types: [String: TensorType], steps: [MemoryPlanner.StepInfo], options: MemoryPlan.Options,
             maxThreads: Int, constants: ConstantBlock, limit: MemoryLimit, otherBytes: Int, existing: (MemoryPlan, ArenaPool)?) {
            made = existing
            make = {
                let memory = try MemoryPlanner.plan(graph: graph, types: types, steps: steps, options: options,
                                                    maxThreads: maxThreads)
                try limit.check(ExecutionPlan.sum([memory.arenaBytes, otherBytes]),
                                for: "the plan that keeps every value (for comparing backends node by node)",
                                detail: " (arena \(MemoryLimit.format(memory.arenaBytes)))")
                return (memory, ArenaPool { ExecutionState(memory: memory, constants: constants) })
            }
        }

        func get() throws -> (MemoryPlan, ArenaPool) {
            try lock.withLock {
                if let made { return made }
                let value = try make()
                made = value
                return value
            }
        }
    }
}

import Dispatch
import Foundation
