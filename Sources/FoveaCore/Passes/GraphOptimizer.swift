/// A rewrite of a graph into an equivalent one that runs faster.
///
/// A pass must keep the graph's inputs, outputs (names and values) and
/// topological order, and must leave a graph it cannot improve unchanged.
public protocol GraphPass: Sendable {
    /// A short name for messages.
    var name: String { get }

    /// Rewrites `graph` in place; returns whether it changed anything.
    func run(_ graph: inout Graph) throws -> Bool
}

/// Runs a list of passes over a graph until none changes it any more,
/// checking the graph's structure after every pass that changed it.
///
/// ```swift
/// let optimized = try GraphOptimizer.standard.optimize(graph)
/// ```
public struct GraphOptimizer: Sendable {
    /// The passes, run in this order in every round.
    public var passes: [any GraphPass]

    /// Creates an optimizer that runs `passes` to a fixpoint.
    public init(passes: [any GraphPass]) {
        self.passes = passes
    }

    /// The passes every ``Model`` runs by default: drop Identity/Dropout, make
    /// a quantized model's DequantizeLinear → Conv → QuantizeLinear groups integer
    /// steps, fold the other constant DequantizeLinear nodes, fold
    /// BatchNormalization into Conv, fuse Conv with its activation.
    public static let standard = GraphOptimizer(OptimizationOptions())

    /// The passes `options` turns on (Identity/Dropout removal and constant
    /// DequantizeLinear folding always run).
    public init(_ options: OptimizationOptions) {
        // Folding constant DequantizeLinear nodes changes no value, so it runs with every option.
        var passes: [any GraphPass] = [RemoveIdentityNodes()]
        // The integer passes must see the weights' DequantizeLinear before it folds to float32.
        if options.fuseActivations { passes += [FuseQuantizedConv(), FuseQuantizedDataMovement()] }
        passes.append(FoldConstantDequantize())
        if options.foldBatchNormalization { passes.append(FoldBatchNormalization()) }
        if options.fuseActivations {
            // The pattern passes first, so a Conv's activation is one node by the time FuseConvActivation looks.
            passes += [FuseElementwiseActivations(), FuseGELU(), FuseLayerNormalization(), FuseConvActivation(), FuseConvAdd(),
                       FuseSqueezeExcitation()]
        }
        self.passes = passes
    }

    /// The optimized graph.
    ///
    /// - Throws: `FoveaError` if the graph is malformed, or (a bug) a pass
    ///   leaves it malformed or never stops changing it.
    public func optimize(_ graph: Graph) throws -> Graph {
        var graph = graph
        try graph.validateStructure()
        // Every change removes a node, so there can be no more rounds than nodes.
        let roundLimit = graph.nodes.count + 1
        for _ in 0..<roundLimit {
            var changed = false
            for pass in passes {
                guard try pass.run(&graph) else { continue }
                changed = true
                do {
                    try graph.validateStructure()
                } catch let error as FoveaError {
                    throw FoveaError(error.kind, "graph pass \(pass.name) produced an invalid graph: \(error.message)", location: error.location)
                }
            }
            if !changed { return graph }
        }
        throw FoveaError(.invalidModel, "graph passes did not reach a fixpoint in \(roundLimit) rounds")
    }
}

/// Which graph rewrites and memory savings a model gets. All are on by
/// default; turn one off to compare (`--no-fold-bn`, `--no-fuse`,
/// `--no-elide-concat` on the command line).
public struct OptimizationOptions: Sendable, Equatable, Hashable {
    /// Fold an inference BatchNormalization into the Conv before it (``FoldBatchNormalization``).
    public var foldBatchNormalization: Bool
    /// Recognize activations and LayerNormalization written out as several operators
    /// (``FuseElementwiseActivations``, ``FuseGELU``, ``FuseLayerNormalization``), fuse
    /// any elementwise activation into the Conv before it (``FuseConvActivation``),
    /// a residual Add into the Conv that feeds it (``FuseConvAdd``), and make a
    /// squeeze-and-excitation block one node (``FuseSqueezeExcitation``); in a
    /// quantized model, make integer steps of `DequantizeLinear → op → QuantizeLinear`
    /// groups (``FuseQuantizedConv``, ``FuseQuantizedDataMovement``).
    public var fuseActivations: Bool
    /// Let Concat inputs be written straight into their slices (see ``MemoryPlanner``).
    public var elideConcat: Bool

    /// Creates options; every optimization is on by default.
    public init(foldBatchNormalization: Bool = true, fuseActivations: Bool = true, elideConcat: Bool = true) {
        self.foldBatchNormalization = foldBatchNormalization
        self.fuseActivations = fuseActivations
        self.elideConcat = elideConcat
    }

    /// Every rewrite and saving off: the graph as loaded, run as written.
    public static let none = OptimizationOptions(foldBatchNormalization: false, fuseActivations: false, elideConcat: false)

    /// The memory planner's options for these switches.
    public var memoryOptions: MemoryPlan.Options { MemoryPlan.Options(reuseMemory: true, elideConcat: elideConcat) }
}

extension Graph {
    /// The node index of every Conv with no fused activation whose single
    /// output is read exactly once (and is not a graph output), by that output:
    /// the Convs a following node may be folded or fused into.
    func convsReadOnce() -> [String: Int] {
        let reads = readCounts()
        var producer: [String: Int] = [:]
        for (index, node) in nodes.enumerated() {
            guard case .conv(let attributes) = node.op, attributes.activation == nil,
                  node.outputs.count == 1, reads[node.outputs[0]] == 1 else { continue }
            producer[node.outputs[0]] = index
        }
        return producer
    }

    /// Removes the nodes at `indices`; returns whether there were any (a pass's "changed").
    mutating func removeNodes(at indices: Set<Int>) -> Bool {
        guard !indices.isEmpty else { return false }
        nodes = nodes.enumerated().filter { !indices.contains($0.offset) }.map(\.element)
        return true
    }

    /// How many times each value is read, counting every node input and every graph output.
    func readCounts() -> [String: Int] {
        var counts: [String: Int] = [:]
        for node in nodes {
            for input in node.inputs where !input.isEmpty { counts[input, default: 0] += 1 }
        }
        for output in outputs { counts[output.name, default: 0] += 1 }
        return counts
    }
}
