import FoveaCore

/// What `fovea inspect --plan --json` prints: every step's backend and
/// algorithm, and the memory plan with its sizes and every value's place.
public struct PlanReport: Sendable, Codable, Equatable {
    /// One step in run order.
    public struct Step: Sendable, Codable, Equatable {
        /// The node's name.
        public var node: String
        /// The node's operator, such as `Conv`.
        public var opType: String
        /// The backend that runs it.
        public var backend: String
        /// The algorithm its step uses.
        public var algorithm: String
        /// `run`, `view`, `elided concat`, or `elided concat (copies k)`.
        public var memory: String
        /// Whether the node went to the reference backend because no requested backend runs it.
        public var isFallback: Bool
        /// The step's relative error bound against the reference (`PreparedStep.tolerance`).
        public var tolerance: Float
        /// The arithmetic the step runs in (`PreparedStep.precision`).
        public var precision: Precision
    }

    /// One value's bytes in the arena.
    public struct Value: Sendable, Codable, Equatable {
        /// The value's name.
        public var name: String
        /// Byte offset in the arena.
        public var offset: Int
        /// Size in bytes.
        public var bytes: Int
        /// The step that writes it.
        public var firstStep: Int
        /// The last step that reads it (the step count for a graph output).
        public var lastStep: Int
        /// `own`, `view of X`, `in place of X` or `slice of X`.
        public var placement: String
    }

    /// Every step, in run order.
    public var steps: [Step]
    /// The planned peak: the arena one run needs.
    public var arenaBytes: Int
    /// The largest sum of bytes live at one step: no planner can do better.
    public var lowerBoundBytes: Int
    /// Every intermediate value added up (no planning).
    public var naiveBytes: Int
    /// Every step's planned workspace added up (inside the arena).
    public var scratchBytes: Int
    /// The initializers steps read at run time, in the plan's own block (shared by all runs).
    public var constantBytes: Int
    /// The thread count the workspaces are planned for.
    public var maxThreads: Int
    /// Every intermediate value's place in the arena.
    public var values: [Value]
    /// The arena's blocks: their offsets, sizes, lifetimes and contents.
    public var buffers: [MemoryPlan.Buffer]

    /// The report of `plan`.
    public init(_ plan: ExecutionPlan) {
        let memory = plan.memory
        steps = plan.assignments.enumerated().map { index, a in
            Step(node: a.node, opType: a.opType, backend: a.backend, algorithm: a.algorithm,
                 memory: memory.actionDescription(index), isFallback: a.isFallback, tolerance: a.tolerance,
                 precision: a.precision)
        }
        arenaBytes = memory.arenaBytes
        lowerBoundBytes = memory.lowerBoundBytes
        naiveBytes = memory.naiveBytes
        scratchBytes = memory.scratchBytes
        constantBytes = memory.constantBytes
        maxThreads = plan.maxThreads
        values = memory.values.map {
            Value(name: $0.name, offset: $0.offset, bytes: $0.bytes, firstStep: $0.firstStep, lastStep: $0.lastStep,
                  placement: $0.placement)
        }
        buffers = memory.buffers
    }

    enum CodingKeys: String, CodingKey {
        case steps, values, buffers
        case arenaBytes = "arena_bytes"
        case lowerBoundBytes = "lower_bound_bytes"
        case naiveBytes = "naive_bytes"
        case scratchBytes = "scratch_bytes"
        case constantBytes = "constant_bytes"
        case maxThreads = "max_threads"
    }
}
