/// Where every value of a plan lives during a run, and what the executor does
/// at each step: the result of ``MemoryPlanner``.
///
/// Graph inputs stay in the caller's tensors and are never written;
/// initializers live in one block the plan owns; everything else (every
/// intermediate, every step's workspace) lives in one arena per run, at the
/// offsets planned here. Graph outputs are copied out into owned tensors at the
/// end of the run.
public struct MemoryPlan: Sendable {
    /// Switches for the planner's memory savings.
    public struct Options: Sendable, Equatable, Hashable {
        /// Let values whose lifetimes do not overlap share bytes, and let
        /// elementwise steps write over their input. Off, every value
        /// survives the whole run (what `fovea parity` needs to compare node by node).
        public var reuseMemory: Bool
        /// Let the producers of a Concat's inputs write straight into their
        /// slices of its output, so the Concat copies only what cannot be placed.
        public var elideConcat: Bool

        /// Creates options; both savings are on by default.
        public init(reuseMemory: Bool = true, elideConcat: Bool = true) {
            self.reuseMemory = reuseMemory
            self.elideConcat = elideConcat
        }
    }

    /// What the executor does at a step.
    enum Action: Sendable {
        /// Runs the prepared step.
        case run
        /// Nothing: the output is planned as a view of the input's bytes.
        case view
        /// An elided Concat: its inputs already sit in their slices, except
        /// these, which are copied into theirs.
        case concat(copies: [ConcatCopy])
    }

    /// One Concat input that could not be placed in its slice.
    struct ConcatCopy: Sendable {
        var input: Int
        var destination: Placement
    }

    /// Where a value's elements are.
    enum Root: Sendable, Equatable {
        /// Graph input number `k`: the caller's tensor.
        case feed(Int)
        /// The plan's block of initializers.
        case constant
        /// An arena buffer, by index in ``MemoryPlan/buffers``.
        case arena(Int)
    }

    /// A value's memory: a root, a byte offset into it, a type and a batch stride.
    struct Placement: Sendable {
        var root: Root
        var byteOffset: Int
        var type: TensorType
        /// Elements from one image to the next (the image size unless the value is a strided slice).
        var batchStride: Int

        init(root: Root, byteOffset: Int, type: TensorType, batchStride: Int? = nil) {
            self.root = root
            self.byteOffset = byteOffset
            self.type = type
            self.batchStride = batchStride ?? (type.shape.isEmpty ? 1 : type.shape.dropFirst().reduce(1, *))
        }

        var bytes: Int { type.shape.elementCount * type.dataType.byteSize }
        var isContiguous: Bool {
            let image = type.shape.isEmpty ? 1 : type.shape.dropFirst().reduce(1, *)
            return batchStride == image || (type.shape.first ?? 1) <= 1
        }
    }

    /// One block of the arena.
    public struct Buffer: Sendable, Codable, Equatable {
        /// Byte offset in the arena (a multiple of 64).
        public var offset: Int
        /// Size in bytes (a multiple of 64).
        public var bytes: Int
        /// The steps at which it is alive, inclusive; `lastStep == stepCount` means "until the outputs are copied out".
        public var firstStep: Int
        /// The last step at which it is alive (inclusive).
        public var lastStep: Int
        /// `value` or `scratch`.
        public var role: String
        /// The values that live in it (a value, its views, values computed in
        /// place over it, Concat slices), or the step of a scratch buffer.
        public var contents: [String]
    }

    /// One value's place in the arena, for reports.
    public struct ValueReport: Sendable, Codable, Equatable {
        /// The value's name in the graph.
        public var name: String
        /// Byte offset in the arena.
        public var offset: Int
        /// The value's size in bytes.
        public var bytes: Int
        /// The step that writes it, and the last step that reads it (`stepCount` for a graph output).
        public var firstStep: Int
        /// The last step that reads it, or `stepCount` for a graph output.
        public var lastStep: Int
        /// Index in ``MemoryPlan/buffers``.
        public var buffer: Int
        /// `own`, `view of X`, `in place of X`, `slice of X`.
        public var placement: String
    }

    /// The type planned for an unnamed optional output (no readers, nothing to keep).
    public static let unnamedOutputType = TensorType(.float32, [0])

    /// The options the plan was made with.
    public let options: Options
    /// The arena's size: the planned peak.
    public let arenaBytes: Int
    /// The largest sum of bytes alive at one step: no planner can do better.
    public let lowerBoundBytes: Int
    /// Every intermediate value added up: what a run costs with no planning.
    public let naiveBytes: Int
    /// Every step's workspace added up (each lives only during its step, in the arena).
    public let scratchBytes: Int
    /// The plan's initializers in their own block (not in the arena; shared by all runs).
    public let constantBytes: Int
    /// The arena's blocks: their offsets, sizes, lifetimes and contents.
    public let buffers: [Buffer]
    /// Every intermediate value's place in the arena.
    public let values: [ValueReport]
    /// Steps in run order, for reports.
    public let stepCount: Int

    let actions: [Action]
    let inputPlacements: [[Placement?]]
    let outputPlacements: [[Placement]]
    /// Per step, the buffer of its workspace and its size, if it asked for one.
    let workspaces: [(buffer: Int, bytes: Int)?]
    /// Every named value, for copying outputs out.
    let placements: [String: Placement]
    /// Byte offset of each initializer in the constant block.
    let constantOffsets: [String: Int]

    init(options: Options, arenaBytes: Int, lowerBoundBytes: Int, naiveBytes: Int, scratchBytes: Int, constantBytes: Int,
         buffers: [Buffer], values: [ValueReport], stepCount: Int, actions: [Action],
         inputPlacements: [[Placement?]], outputPlacements: [[Placement]], workspaces: [(buffer: Int, bytes: Int)?],
         placements: [String: Placement], constantOffsets: [String: Int]) {
        self.options = options
        self.arenaBytes = arenaBytes
        self.lowerBoundBytes = lowerBoundBytes
        self.naiveBytes = naiveBytes
        self.scratchBytes = scratchBytes
        self.constantBytes = constantBytes
        self.buffers = buffers
        self.values = values
        self.stepCount = stepCount
        self.actions = actions
        self.inputPlacements = inputPlacements
        self.outputPlacements = outputPlacements
        self.workspaces = workspaces
        self.placements = placements
        self.constantOffsets = constantOffsets
    }

    /// How each step is carried out with this memory plan: `run`, `view`, or
    /// `elided concat (copies k of n)`.
    public func actionDescription(_ step: Int) -> String {
        switch actions[step] {
        case .run: return "run"
        case .view: return "view"
        case .concat(let copies): return copies.isEmpty ? "elided concat" : "elided concat (copies \(copies.count))"
        }
    }

    /// Whether step `step` writes nothing of its own (a view or a Concat whose inputs all sit in their slices).
    public func isElided(_ step: Int) -> Bool {
        switch actions[step] {
        case .run: return false
        case .view: return true
        case .concat(let copies): return copies.isEmpty
        }
    }
}
