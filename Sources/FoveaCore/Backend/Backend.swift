/// A set of kernels that can run some of a graph's nodes: a plugin of the planner.
///
/// A backend answers one question — can you run this node, with these shapes
/// and attributes? — and, for a node it accepts, prepares a ``PreparedStep``:
/// the node's kernel with everything that does not depend on the input data
/// done once (weights packed or transformed, loop bounds computed). The planner
/// never names a backend; it asks each in preference order.
///
/// ```swift
/// struct MyBackend: Backend {
///     let name = "mine"
///     func supports(_ node: NodeContext) -> Bool { if case .relu = node.op { true } else { false } }
///     func prepare(_ node: NodeContext) throws -> any PreparedStep { MyRelu() }
/// }
/// ```
public protocol Backend: Sendable {
    /// The name used on the command line and in plans: `reference`, `simd`, ...
    var name: String { get }

    /// Whether this backend can run `node`. Must be cheap and must not throw:
    /// return `false` for anything unusual and let another backend take it.
    func supports(_ node: NodeContext) -> Bool

    /// Prepares the step for a node this backend ``supports(_:)``. Called once
    /// per plan; the step then runs many times, possibly concurrently.
    func prepare(_ node: NodeContext) throws -> any PreparedStep
}

/// One node made ready to run by a backend: its kernel with the weights packed
/// and the loop bounds fixed, for the planned shapes.
///
/// The life of a step follows XNNPACK's create → reshape → setup → run:
/// ``Backend/prepare(_:)`` creates it once per plan; the memory planner asks
/// how much workspace it needs (``workspaceBytes(threads:)``), whether it can
/// write a strided slice (``writesStridedOutput``) and which input it may
/// overwrite (``overwritableInput``); every run then hands it views into the
/// run's arena. A step never allocates while it runs, and it may run on several
/// arenas at once (one per concurrent run), so it keeps no per-run state.
public protocol PreparedStep: Sendable {
    /// The algorithm chosen for the node, for plans and profiles
    /// (such as `im2col+gemm 8x32`, `direct 1x1`, `reference`).
    var algorithm: String { get }

    /// The arithmetic the step runs in: ``Precision/f32`` unless the backend
    /// took a node's ``NodeContext/precision`` of ``Precision/bf16`` for a
    /// kernel that multiplies in bfloat16 (shown per step in plans).
    var precision: Precision { get }

    /// The largest error this step's output may show when the whole graph
    /// runs on the same backend, relative to the largest magnitude of the
    /// reference backend's output for the node (`fovea parity` checks it).
    /// Reordered float sums make small differences expected; algorithms such
    /// as Winograd need a looser bound, so the bound is per step.
    var tolerance: Float { get }

    /// Bytes of scratch memory one run needs with up to `threads` threads
    /// (im2col blocks, packed panels, pooling rows). The planner places it in
    /// the arena; ``StepBuffers/workspace`` points at it during ``run(_:context:)``.
    func workspaceBytes(threads: Int) -> Int

    /// Whether output views may have a batch stride larger than one image
    /// (so the step can write straight into its channel slice of an elided Concat).
    var writesStridedOutput: Bool { get }

    /// The index of an input whose memory the output may share: the step
    /// reads each element of that input before it writes the same element of
    /// output 0 (elementwise operators). `nil` when the step cannot run in place.
    var overwritableInput: Int? { get }

    /// Runs the node: reads `buffers.inputs` (in the node's input order, `nil`
    /// for absent optional inputs) and writes every `buffers.outputs` view,
    /// which have the planned types. Allocates nothing.
    func run(_ buffers: StepBuffers, context: RunContext) throws
}

extension PreparedStep {
    /// 1e-4: ample for reordered float32 sums through a few dozen layers.
    public var tolerance: Float { 1e-4 }
    /// float32: a step runs in bfloat16 only where it says so.
    public var precision: Precision { .f32 }
    public func workspaceBytes(threads: Int) -> Int { 0 }
    public var writesStridedOutput: Bool { false }
    public var overwritableInput: Int? { nil }
}

/// The memory of one step's run: input and output views and the planned workspace.
public struct StepBuffers: @unchecked Sendable {
    /// In node input order; `nil` for absent optional inputs. Always contiguous.
    public let inputs: [TensorView?]
    /// One per node output.
    public let outputs: [TensorView]
    /// ``PreparedStep/workspaceBytes(threads:)`` bytes, 64-byte aligned
    /// (`nil` when the step asked for none).
    public let workspace: UnsafeMutableRawPointer?

    /// Creates the buffers of one step's run (the executor does this).
    public init(inputs: [TensorView?], outputs: [TensorView], workspace: UnsafeMutableRawPointer?) {
        self.inputs = inputs
        self.outputs = outputs
        self.workspace = workspace
    }

    /// Input `index`, or a typed error if it is absent.
    public func input(_ index: Int, _ op: String) throws -> TensorView {
        guard index < inputs.count, let view = inputs[index] else {
            throw FoveaError(.invalidArgument, "\(op): required input \(index) is missing")
        }
        return view
    }

    /// The workspace as floats, or a typed error if the caller gave none
    /// (a step that asked for ``PreparedStep/workspaceBytes(threads:)`` bytes).
    public func floatWorkspace(_ op: String) throws -> UnsafeMutablePointer<Float> {
        guard let workspace else {
            throw FoveaError(.invalidArgument, "\(op): the step needs a workspace (workspaceBytes) and was given none")
        }
        return workspace.assumingMemoryBound(to: Float.self)
    }
}

/// What a backend knows about a node when it decides and prepares.
public struct NodeContext: Sendable {
    /// The node to run: its name, operator and attributes, and value names.
    public let node: Node
    /// Input types in node input order; `nil` for absent optional inputs.
    public let inputTypes: [TensorType?]
    /// One per node output.
    public let outputTypes: [TensorType]
    /// Inputs that are constants (initializers) by input index: the weights to pack.
    public let constantInputs: [Int: Tensor]
    /// The precision the plan asks for (``ExecutionPlan`` passes its own). A
    /// backend with a ``Precision/bf16`` kernel for the node may use it;
    /// any backend may run the node in float32 instead, and says so in its
    /// step's ``PreparedStep/precision``.
    public let precision: Precision

    /// Creates the context of one node (the planner does this; tests and benchmarks may too).
    public init(node: Node, inputTypes: [TensorType?], outputTypes: [TensorType], constantInputs: [Int: Tensor],
                precision: Precision = .f32) {
        self.node = node
        self.inputTypes = inputTypes
        self.outputTypes = outputTypes
        self.constantInputs = constantInputs
        self.precision = precision
    }

    /// The node's operator and attributes.
    public var op: Op { node.op }

    /// The type of input `index`, if present.
    public func inputType(_ index: Int) -> TensorType? {
        index < inputTypes.count ? inputTypes[index] : nil
    }

    /// The constant value of input `index`, if it is an initializer.
    public func constant(_ index: Int) -> Tensor? {
        constantInputs[index]
    }

    /// For a Conv with a fused residual (``ConvAttributes/addsResidual``):
    /// throws unless input 3 is a float32 tensor of output 0's type, the only
    /// residual a backend's step starts from or adds.
    public func checkResidualMatchesOutput(_ backend: String) throws {
        guard let r = inputType(3), r.dataType == .float32, let y = outputTypes.first, r == y else {
            throw FoveaError(.shapeMismatch, "the \(backend) Conv adds a residual of its output's type only (\(outputTypes.first?.shape.shapeDescription ?? "none"))")
        }
    }
}
