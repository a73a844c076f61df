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

    /// The largest error this backend may show at any node output when the
    /// whole graph runs on it, relative to the largest magnitude of the
    /// reference backend's output for that node (`fovea parity` checks it).
    /// Reordered float sums make small differences expected; algorithms such
    /// as Winograd need a looser bound.
    var tolerance: Float { get }
}

extension Backend {
    /// 1e-4: ample for reordered float32 sums through a few dozen layers.
    public var tolerance: Float { 1e-4 }
}

/// One node made ready to run by a backend.
public protocol PreparedStep: Sendable {
    /// The algorithm chosen for the node, for plans and profiles
    /// (such as `im2col+gemm 8x32`, `direct 1x1`, `reference`).
    var algorithm: String { get }

    /// Runs the node on `inputs` (in the node's input order, `nil` for absent
    /// optional inputs) and returns one tensor per node output, with the types
    /// planned in ``NodeContext/outputTypes``.
    func run(_ inputs: [Tensor?], context: RunContext) throws -> [Tensor]
}

/// What a backend knows about a node when it decides and prepares.
public struct NodeContext: Sendable {
    public let node: Node
    /// Input types in node input order; `nil` for absent optional inputs.
    public let inputTypes: [TensorType?]
    /// One per node output.
    public let outputTypes: [TensorType]
    /// Inputs that are constants (initializers) by input index: the weights to pack.
    public let constantInputs: [Int: Tensor]

    public init(node: Node, inputTypes: [TensorType?], outputTypes: [TensorType], constantInputs: [Int: Tensor]) {
        self.node = node
        self.inputTypes = inputTypes
        self.outputTypes = outputTypes
        self.constantInputs = constantInputs
    }

    public var op: Op { node.op }

    /// The type of input `index`, if present.
    public func inputType(_ index: Int) -> TensorType? {
        index < inputTypes.count ? inputTypes[index] : nil
    }

    /// The constant value of input `index`, if it is an initializer.
    public func constant(_ index: Int) -> Tensor? {
        constantInputs[index]
    }
}
