import XCTest
@testable import FoveaCore

/// FuseConvAdd: which residual Adds fold into the Conv before them, where the
/// fused node goes, and that the optimized graph computes what the original did.
final class FuseConvAddTests: XCTestCase {
    private func conv(group: Int = 1) -> ConvAttributes {
        ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1], group: group)
    }

    /// x[1,4,5,5]; w1 (4→4, 3×3) with bias b1; w2 (4→4, 3×3, no bias); wg (grouped, 2 groups).
    private func graph(_ nodes: [Node], outputs: [String] = ["y"]) -> Graph {
        Graph(inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(1), .known(4), .known(5), .known(5)])],
              outputs: outputs.map { ValueInfo(name: $0, dataType: .float32, dimensions: nil) },
              nodes: nodes,
              initializers: ["w1": seeded([4, 4, 3, 3], seed: 1), "b1": seeded([4], seed: 2),
                             "w2": seeded([4, 4, 3, 3], seed: 3), "wg": seeded([4, 2, 3, 3], seed: 4),
                             "row": seeded([1, 4, 1, 5], seed: 5)])
    }

    private func seeded(_ shape: [Int], seed: UInt64) -> Tensor {
        var generator = SeededGenerator(seed: seed)
        return Tensor(uncheckedShape: shape, floats: (0..<shape.elementCount).map { _ in Float.random(in: -1...1, using: &generator) })
    }

    private func outputs(_ graph: Graph, seed: UInt64 = 9) throws -> [String: Tensor] {
        try ExecutionPlan(graph: graph).run(["x": seeded([1, 4, 5, 5], seed: seed)], context: RunContext(threads: 1))
    }

    private func attributes(_ node: Node) -> ConvAttributes? {
        if case .conv(let attributes) = node.op { return attributes }
        return nil
    }

    /// ResNet's bottleneck end: Relu(Conv(a) + shortcut), the shortcut computed after the Conv.
    func testFusesResidualAddAndTheReluAfterIt() throws {
        let original = graph([
            Node(name: "a", op: .conv(conv()), inputs: ["x", "w1", "b1"], outputs: ["a_out"]),
            Node(name: "main", op: .conv(conv()), inputs: ["a_out", "w2"], outputs: ["main_out"]),
            Node(name: "shortcut", op: .conv(conv()), inputs: ["x", "w2"], outputs: ["s_out"]),
            Node(name: "add", op: .add, inputs: ["main_out", "s_out"], outputs: ["sum"]),
            Node(name: "relu", op: .relu, inputs: ["sum"], outputs: ["y"]),
        ])
        let optimized = try GraphOptimizer.standard.optimize(original)
        XCTAssertEqual(optimized.nodes.map(\.name), ["a", "shortcut", "main"], "the fused node takes the Add's place")
        let fused = optimized.nodes[2]
        XCTAssertEqual(fused.inputs, ["a_out", "w2", "", "s_out"], "the residual is input 3, after an absent bias")
        XCTAssertEqual(fused.outputs, ["y"])
        XCTAssertEqual(attributes(fused)?.addsResidual, true)
        XCTAssertEqual(attributes(fused)?.activation, .relu)
        XCTAssertEqual(attributes(fused)?.fusionSuffix, " +add +relu")
        XCTAssertEqual(try ExecutionPlan(graph: optimized).assignments.map(\.algorithm).last, "reference +add +relu")
        // The reference computes conv, add and relu as the three nodes did: the same bits.
        XCTAssertEqual(try outputs(optimized)["y"], try outputs(original)["y"])
    }

    /// The Conv on either side of the Add, with a bias; no activation after it.
    func testFusesConvOnEitherSide() throws {
        for convFirst in [true, false] {
            let original = graph([
                Node(name: "rx", op: .relu, inputs: ["x"], outputs: ["rx"]),
                Node(name: "c", op: .conv(conv()), inputs: ["x", "w1", "b1"], outputs: ["c_out"]),
                Node(name: "add", op: .add, inputs: convFirst ? ["c_out", "rx"] : ["rx", "c_out"], outputs: ["y"]),
            ])
            let optimized = try GraphOptimizer.standard.optimize(original)
            XCTAssertEqual(optimized.nodes.map(\.name), ["rx", "c"], "conv first: \(convFirst)")
            XCTAssertEqual(optimized.nodes[1].inputs, ["x", "w1", "b1", "rx"])
            XCTAssertEqual(attributes(optimized.nodes[1])?.activation, nil)
            XCTAssertEqual(try outputs(optimized)["y"], try outputs(original)["y"])
        }
    }

    /// Conv + Conv: one of the two takes the other's output as its residual.
    func testFusesOneOfTwoConvs() throws {
        let original = graph([
            Node(name: "s", op: .conv(conv()), inputs: ["x", "w2"], outputs: ["s_out"]),
            Node(name: "c", op: .conv(conv()), inputs: ["x", "w1", "b1"], outputs: ["c_out"]),
            Node(name: "add", op: .add, inputs: ["s_out", "c_out"], outputs: ["y"]),
        ])
        let optimized = try GraphOptimizer.standard.optimize(original)
        XCTAssertEqual(optimized.nodes.count, 2)
        XCTAssertEqual(optimized.nodes.filter { attributes($0)?.addsResidual == true }.count, 1)
        XCTAssertEqual(try outputs(optimized)["y"], try outputs(original)["y"])
    }

    /// Cases that must stay as they are.
    func testLeavesAddsThatAreNotResidualsOfOneConv() throws {
        var activated = conv()
        activated.activation = .relu
        let cases: [(String, [Node], [String])] = [
            // Relu(Conv(x)) + r is not Relu(Conv(x) + r).
            ("activation before the add", [
                Node(name: "c", op: .conv(conv()), inputs: ["x", "w1"], outputs: ["c_out"]),
                Node(name: "relu", op: .relu, inputs: ["c_out"], outputs: ["r"]),
                Node(name: "add", op: .add, inputs: ["r", "rx"], outputs: ["y"]),
            ], ["y"]),
            // The Conv's output is read twice.
            ("two readers", [
                Node(name: "c", op: .conv(conv()), inputs: ["x", "w1"], outputs: ["c_out"]),
                Node(name: "add", op: .add, inputs: ["c_out", "rx"], outputs: ["y"]),
                Node(name: "relu", op: .relu, inputs: ["c_out"], outputs: ["z"]),
            ], ["y", "z"]),
            // The Conv's output is a graph output.
            ("graph output", [
                Node(name: "c", op: .conv(conv()), inputs: ["x", "w1"], outputs: ["c_out"]),
                Node(name: "add", op: .add, inputs: ["c_out", "rx"], outputs: ["y"]),
            ], ["y", "c_out"]),
            // The other input broadcasts: the fused step adds a tensor of the output's shape only.
            ("broadcast", [
                Node(name: "c", op: .conv(conv()), inputs: ["x", "w1"], outputs: ["c_out"]),
                Node(name: "add", op: .add, inputs: ["c_out", "row"], outputs: ["y"]),
            ], ["y"]),
            // Conv(x) + x where the residual is the Conv's own input, read while the output is written.
            ("residual is X", [
                Node(name: "c", op: .conv(conv()), inputs: ["a", "w1"], outputs: ["c_out"]),
                Node(name: "add", op: .add, inputs: ["c_out", "a"], outputs: ["y"]),
            ], ["y"]),
            // Grouped convolutions keep their Add (depthwise kernels have no residual start).
            ("grouped", [
                Node(name: "c", op: .conv(conv(group: 2)), inputs: ["x", "wg"], outputs: ["c_out"]),
                Node(name: "add", op: .add, inputs: ["c_out", "rx"], outputs: ["y"]),
            ], ["y"]),
        ]
        for (name, nodes, outs) in cases {
            // rx = Relu(x): a residual no pass touches.
            var all = [Node(name: "rx", op: .relu, inputs: ["x"], outputs: ["rx"])] + nodes
            if name == "residual is X" {
                all.insert(Node(name: "pre", op: .conv(activated), inputs: ["x", "w2"], outputs: ["a"]), at: 1)
            }
            let original = graph(all, outputs: outs)
            let optimized = try GraphOptimizer.standard.optimize(original)
            XCTAssertTrue(optimized.nodes.contains { $0.op == .add }, "\(name): the Add was fused")
            XCTAssertFalse(optimized.nodes.contains { attributes($0)?.addsResidual == true }, name)
        }
    }

    /// --no-fuse leaves the Add.
    func testOptionOffLeavesTheAdd() throws {
        let original = graph([
            Node(name: "c", op: .conv(conv()), inputs: ["x", "w1", "b1"], outputs: ["c_out"]),
            Node(name: "add", op: .add, inputs: ["c_out", "x"], outputs: ["y"]),
        ])
        let options = OptimizationOptions(foldBatchNormalization: true, fuseActivations: false, elideConcat: true)
        XCTAssertEqual(try GraphOptimizer(options).optimize(original).nodes, original.nodes)
    }

    /// A Conv node that claims a residual must have one of the output's shape, and a plain Conv no fourth input.
    func testShapeInferenceChecksTheResidual() throws {
        var residual = conv()
        residual.addsResidual = true
        let x = TensorType(.float32, [1, 4, 5, 5]), w = TensorType(.float32, [4, 4, 3, 3])
        XCTAssertEqual(try Op.conv(residual).outputTypes(inputs: [x, w, nil, x], outputCount: 1), [x])
        XCTAssertThrowsError(try Op.conv(residual).outputTypes(inputs: [x, w, nil, TensorType(.float32, [1, 4, 1, 5])], outputCount: 1)) {
            XCTAssertEqual(($0 as? FoveaError)?.kind, .shapeMismatch)
        }
        XCTAssertThrowsError(try Op.conv(residual).outputTypes(inputs: [x, w], outputCount: 1))
        XCTAssertThrowsError(try Op.conv(conv()).outputTypes(inputs: [x, w, nil, x], outputCount: 1)) {
            XCTAssertEqual(($0 as? FoveaError)?.kind, .invalidModel)
        }
        XCTAssertEqual(Op.conv(residual).inputArity, 4...4)
    }
}
