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
        assertFoveaError(.unsupported, containing: "node 'reshape' (Reshape, opset 13): the parameters of Reshape are computed from values known only at run time") {
            try ExecutionPlan(graph: graph)
        }
    }

    /// ViT's class token, `cls.expand(x.size(0), -1, -1)` (exported with 1s,
    /// as ONNX Expand has no -1), a constant from
    /// `x.new_zeros(x.shape[:1])`-style ConstantOfShape, and `x[:, :x.size(1) - 1]`:
    /// Expand, ConstantOfShape and Slice parameters computed from the batch.
    func testComputedExpandConstantOfShapeAndSliceAreFolded() throws {
        let model = B.model(
            nodes: [
                B.node("Shape", ["x"], ["s"]),
                B.node("Gather", ["s", "zero"], ["n"], attributes: [B.attribute("axis", int: 0)]),
                B.node("Unsqueeze", ["n", "axes"], ["n1"]),
                B.node("Concat", ["n1", "one1", "one1"], ["target"], attributes: [B.attribute("axis", int: 0)]),
                B.node("Expand", ["cls", "target"], ["tokens"], name: "expand"),
                B.node("Concat", ["tokens", "x"], ["joined"], attributes: [B.attribute("axis", int: 1)]),
                B.node("ConstantOfShape", ["n1"], ["zeros"], name: "zeros",
                       attributes: [B.attribute("value", tensor: B.floatTensor("v", dims: [1], [0.5]))]),
                B.node("Gather", ["s", "one"], ["c"], attributes: [B.attribute("axis", int: 0)]),
                B.node("Unsqueeze", ["c", "axes"], ["c1"]),
                B.node("Slice", ["joined", "zero1", "c1", "one1"], ["head"], name: "slice"),
                B.node("Unsqueeze", ["zeros", "tail"], ["z"], name: "unsqueeze"),
                B.node("Add", ["head", "z"], ["y"]),
            ],
            inputs: [B.valueInfo("x", dims: ["N", 3, 2])],
            outputs: [B.valueInfo("y", dims: nil)],
            initializers: [
                B.int64Tensor("zero", dims: [], [0]), B.int64Tensor("one", dims: [], [1]), B.int64Tensor("axes", dims: [1], [0]),
                B.int64Tensor("zero1", dims: [1], [0]), B.int64Tensor("one1", dims: [1], [1]),
                B.int64Tensor("tail", dims: [2], [1, 2]), B.floatTensor("cls", dims: [1, 1, 2], [7, 8]),
            ])
        let graph = try B.load(model)
        XCTAssertEqual(graph.nodes.first { $0.name == "expand" }?.op, .withComputedParameters(.expand))
        let plan = try ExecutionPlan(graph: graph, inputShapes: ["x": [2, 3, 2]])
        XCTAssertEqual(plan.graph.nodes.first { $0.name == "expand" }?.op, .expand(shape: [2, 1, 1]))
        XCTAssertEqual(plan.graph.nodes.first { $0.name == "slice" }?.op, .slice(starts: [0], ends: [3], axes: [1], steps: nil))
        XCTAssertNil(plan.graph.nodes.first { $0.name == "zeros" }, "ConstantOfShape became a constant")
        XCTAssertEqual(plan.graph.initializers["zeros"], try Tensor(shape: [2], floats: [0.5, 0.5]))
        let x = try Tensor(shape: [2, 3, 2], floats: (0..<12).map(Float.init))
        let y = try XCTUnwrap(try plan.run(["x": x])["y"])
        // Per image: the class token, then the first two rows of x; all + 0.5.
        XCTAssertEqual(y.shape, [2, 3, 2])
        XCTAssertEqual(y.floats, [7, 8, 0, 1, 2, 3, 7, 8, 6, 7, 8, 9].map { $0 + 0.5 })
    }

    /// `x[:, : x.size(1) - 1]` and `x.view(n, numel // n)`: int64 Sub, Div and Size in the shape computation.
    func testIntegerShapeArithmeticIsFolded() throws {
        let model = B.model(
            nodes: [
                B.node("Shape", ["x"], ["s"]),
                B.node("Gather", ["s", "one"], ["c"], attributes: [B.attribute("axis", int: 0)]),
                B.node("Sub", ["c", "one"], ["c1"]),
                B.node("Unsqueeze", ["c1", "axes"], ["end"]),
                B.node("Slice", ["x", "zero1", "end", "axes1"], ["head"], name: "slice"),
                B.node("Gather", ["s", "zero"], ["n"], attributes: [B.attribute("axis", int: 0)]),
                B.node("Size", ["head"], ["count"]),
                B.node("Div", ["count", "n"], ["per"]),
                B.node("Unsqueeze", ["n", "axes"], ["n1"]),
                B.node("Unsqueeze", ["per", "axes"], ["per1"]),
                B.node("Concat", ["n1", "per1"], ["target"], attributes: [B.attribute("axis", int: 0)]),
                B.node("Reshape", ["head", "target"], ["y"], name: "reshape"),
            ],
            inputs: [B.valueInfo("x", dims: ["N", 4, 2])], outputs: [B.valueInfo("y", dims: nil)],
            initializers: [B.int64Tensor("zero", dims: [], [0]), B.int64Tensor("one", dims: [], [1]), B.int64Tensor("axes", dims: [1], [0]),
                           B.int64Tensor("zero1", dims: [1], [0]), B.int64Tensor("axes1", dims: [1], [1])])
        let plan = try ExecutionPlan(graph: try B.load(model), inputShapes: ["x": [2, 4, 2]])
        XCTAssertEqual(plan.graph.nodes.map(\.name), ["slice", "reshape"])
        XCTAssertEqual(plan.graph.nodes[0].op, .slice(starts: [0], ends: [3], axes: [1], steps: nil))
        XCTAssertEqual(plan.graph.nodes[1].op, .reshape(shape: [2, 6], allowZero: false))
        let x = try Tensor(shape: [2, 4, 2], floats: (0..<16).map(Float.init))
        XCTAssertEqual(try plan.run(["x": x])["y"]?.floats, [0, 1, 2, 3, 4, 5, 8, 9, 10, 11, 12, 13])
    }

    /// Swin-T's padding to a multiple of the window, `(w - W % w) % w`, as
    /// torch.onnx writes it: Mod on shape values, then a constant-mode Pad whose
    /// pads the graph computes (refused as "must be a constant" before).
    func testPadWithPadsComputedFromTheShapeIsFolded() throws {
        let model = B.model(
            nodes: [
                B.node("Shape", ["x"], ["s"]),
                B.node("Gather", ["s", "three"], ["w"], attributes: [B.attribute("axis", int: 0)]),
                B.node("Mod", ["w", "window"], ["m"]),
                B.node("Sub", ["window", "m"], ["d"]),
                B.node("Mod", ["d", "window"], ["right"]),
                B.node("Unsqueeze", ["right", "axes"], ["right1"]),
                B.node("Concat", ["zeros", "right1"], ["pads"], attributes: [B.attribute("axis", int: 0)]),
                B.node("Pad", ["x", "pads", "fill"], ["y"], name: "pad"),
            ],
            inputs: [B.valueInfo("x", dims: [1, 1, 2, 5])], outputs: [B.valueInfo("y", dims: nil)],
            initializers: [B.int64Tensor("three", dims: [], [3]), B.int64Tensor("window", dims: [], [4]),
                           B.int64Tensor("axes", dims: [1], [0]), B.int64Tensor("zeros", dims: [7], [0, 0, 0, 0, 0, 0, 0]),
                           B.floatTensor("fill", dims: [], [-1])])
        let graph = try B.load(model)
        XCTAssertTrue(graph.hasComputedShapes)
        let plan = try ExecutionPlan(graph: graph)
        // 5 % 4 = 1 → (4 - 1) % 4 = 3 columns on the right.
        XCTAssertEqual(plan.graph.nodes.map(\.op), [.pad(pads: [0, 0, 0, 0, 0, 0, 0, 3], value: -1, axes: nil)])
        let y = try XCTUnwrap(try plan.run(["x": try Tensor(shape: [1, 1, 2, 5], floats: (1...10).map(Float.init))])["y"])
        XCTAssertEqual(y.shape, [1, 1, 2, 8])
        XCTAssertEqual(y.floats, [1, 2, 3, 4, 5, -1, -1, -1, 6, 7, 8, 9, 10, -1, -1, -1])
    }

    /// Range with a limit computed from the shape (Swin-T counts over its window
    /// this way), refused as "must be a constant" before: folded to a constant.
    func testRangeWithAComputedLimitIsFolded() throws {
        let model = B.model(
            nodes: [
                B.node("Shape", ["x"], ["s"]),
                B.node("Gather", ["s", "three"], ["w"], attributes: [B.attribute("axis", int: 0)]),
                B.node("Range", ["zero", "w", "one"], ["r"]),
                B.node("Cast", ["r"], ["rf"], attributes: [B.attribute("to", int: 1)]),
                B.node("Add", ["x", "rf"], ["y"], name: "add"),
            ],
            inputs: [B.valueInfo("x", dims: [1, 1, 2, 5])], outputs: [B.valueInfo("y", dims: nil)],
            initializers: [B.int64Tensor("three", dims: [], [3]), B.int64Tensor("zero", dims: [], [0]), B.int64Tensor("one", dims: [], [1])])
        let graph = try B.load(model)
        XCTAssertTrue(graph.hasComputedShapes)
        let plan = try ExecutionPlan(graph: graph)
        // Range becomes a constant; the Cast to float32 stays (float math is not folded).
        XCTAssertEqual(plan.graph.nodes.map(\.op.typeName), ["Cast", "Add"])
        let y = try XCTUnwrap(try plan.run(["x": try Tensor(shape: [1, 1, 2, 5], floats: [Float](repeating: 10, count: 10))])["y"])
        XCTAssertEqual(y.floats, [10, 11, 12, 13, 14, 10, 11, 12, 13, 14])
    }
}
