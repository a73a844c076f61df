import XCTest
@testable import FoveaCore

/// Whole graphs through `ExecutionPlan`, and the errors of `Graph.validate()` and `ExecutionPlan`.
final class ExecutionPlanTests: XCTestCase {
    /// conv → relu → maxpool → globalavgpool → flatten → gemm → softmax on an N×1×4×4 input.
    private func smallClassifier(batch: TensorDimension = .symbolic("N")) throws -> Graph {
        // Conv channel 0 is a 3×3 box blur; channel 1 is x[i, j] - x[i+1, j+1] - 1.
        let blur = [Float](repeating: 1.0 / 9, count: 9)
        let edge: [Float] = [0, 0, 0, 0, 1, 0, 0, 0, -1]
        let initializers: [String: Tensor] = [
            "W": try floats([2, 1, 3, 3], blur + edge),
            "B": try floats([2], [0, -1]),
            "G": try floats([3, 2], [1, 0, 0, 1, 1, -1]),
            "C": try floats([3], [0, 0.5, -0.5]),
        ]
        let pad1 = ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1])
        let pool = PoolAttributes(kernelShape: [2, 2], strides: [2, 2], dilations: [1, 1], pads: [0, 0, 0, 0])
        let nodes = [
            Node(name: "conv", op: .conv(pad1), inputs: ["x", "W", "B"], outputs: ["c"]),
            Node(name: "relu", op: .relu, inputs: ["c"], outputs: ["r"]),
            Node(name: "pool", op: .maxPool(pool), inputs: ["r"], outputs: ["p"]),
            Node(name: "gap", op: .globalAveragePool, inputs: ["p"], outputs: ["g"]),
            Node(name: "flatten", op: .flatten(axis: 1), inputs: ["g"], outputs: ["f"]),
            Node(name: "fc", op: .gemm(GemmAttributes(transB: true)), inputs: ["f", "G", "C"], outputs: ["logits"]),
            Node(name: "softmax", op: .softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), inputs: ["logits"], outputs: ["prob"]),
        ]
        return Graph(name: "small",
                     inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [batch, .known(1), .known(4), .known(4)])],
                     outputs: [ValueInfo(name: "prob", dataType: .float32, dimensions: nil),
                               ValueInfo(name: "logits", dataType: .float32, dimensions: nil)],
                     nodes: nodes, initializers: initializers)
    }

    func testSmallClassifierBatchOne() throws {
        let plan = try ExecutionPlan(graph: try smallClassifier(), inputShapes: ["x": [1, 1, 4, 4]])
        XCTAssertEqual(plan.valueTypes["p"], f32([1, 2, 2, 2]))
        XCTAssertEqual(plan.valueTypes["prob"], f32([1, 3]))
        // x = 0, 1/8, ..., 15/8. By hand (checked with numpy): the pooled features are
        // [0.9375, 0.375] (channel 1: relu leaves only x[3, 1] - 1 = 0.625 and x[3, 3] - 1 = 0.875;
        // max-pooled to [0, 0, 0.625, 0.875], mean 0.375); logits = [f0, f1 + 0.5, f0 - f1 - 0.5].
        let x = Tensor(uncheckedShape: [1, 1, 4, 4], floats: (0..<16).map { Float($0) / 8 })
        let outputs = try plan.run(["x": x])
        assertClose(try XCTUnwrap(outputs["logits"]), [1, 3], [0.9375, 0.875, 0.0625])
        assertClose(try XCTUnwrap(outputs["prob"]), [1, 3], [0.42439867, 0.39868565, 0.17691568])
    }

    func testBatchOfThreeEqualsThreeSingleRuns() throws {
        let graph = try smallClassifier()
        let single = try ExecutionPlan(graph: graph, inputShapes: ["x": [1, 1, 4, 4]])
        let batched = try ExecutionPlan(graph: graph, inputShapes: ["x": [3, 1, 4, 4]])
        let images: [[Float]] = (0..<3).map { item in (0..<16).map { Float(($0 * (item + 3)) % 7) - 2 } }
        let batchOutput = try batched.run(["x": try floats([3, 1, 4, 4], images.flatMap { $0 })])
        var expected: [Float] = []
        for image in images {
            expected += try XCTUnwrap(try single.run(["x": try floats([1, 1, 4, 4], image)])["prob"]?.floats)
        }
        let probabilities = try XCTUnwrap(batchOutput["prob"])
        XCTAssertEqual(probabilities.shape, [3, 3])
        XCTAssertEqual(probabilities.floats, expected, "each batch item is computed exactly as alone")
    }

    func testPlanErrors() throws {
        let plan = try ExecutionPlan(graph: try smallClassifier(), inputShapes: ["x": [1, 1, 4, 4]])
        assertFoveaError(.invalidArgument, "missing input 'x'") { try plan.run([:]) }
        assertFoveaError(.shapeMismatch, "input 'x'", "1×1×4×4") {
            try plan.run(["x": iota([2, 1, 4, 4])])
        }
        assertFoveaError(.shapeMismatch, "input 'x'") {
            try plan.run(["x": try Tensor(shape: [1, 1, 4, 4], int64s: [Int64](repeating: 0, count: 16))])
        }
        assertFoveaError(.invalidArgument, "'y' is not an input") {
            try plan.run(["x": iota([1, 1, 4, 4]), "y": iota([1])])
        }
        // A symbolic batch needs a concrete shape; a wrong channel count is refused.
        assertFoveaError(.invalidArgument, "symbolic") { try ExecutionPlan(graph: try self.smallClassifier()) }
        assertFoveaError(.shapeMismatch, "input 'x'") {
            try ExecutionPlan(graph: try self.smallClassifier(), inputShapes: ["x": [1, 2, 4, 4]])
        }
    }

    func testShapeErrorsNameTheNode() throws {
        var graph = try smallClassifier(batch: .known(1))
        graph.initializers["W"] = Tensor(shape: [2, 3, 3, 3], repeating: 0)
        assertFoveaError(.shapeMismatch, "node 'conv' (Conv)", "3 input channels per group", "has 1 channels") {
            try graph.validate()
        }
        graph.initializers["W"] = Tensor(shape: [2, 1, 3, 3], repeating: 0)
        graph.initializers["G"] = Tensor(shape: [3, 5], repeating: 0)
        assertFoveaError(.shapeMismatch, "node 'fc' (Gemm)", "inner dimensions differ") {
            try ExecutionPlan(graph: graph)
        }
    }

    func testValidationErrors() throws {
        let x = ValueInfo(name: "x", dataType: .float32, dimensions: [.known(2)])
        let out = ValueInfo(name: "y", dataType: .float32, dimensions: nil)
        // Used before it is produced.
        let early = Graph(inputs: [x], outputs: [out], nodes: [
            Node(name: "a", op: .relu, inputs: ["t"], outputs: ["y"]),
            Node(name: "b", op: .relu, inputs: ["x"], outputs: ["t"]),
        ])
        assertFoveaError(.invalidModel, "node 'a'", "'t' is produced by node 'b', which comes later") { try early.validate() }
        // Produced twice.
        let twice = Graph(inputs: [x], outputs: [out], nodes: [
            Node(name: "a", op: .relu, inputs: ["x"], outputs: ["y"]),
            Node(name: "b", op: .sigmoid, inputs: ["x"], outputs: ["y"]),
        ])
        assertFoveaError(.invalidModel, "node 'b'", "'y' is already produced") { try twice.validate() }
        // A required input left empty.
        let conv = ConvAttributes(kernelShape: [1], strides: [1], dilations: [1], pads: [0, 0])
        let missing = Graph(inputs: [x], outputs: [out], nodes: [
            Node(name: "c", op: .conv(conv), inputs: ["x", ""], outputs: ["y"]),
        ])
        assertFoveaError(.invalidModel, "node 'c'", "required input 1 is missing") { try missing.validate() }
        // A graph output nothing produces.
        let unknown = Graph(inputs: [x], outputs: [ValueInfo(name: "nope", dataType: .float32, dimensions: nil)], nodes: [
            Node(name: "a", op: .relu, inputs: ["x"], outputs: ["y"]),
        ])
        assertFoveaError(.invalidModel, "graph output 'nope' is never produced") { try unknown.validate() }
        // The same graph, fixed, validates and runs.
        let fixed = Graph(inputs: [x], outputs: [out], nodes: [Node(name: "a", op: .relu, inputs: ["x"], outputs: ["y"])])
        XCTAssertNoThrow(try fixed.validate())
        XCTAssertEqual(try ExecutionPlan(graph: fixed).run(["x": try floats([2], [-1, 1])])["y"]?.floats, [0, 1])
    }

    func testOptionalOutputsAndConstants() throws {
        // Dropout's mask output and a Shape → (int64) graph output.
        let x = ValueInfo(name: "x", dataType: .float32, dimensions: [.known(2), .known(3)])
        let graph = Graph(inputs: [x],
                          outputs: [ValueInfo(name: "mask", dataType: .bool, dimensions: nil),
                                    ValueInfo(name: "dims", dataType: .int64, dimensions: nil)],
                          nodes: [Node(name: "drop", op: .dropout, inputs: ["x"], outputs: ["d", "mask"]),
                                  Node(name: "shape", op: .shape(start: 0, end: nil), inputs: ["d"], outputs: ["dims"])])
        let outputs = try ExecutionPlan(graph: graph).run(["x": iota([2, 3])])
        XCTAssertEqual(outputs["mask"]?.bools, [Bool](repeating: true, count: 6))
        XCTAssertEqual(outputs["dims"]?.int64s, [2, 3])

        // An unnamed optional output ("") is allowed.
        let unnamed = Graph(inputs: [x], outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: nil)],
                            nodes: [Node(name: "drop", op: .dropout, inputs: ["x"], outputs: ["y", ""])])
        XCTAssertEqual(try ExecutionPlan(graph: unnamed).run(["x": iota([2, 3])])["y"], iota([2, 3]))
    }
}
