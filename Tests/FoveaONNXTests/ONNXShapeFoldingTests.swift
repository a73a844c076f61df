import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// The shape subgraph PyTorch writes for `x.view(x.size(0), -1)` with a
/// dynamic batch — Shape → Gather → Unsqueeze → Concat → Reshape — is folded
/// to a constant Reshape when a plan fixes the batch.
final class ONNXShapeFoldingTests: XCTestCase {
    typealias B = ONNXModelBuilder

    /// x: N×3×2×2 → Relu → r; Shape(r)[0] → Unsqueeze → Concat with [-1] → Reshape(r) → y: N×12.
    private func dynamicBatchModel(opset: Int64 = 13) -> Onnx_ModelProto {
        B.model(
            opset: opset,
            nodes: [
                B.node("Relu", ["x"], ["r"], name: "relu"),
                B.node("Shape", ["r"], ["s"], name: "shape"),
                B.node("Gather", ["s", "zero"], ["n"], name: "gather", attributes: [B.attribute("axis", int: 0)]),
                B.node("Unsqueeze", ["n", "axes"], ["n1"], name: "unsqueeze"),
                B.node("Concat", ["n1", "minus1"], ["target"], name: "concat", attributes: [B.attribute("axis", int: 0)]),
                B.node("Reshape", ["r", "target"], ["y"], name: "reshape"),
            ],
            inputs: [B.valueInfo("x", dims: ["N", 3, 2, 2])],
            outputs: [B.valueInfo("y", dims: ["N", 12])],
            initializers: [B.int64Tensor("zero", dims: [], [0]), B.int64Tensor("axes", dims: [1], [0]), B.int64Tensor("minus1", dims: [1], [-1])])
    }

    func testDynamicBatchReshapeIsFoldedForEachBatch() throws {
        let graph = try B.load(dynamicBatchModel())
        XCTAssertTrue(graph.hasComputedShapes)
        for batch in [1, 3] {
            let plan = try ExecutionPlan(graph: graph, inputShapes: ["x": [batch, 3, 2, 2]])
            XCTAssertEqual(plan.graph.nodes.map(\.name), ["relu", "reshape"], "the shape computation is gone")
            XCTAssertEqual(plan.graph.nodes[1].op, .reshape(shape: [batch, -1], allowZero: false))
            XCTAssertEqual(plan.valueTypes["y"], TensorType(.float32, [batch, 12]))
            let x = try Tensor(shape: [batch, 3, 2, 2], floats: (0..<(batch * 12)).map { Float($0 % 5) - 2 })
            let y = try XCTUnwrap(try plan.run(["x": x])["y"])
            XCTAssertEqual(y.shape, [batch, 12])
            XCTAssertEqual(y.floats, x.floats?.map { Swift.max($0, 0) })
        }
    }

    func testFoldingKeepsTheInputGraphAndItsTypes() throws {
        let graph = try B.load(dynamicBatchModel())
        let (folded, types) = try graph.foldingShapeComputations(inputShapes: ["x": [2, 3, 2, 2]])
        XCTAssertEqual(types["target"], TensorType(.int64, [2]))
        XCTAssertEqual(folded.inputs.map(\.name), ["x"])
        XCTAssertEqual(folded.outputs.map(\.name), ["y"])
        XCTAssertTrue(folded.initializers.isEmpty, "folded values only the removed nodes read are dropped")
        XCTAssertFalse(folded.hasComputedShapes)
        // Without a concrete batch there is nothing to fold with.
        assertFoveaError(.invalidArgument, containing: "input 'x' has shape N×3×2×2 with symbolic dimensions") { try graph.inferTypes() }
    }

    func testReshapeOfRunTimeValuesIsATypedErrorAtPlanTime() throws {
        // The target depends on the data (ArgMax of x), not on shapes.
        let model = B.model(
            nodes: [
                B.node("ArgMax", ["x"], ["k"], attributes: [B.attribute("axis", int: 1), B.attribute("keepdims", int: 0)]),
                B.node("Reshape", ["x", "k"], ["y"], name: "reshape"),
            ],
            inputs: [B.valueInfo("x", dims: [2, 2])], outputs: [B.valueInfo("y", dims: nil)])
        let graph = try B.load(model)
        assertFoveaError(.unsupported, containing: "node 'reshape' (Reshape, opset 13): the target shape is computed from values known only at run time") {
            try ExecutionPlan(graph: graph)
        }
    }
}
