import XCTest
@testable import FoveaCore

/// FuseConvActivation, RemoveIdentityNodes and the GraphOptimizer that runs them.
final class GraphPassTests: XCTestCase {
    private let conv3x3 = Op.conv(ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1]))

    /// x[1,2,6,6] -> conv(w1,b1) -> relu -> conv(w2) -> clip -> y, with weights.
    private func chain(_ middle: [Node], outputs: [String] = ["y"]) -> Graph {
        Graph(inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(1), .known(2), .known(6), .known(6)])],
              outputs: outputs.map { ValueInfo(name: $0, dataType: .float32, dimensions: nil) },
              nodes: middle,
              initializers: ["w1": seeded([3, 2, 3, 3], seed: 1), "b1": seeded([3], seed: 2),
                             "w2": seeded([2, 3, 3, 3], seed: 3)])
    }

    private func seeded(_ shape: [Int], seed: UInt64) -> Tensor {
        var state = seed
        let values = (0..<shape.elementCount).map { _ -> Float in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int64(bitPattern: state >> 11) % 2001 - 1000) / 1000
        }
        return Tensor(uncheckedShape: shape, floats: values)
    }

    private func run(_ graph: Graph, _ input: Tensor) throws -> [String: Tensor] {
        try ExecutionPlan(graph: graph).run(["x": input], context: RunContext(threads: 1))
    }

    func testFusesConvFollowedByActivation() throws {
        let graph = chain([
            Node(name: "c1", op: conv3x3, inputs: ["x", "w1", "b1"], outputs: ["c1_out"]),
            Node(name: "r1", op: .relu, inputs: ["c1_out"], outputs: ["r1_out"]),
            Node(name: "c2", op: conv3x3, inputs: ["r1_out", "w2"], outputs: ["c2_out"]),
            Node(name: "clip", op: .clip(min: -0.5, max: 0.5), inputs: ["c2_out"], outputs: ["y"]),
        ])
        let optimized = try GraphOptimizer.standard.optimize(graph)
        XCTAssertEqual(optimized.nodes.map(\.name), ["c1", "c2"])
        XCTAssertEqual(optimized.nodes.map(\.outputs), [["r1_out"], ["y"]])
        XCTAssertEqual(optimized.nodes.map(\.inputs), [["x", "w1", "b1"], ["r1_out", "w2"]])
        guard case .conv(let a1) = optimized.nodes[0].op, case .conv(let a2) = optimized.nodes[1].op else {
            return XCTFail("expected two Conv nodes")
        }
        XCTAssertEqual(a1.activation, .relu)
        XCTAssertEqual(a2.activation, .clip(min: -0.5, max: 0.5))
        XCTAssertEqual(optimized.opHistogram, ["Conv": 2])

        let input = seeded([1, 2, 6, 6], seed: 9)
        let expected = try run(graph, input)["y"]
        let actual = try run(optimized, input)["y"]
        XCTAssertEqual(actual, expected)
        // The plan says what was fused.
        XCTAssertEqual(try ExecutionPlan(graph: optimized).assignments.map(\.algorithm),
                       ["reference +relu", "reference +clip(-0.5,0.5)"])
    }

    func testFusesLeakyRelu() throws {
        let graph = chain([
            Node(name: "c1", op: conv3x3, inputs: ["x", "w1", "b1"], outputs: ["c1_out"]),
            Node(name: "lr", op: .leakyRelu(alpha: 0.2), inputs: ["c1_out"], outputs: ["y"]),
        ])
        let optimized = try GraphOptimizer.standard.optimize(graph)
        XCTAssertEqual(optimized.nodes.count, 1)
        XCTAssertEqual(optimized.nodes[0].op, .conv(ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1],
                                                                   pads: [1, 1, 1, 1], activation: .leakyRelu(alpha: 0.2))))
        let input = seeded([1, 2, 6, 6], seed: 4)
        XCTAssertEqual(try run(optimized, input)["y"], try run(graph, input)["y"])
    }

    func testLeavesConvWithTwoReaders() throws {
        let graph = chain([
            Node(name: "c1", op: conv3x3, inputs: ["x", "w1", "b1"], outputs: ["c1_out"]),
            Node(name: "r1", op: .relu, inputs: ["c1_out"], outputs: ["r1_out"]),
            Node(name: "add", op: .add, inputs: ["r1_out", "c1_out"], outputs: ["y"]),
        ])
        let optimized = try GraphOptimizer.standard.optimize(graph)
        XCTAssertEqual(optimized.nodes, graph.nodes)
    }

    func testLeavesConvThatIsAGraphOutput() throws {
        let graph = chain([
            Node(name: "c1", op: conv3x3, inputs: ["x", "w1", "b1"], outputs: ["c1_out"]),
            Node(name: "r1", op: .relu, inputs: ["c1_out"], outputs: ["y"]),
        ], outputs: ["y", "c1_out"])
        let optimized = try GraphOptimizer.standard.optimize(graph)
        XCTAssertEqual(optimized.nodes, graph.nodes)
    }

    func testLeavesActivationAfterOtherOperators() throws {
        let graph = chain([
            Node(name: "pool", op: .globalAveragePool, inputs: ["x"], outputs: ["p"]),
            Node(name: "r", op: .relu, inputs: ["p"], outputs: ["y"]),
        ])
        XCTAssertEqual(try GraphOptimizer.standard.optimize(graph).nodes, graph.nodes)
        // An already fused Conv does not take a second activation.
        var fused = ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1])
        fused.activation = .relu
        let twice = chain([
            Node(name: "c1", op: .conv(fused), inputs: ["x", "w1", "b1"], outputs: ["c1_out"]),
            Node(name: "clip", op: .clip(min: 0, max: 6), inputs: ["c1_out"], outputs: ["y"]),
        ])
        XCTAssertEqual(try GraphOptimizer.standard.optimize(twice).nodes, twice.nodes)
    }

    func testRemovesIdentityAndDropoutThenFuses() throws {
        let graph = chain([
            Node(name: "id0", op: .identity, inputs: ["x"], outputs: ["x1"]),
            Node(name: "c1", op: conv3x3, inputs: ["x1", "w1", "b1"], outputs: ["c1_out"]),
            Node(name: "drop", op: .dropout, inputs: ["c1_out"], outputs: ["d"]),
            Node(name: "id1", op: .identity, inputs: ["d"], outputs: ["d2"]),
            Node(name: "r1", op: .relu, inputs: ["d2"], outputs: ["y"]),
        ])
        let optimized = try GraphOptimizer.standard.optimize(graph)
        XCTAssertEqual(optimized.nodes.map(\.name), ["c1"])
        XCTAssertEqual(optimized.nodes[0].inputs, ["x", "w1", "b1"])
        XCTAssertEqual(optimized.nodes[0].outputs, ["y"])
        let input = seeded([1, 2, 6, 6], seed: 5)
        XCTAssertEqual(try run(optimized, input)["y"], try run(graph, input)["y"])
    }

    func testKeepsIdentityWritingAGraphOutputAndDropoutWithMask() throws {
        let graph = chain([
            Node(name: "drop", op: .dropout, inputs: ["x"], outputs: ["d", "mask"]),
            Node(name: "r", op: .relu, inputs: ["d"], outputs: ["r_out"]),
            Node(name: "id", op: .identity, inputs: ["r_out"], outputs: ["y"]),
        ], outputs: ["y", "mask"])
        let optimized = try GraphOptimizer.standard.optimize(graph)
        XCTAssertEqual(optimized.nodes, graph.nodes)
        // Dropout with an unnamed mask goes; the graph-output Identity stays.
        var unnamedMask = graph
        unnamedMask.outputs = [graph.outputs[0]]
        unnamedMask.nodes[0].outputs = ["d", ""]
        XCTAssertEqual(try GraphOptimizer.standard.optimize(unnamedMask).nodes.map(\.name), ["r", "id"])
    }

    func testOptimizerRejectsMalformedGraphs() throws {
        let graph = chain([Node(name: "r", op: .relu, inputs: ["nowhere"], outputs: ["y"])])
        XCTAssertThrowsError(try GraphOptimizer.standard.optimize(graph)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidModel)
        }
        // A pass that breaks the graph is caught by name.
        struct Breaker: GraphPass {
            var name: String { "Breaker" }
            func run(_ graph: inout Graph) throws -> Bool {
                guard !graph.nodes.isEmpty else { return false }
                graph.nodes.removeFirst()
                return true
            }
        }
        let fine = chain([Node(name: "r", op: .relu, inputs: ["x"], outputs: ["y"])])
        XCTAssertThrowsError(try GraphOptimizer(passes: [Breaker()]).optimize(fine)) { error in
            XCTAssertTrue((error as? FoveaError)?.message.contains("Breaker") ?? false, "\(error)")
        }
    }

    func testReferenceConvAppliesActivationAfterBias() throws {
        // 1x1 conv, weight 1, bias -2: y = x - 2, then the activation.
        let x = try floats([1, 1, 1, 4], [0, 1.5, 3, .nan])
        let w = try floats([1, 1, 1, 1], [1])
        let b = try floats([1], [-2])
        func conv(_ activation: FusedActivation?) throws -> [Float] {
            let op = Op.conv(ConvAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0],
                                            activation: activation))
            return try evaluate1(op, x, w, b).floats ?? []
        }
        XCTAssertEqual(try conv(.relu), [0, 0, 1, 0])
        XCTAssertEqual(Array(try conv(.leakyRelu(alpha: 0.5)).prefix(3)), [-1, -0.25, 1])
        XCTAssertTrue(try conv(.leakyRelu(alpha: 0.5))[3].isNaN)
        XCTAssertEqual(Array(try conv(.clip(min: -1, max: 0.5)).prefix(3)), [-1, -0.5, 0.5])
        XCTAssertTrue(try conv(.clip(min: -1, max: 0.5))[3].isNaN)
        XCTAssertEqual(Array(try conv(nil).prefix(3)), [-2, -0.5, 1])
    }
}
