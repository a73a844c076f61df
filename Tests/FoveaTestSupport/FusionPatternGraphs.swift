import XCTest
import FoveaCore

/// Small graphs with the multi-operator patterns exporters write (SiLU,
/// GELU, LayerNorm, HardSwish, HardSigmoid, a Conv followed by each
/// activation), shared by the pass tests and every backend's parity tests.
public enum FusionPatternGraphs {
    /// One pattern: the graph and the op types its optimized form must have.
    public struct Case: Sendable {
        public let name: String
        public let graph: Graph
        public let fusedOpTypes: [String]
        public let inputShape: [Int]
    }

    /// A builder of one graph: nodes appended in order, constants named `c0, c1, ...`.
    public struct Builder {
        public var nodes: [Node] = []
        public var initializers: [String: Tensor] = [:]
        private var counter = 0

        public init() {}

        /// A one-element constant (rank 0 unless `shape` says otherwise).
        public mutating func constant(_ value: Float, shape: [Int] = []) -> String {
            counter += 1
            let name = "c\(counter)"
            initializers[name] = try! Tensor(shape: shape, floats: [Float](repeating: value, count: shape.elementCount))
            return name
        }

        /// A constant tensor.
        public mutating func constant(_ tensor: Tensor) -> String {
            counter += 1
            let name = "c\(counter)"
            initializers[name] = tensor
            return name
        }

        /// Appends a node; its output is named after it.
        @discardableResult
        public mutating func node(_ op: Op, _ inputs: [String]) -> String {
            counter += 1
            let name = "n\(counter)"
            nodes.append(Node(name: name, op: op, inputs: inputs, outputs: [name]))
            return name
        }

        /// The graph with input `x` of `shape` and the given outputs.
        public func graph(_ shape: [Int], outputs: [String]) -> Graph {
            Graph(inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: shape.map { .known($0) })],
                  outputs: outputs.map { ValueInfo(name: $0, dataType: .float32, dimensions: nil) },
                  nodes: nodes, initializers: initializers)
        }
    }

    public static func seeded(_ shape: [Int], seed: UInt64, in range: ClosedRange<Float> = -1...1) -> Tensor {
        var generator = SeededGenerator(seed: seed)
        return try! Tensor(shape: shape, floats: (0..<shape.elementCount).map { _ in Float.random(in: range, using: &generator) })
    }

    static let shape = [2, 8, 5, 7]

    /// `x * Sigmoid(x)` in both operand orders.
    public static func silu(sigmoidFirst: Bool) -> Case {
        var b = Builder()
        let s = b.node(.sigmoid, ["x"])
        let y = b.node(.mul, sigmoidFirst ? [s, "x"] : ["x", s])
        return Case(name: "silu(\(sigmoidFirst ? "s*x" : "x*s"))", graph: b.graph(shape, outputs: [y]), fusedOpTypes: ["SiLU"], inputShape: shape)
    }

    /// The three association orders of the erf GELU (PyTorch's first).
    public static func geluErf(order: Int) -> Case {
        var b = Builder()
        let scaled = order == 1 ? b.node(.mul, ["x", b.constant(0.70710678)]) : b.node(.div, ["x", b.constant(1.4142135)])
        let e = b.node(.unary(.erf), [scaled])
        let a = order == 2 ? b.node(.add, [b.constant(1), e]) : b.node(.add, [e, b.constant(1)])
        let y: String
        switch order {
        case 0: y = b.node(.mul, [b.node(.mul, ["x", a]), b.constant(0.5)])          // (x·a)·0.5
        case 1: y = b.node(.mul, [b.node(.mul, ["x", b.constant(0.5)]), a])          // (x·0.5)·a
        default: y = b.node(.mul, ["x", b.node(.mul, [a, b.constant(0.5)])])         // x·(a·0.5)
        }
        return Case(name: "gelu-erf order \(order)", graph: b.graph(shape, outputs: [y]), fusedOpTypes: ["Gelu"], inputShape: shape)
    }

    /// The tanh GELU with x³ as Pow(x, 3) or x·x·x.
    public static func geluTanh(powerCube: Bool) -> Case {
        var b = Builder()
        let cube = powerCube ? b.node(.pow, ["x", b.constant(3)]) : b.node(.mul, ["x", b.node(.mul, ["x", "x"])])
        let inner = b.node(.add, ["x", b.node(.mul, [b.constant(0.044715), cube])])
        let t = b.node(.unary(.tanh), [b.node(.mul, [inner, b.constant(0.7978845608)])])
        let a = b.node(.add, [t, b.constant(1)])
        let y = b.node(.mul, [b.node(.mul, ["x", b.constant(0.5)]), a])
        return Case(name: "gelu-tanh \(powerCube ? "pow" : "x*x*x")", graph: b.graph(shape, outputs: [y]), fusedOpTypes: ["Gelu"],
                    inputShape: shape)
    }

    /// PyTorch's decomposed LayerNorm over the last axis (or the last two), with or without β.
    public static func layerNorm(lastTwoAxes: Bool, withBias: Bool, squareAsMul: Bool = false) -> Case {
        var b = Builder()
        let shape = [2, 6, 16]
        let axes = lastTwoAxes ? [-2, -1] : [-1]
        let normalized = lastTwoAxes ? [6, 16] : [16]
        let reduce = Op.reduce(ReduceAttributes(.mean, axes: axes, keepDims: true))
        let m = b.node(reduce, ["x"])
        let d = b.node(.sub, ["x", m])
        let square = squareAsMul ? b.node(.mul, [d, d]) : b.node(.pow, [d, b.constant(2)])
        let v = b.node(reduce, [square])
        let s = b.node(.unary(.sqrt), [b.node(.add, [v, b.constant(1e-5)])])
        let n = b.node(.div, [d, s])
        var y = b.node(.mul, [n, b.constant(seeded(normalized, seed: 3, in: 0.5...1.5))])
        if withBias { y = b.node(.add, [y, b.constant(seeded(normalized, seed: 4))]) }
        return Case(name: "layernorm axes \(axes) bias \(withBias) \(squareAsMul ? "d*d" : "pow")", graph: b.graph(shape, outputs: [y]),
                    fusedOpTypes: ["LayerNormalization"], inputShape: shape)
    }

    /// `x * Relu6(x + 3) / 6` and `x * (Relu6(x + 3) / 6)`, and the HardSigmoid alone.
    public static func hardSwish(divideProduct: Bool) -> Case {
        var b = Builder()
        let r = b.node(.clip(min: 0, max: 6), [b.node(.add, ["x", b.constant(3)])])
        let y = divideProduct ? b.node(.div, [b.node(.mul, ["x", r]), b.constant(6)])
                              : b.node(.mul, ["x", b.node(.div, [r, b.constant(6)])])
        return Case(name: "hardswish \(divideProduct ? "(x*r)/6" : "x*(r/6)")", graph: b.graph(shape, outputs: [y]),
                    fusedOpTypes: ["HardSwish"], inputShape: shape)
    }

    public static func hardSigmoid() -> Case {
        var b = Builder()
        let r = b.node(.clip(min: 0, max: 6), [b.node(.add, [b.constant(3), "x"])])
        let y = b.node(.mul, [r, b.constant(1.0 / 6.0)])
        return Case(name: "hardsigmoid", graph: b.graph(shape, outputs: [y]), fusedOpTypes: ["HardSigmoid"], inputShape: shape)
    }

    /// Every activation a Conv may fuse, as the standalone operator.
    public static let convActivations: [Op] = [
        .relu, .clip(min: 0, max: 6), .leakyRelu(alpha: 0.1), .sigmoid, .hardSigmoid(alpha: 0.2, beta: 0.5), .hardSwish,
        .unary(.silu), .unary(.gelu(tanhApproximation: false)), .unary(.gelu(tanhApproximation: true)), .unary(.tanh),
        .unary(.elu(alpha: 1)), .unary(.selu(alpha: 1.6732632, gamma: 1.050701)), .unary(.celu(alpha: 1.5)),
        .unary(.softplus), .unary(.softsign), .unary(.mish),
    ]

    /// Conv (3×3, pad 1, or depthwise) then `activation`; the Conv's output written out as SiLU's `x * Sigmoid(x)` when `activation` is SiLU.
    public static func convThen(_ activation: Op, depthwise: Bool = false, writtenOutSiLU: Bool = false) -> Case {
        var b = Builder()
        let channels = 8
        let attributes = ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1],
                                        group: depthwise ? channels : 1)
        let w = b.constant(seeded([channels, depthwise ? 1 : channels, 3, 3], seed: 11, in: -0.4...0.4))
        let c = b.node(.conv(attributes), ["x", w, b.constant(seeded([channels], seed: 12))])
        let y = writtenOutSiLU ? b.node(.mul, [c, b.node(.sigmoid, [c])]) : b.node(activation, [c])
        return Case(name: "conv\(depthwise ? " depthwise" : "")+\(activation.typeName)", graph: b.graph(shape, outputs: [y]),
                    fusedOpTypes: ["Conv"], inputShape: shape)
    }

    /// Squeeze-and-excitation: GlobalAveragePool → 1×1 Conv → activation → 1×1 Conv → gate → Mul with the input.
    public static func squeezeExcitation(activation: Op = .relu, gate: Op = .sigmoid, gateFirst: Bool = false) -> Case {
        var b = Builder()
        let pointwise = ConvAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])
        let p = b.node(.globalAveragePool, ["x"])
        let h = b.node(activation, [b.node(.conv(pointwise), [p, b.constant(seeded([3, 8, 1, 1], seed: 21)), b.constant(seeded([3], seed: 22))])])
        let g = b.node(gate, [b.node(.conv(pointwise), [h, b.constant(seeded([8, 3, 1, 1], seed: 23)), b.constant(seeded([8], seed: 24))])])
        let y = b.node(.mul, gateFirst ? [g, "x"] : ["x", g])
        return Case(name: "squeeze-excitation \(activation.typeName)/\(gate.typeName)", graph: b.graph(shape, outputs: [y]),
                    fusedOpTypes: ["SqueezeExcitation"], inputShape: shape)
    }

    /// Every pattern case.
    public static var all: [Case] {
        [silu(sigmoidFirst: true), silu(sigmoidFirst: false), geluErf(order: 0), geluErf(order: 1), geluErf(order: 2),
         geluTanh(powerCube: true), geluTanh(powerCube: false),
         layerNorm(lastTwoAxes: false, withBias: true), layerNorm(lastTwoAxes: true, withBias: false),
         layerNorm(lastTwoAxes: false, withBias: true, squareAsMul: true),
         hardSwish(divideProduct: true), hardSwish(divideProduct: false), hardSigmoid(),
         convThen(.unary(.silu), writtenOutSiLU: true),
         squeezeExcitation(), squeezeExcitation(activation: .unary(.silu), gate: .hardSigmoid(alpha: 1 / 6, beta: 0.5), gateFirst: true)]
        + convActivations.map { convThen($0) } + convActivations.map { convThen($0, depthwise: true) }
    }

    /// Runs the case's graph unoptimized on the reference backend and optimized on
    /// `backends`, and checks: the optimized graph's op types, that every node
    /// of it runs on the first backend (unless `allowFallback`), and the outputs
    /// within `tolerance`.
    public static func check(_ c: Case, backends: [any Backend], tolerance: Tolerance, allowFallback: Bool = false,
                             file: StaticString = #filePath, line: UInt = #line) throws {
        let optimized = try GraphOptimizer.standard.optimize(c.graph)
        XCTAssertEqual(optimized.nodes.map(\.op.typeName), c.fusedOpTypes, "\(c.name): optimized graph", file: file, line: line)
        let input = seeded(c.inputShape, seed: 7, in: -4...4)
        let expected = try ExecutionPlan(graph: c.graph).run(["x": input], context: RunContext(threads: 1))
        let plan = try ExecutionPlan(graph: optimized, backends: backends)
        if let first = backends.first, !allowFallback {
            for assignment in plan.assignments {
                XCTAssertEqual(assignment.backend, first.name, "\(c.name): \(assignment.node) runs on \(assignment.backend)", file: file, line: line)
            }
        }
        for threads in [1, 2] {
            let actual = try plan.run(["x": input], context: RunContext(threads: threads))
            for (name, value) in expected {
                guard let got = actual[name] else {
                    XCTFail("\(c.name): no output \(name)", file: file, line: line)
                    continue
                }
                LayerCheck.compare([got], [value], tolerance: tolerance, "\(c.name) (\(threads) threads)", file: file, line: line)
            }
        }
    }
}
