import XCTest
@testable import FoveaCore
import FoveaTestSupport

/// The pattern passes (FuseElementwiseActivations, FuseGELU,
/// FuseLayerNormalization) and FuseConvActivation with every activation: each
/// pattern is found, the fused graph computes what the unfused one did on
/// the reference backend, and near-misses are left alone.
final class FusePatternTests: XCTestCase {
    private typealias G = FusionPatternGraphs

    func testEveryPatternIsFusedAndMatchesTheUnfusedGraph() throws {
        for c in G.all {
            try G.check(c, backends: [ReferenceBackend()], tolerance: Tolerance(absolute: 2e-5, relative: 2e-4))
        }
    }

    func testFusedNodesKeepTheLastNodesNameAndOutput() throws {
        let c = G.geluErf(order: 0)
        let optimized = try GraphOptimizer.standard.optimize(c.graph)
        XCTAssertEqual(optimized.nodes.count, 1)
        XCTAssertEqual(optimized.nodes[0].name, c.graph.nodes.last?.name)
        XCTAssertEqual(optimized.nodes[0].outputs, c.graph.nodes.last?.outputs)
        XCTAssertEqual(optimized.nodes[0].inputs, ["x"])
        XCTAssertEqual(optimized.nodes[0].op, .unary(.gelu(tanhApproximation: false)))
        let layerNorm = try GraphOptimizer.standard.optimize(G.layerNorm(lastTwoAxes: true, withBias: false).graph)
        XCTAssertEqual(layerNorm.nodes.map(\.op), [.layerNormalization(axis: 1, epsilon: 1e-5)])
        XCTAssertEqual(layerNorm.nodes[0].inputs.count, 2, "no bias input when the pattern has no Add")
    }

    func testConvFusesEveryActivation() throws {
        for activation in G.convActivations {
            let optimized = try GraphOptimizer.standard.optimize(G.convThen(activation).graph)
            guard case .conv(let attributes) = optimized.nodes.first?.op, optimized.nodes.count == 1 else {
                XCTFail("\(activation.typeName): \(optimized.nodes.map(\.op.typeName))")
                continue
            }
            XCTAssertEqual(attributes.activation?.op, activation)
        }
        // x * Sigmoid(x) after a Conv: first SiLU, then into the Conv.
        let silu = try GraphOptimizer.standard.optimize(G.convThen(.unary(.silu), writtenOutSiLU: true).graph)
        guard case .conv(let attributes) = silu.nodes.first?.op else { return XCTFail("not fused") }
        XCTAssertEqual(attributes.activation, .unary(.silu))
    }

    // MARK: Near misses: left alone

    private func unchanged(_ graph: Graph, _ message: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let optimized = try GraphOptimizer(passes: [FuseElementwiseActivations(), FuseGELU(), FuseLayerNormalization()]).optimize(graph)
        XCTAssertEqual(optimized.nodes.map(\.op), graph.nodes.map(\.op), message, file: file, line: line)
    }

    func testSiLUNeedsTheSameOperandAndAPrivateSigmoid() throws {
        var b = G.Builder()
        let s = b.node(.sigmoid, ["x"])
        let y = b.node(.mul, [s, b.node(.relu, ["x"])])
        try unchanged(b.graph([1, 4], outputs: [y]), "x * Sigmoid(z) with z ≠ x")

        var c = G.Builder()
        let s2 = c.node(.sigmoid, ["x"])
        let y2 = c.node(.mul, ["x", s2])
        try unchanged(c.graph([1, 4], outputs: [y2, s2]), "the Sigmoid is also a graph output")

        var d = G.Builder()
        let s3 = d.node(.sigmoid, ["x"])
        let y3 = d.node(.mul, ["x", s3])
        let z3 = d.node(.add, [s3, y3])
        try unchanged(d.graph([1, 4], outputs: [z3]), "the Sigmoid has another reader")
    }

    func testGELUNeedsItsConstants() throws {
        var b = G.Builder()
        let e = b.node(.unary(.erf), [b.node(.div, ["x", b.constant(1.5)])])
        let a = b.node(.add, [e, b.constant(1)])
        let y = b.node(.mul, [b.node(.mul, ["x", a]), b.constant(0.5)])
        try unchanged(b.graph([1, 4], outputs: [y]), "x / 1.5 is not x / √2")

        var c = G.Builder()
        let e2 = c.node(.unary(.erf), [c.node(.div, ["x", c.constant(1.4142135)])])
        let a2 = c.node(.add, [e2, c.constant(1)])
        let y2 = c.node(.mul, [c.node(.mul, ["x", a2]), c.constant(0.25)])
        try unchanged(c.graph([1, 4], outputs: [y2]), "· 0.25 is not · 0.5")

        var d = G.Builder()
        let e3 = d.node(.unary(.erf), [d.node(.div, ["x", d.constant(1.4142135)])])
        let a3 = d.node(.add, [e3, d.constant(1, shape: [1, 1, 4])])
        let y3 = d.node(.mul, [d.node(.mul, ["x", a3]), d.constant(0.5)])
        try unchanged(d.graph([1, 4], outputs: [y3]), "a constant of higher rank than x broadcasts x to a new shape")
    }

    func testLayerNormNeedsTrailingAxesAndMatchingParameters() throws {
        func decomposed(axes: [Int], gammaShape: [Int], epsilonShape: [Int] = []) -> Graph {
            var b = G.Builder()
            let reduce = Op.reduce(ReduceAttributes(.mean, axes: axes, keepDims: true))
            let m = b.node(reduce, ["x"])
            let d = b.node(.sub, ["x", m])
            let v = b.node(reduce, [b.node(.pow, [d, b.constant(2)])])
            let s = b.node(.unary(.sqrt), [b.node(.add, [v, b.constant(1e-5, shape: epsilonShape)])])
            let y = b.node(.mul, [b.node(.div, [d, s]), b.constant(G.seeded(gammaShape, seed: 1))])
            return b.graph([2, 6, 16], outputs: [y])
        }
        XCTAssertEqual(try GraphOptimizer.standard.optimize(decomposed(axes: [-1], gammaShape: [16])).nodes.map(\.op.typeName),
                       ["LayerNormalization"])
        let middle = try GraphOptimizer.standard.optimize(decomposed(axes: [1], gammaShape: [6, 1]))
        XCTAssertFalse(middle.nodes.contains { $0.op.typeName == "LayerNormalization" }, "axis 1 of 3 is not trailing")
        let wrongGamma = try GraphOptimizer.standard.optimize(decomposed(axes: [-1], gammaShape: [6, 16]))
        XCTAssertFalse(wrongGamma.nodes.contains { $0.op.typeName == "LayerNormalization" }, "γ broadcasts over more than the normalized axes")
    }

    func testHardSwishNeedsTheSameOperand() throws {
        var b = G.Builder()
        let r = b.node(.clip(min: 0, max: 6), [b.node(.add, ["x", b.constant(3)])])
        let y = b.node(.div, [b.node(.mul, [b.node(.relu, ["x"]), r]), b.constant(6)])
        let optimized = try GraphOptimizer.standard.optimize(b.graph([1, 4], outputs: [y]))
        XCTAssertFalse(optimized.nodes.contains { $0.op == .hardSwish }, "relu(x) * relu6(x + 3) / 6 is not HardSwish")

        var c = G.Builder()
        let r2 = c.node(.clip(min: 0, max: 5), [c.node(.add, ["x", c.constant(3)])])
        let y2 = c.node(.div, [r2, c.constant(6)])
        try unchanged(c.graph([1, 4], outputs: [y2]), "Clip(0, 5) is not Relu6")
    }
}

/// FuseSqueezeExcitation's near misses.
final class FuseSqueezeExcitationTests: XCTestCase {
    func testGateMustMultiplyThePooledInput() throws {
        var b = FusionPatternGraphs.Builder()
        let pointwise = ConvAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])
        let other = b.node(.relu, ["x"])
        let p = b.node(.globalAveragePool, ["x"])
        let h = b.node(.conv(pointwise), [p, b.constant(FusionPatternGraphs.seeded([3, 8, 1, 1], seed: 1))])
        let g = b.node(.sigmoid, [b.node(.conv(pointwise), [h, b.constant(FusionPatternGraphs.seeded([8, 3, 1, 1], seed: 2))])])
        let y = b.node(.mul, [other, g])
        let optimized = try GraphOptimizer.standard.optimize(b.graph([1, 8, 4, 4], outputs: [y]))
        XCTAssertFalse(optimized.nodes.contains { $0.op.typeName == "SqueezeExcitation" }, "relu(x) · gate(pool(x)) is not SE")
    }

    func testTheGateMustStayPrivate() throws {
        var c = FusionPatternGraphs.squeezeExcitation().graph
        let gate = c.nodes[c.nodes.count - 2].outputs[0]
        c.outputs.append(ValueInfo(name: gate, dataType: .float32, dimensions: nil))
        let optimized = try GraphOptimizer.standard.optimize(c)
        XCTAssertFalse(optimized.nodes.contains { $0.op.typeName == "SqueezeExcitation" }, "the gate is a graph output")
    }
}
