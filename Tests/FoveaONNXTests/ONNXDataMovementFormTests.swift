import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// How Slice, Split, Gather, Expand, Tile, Cast, DepthToSpace, ConstantOfShape
/// and Range are read at each opset, and their errors.
final class ONNXDataMovementFormTests: XCTestCase {
    typealias B = ONNXModelBuilder

    private func load(_ type: String, _ inputs: [String] = ["x"], _ attributes: [Onnx_AttributeProto] = [], outputs: [String] = ["y"],
                      opset: Int64 = 13, initializers: [Onnx_TensorProto] = []) throws -> Graph {
        let node = B.node(type, inputs, outputs, name: "n", attributes: attributes)
        return try B.load(B.singleNode(node, opset: opset, initializers: initializers, outputs: outputs))
    }

    private func ints(_ name: String, _ values: [Int64]) -> Onnx_TensorProto { B.int64Tensor(name, dims: [Int64(values.count)], values) }

    func testSliceAsAttributesAndAsConstantInputs() throws {
        XCTAssertEqual(try load("Slice", ["x"], [B.attribute("starts", ints: [1]), B.attribute("ends", ints: [3]), B.attribute("axes", ints: [2])], opset: 9).nodes[0].op,
                       .slice(starts: [1], ends: [3], axes: [2], steps: nil))
        let graph = try load("Slice", ["x", "s", "e", "a", "st"], initializers: [ints("s", [0]), ints("e", [-1]), ints("a", [3]), ints("st", [2])])
        XCTAssertEqual(graph.nodes[0].op, .slice(starts: [0], ends: [-1], axes: [3], steps: [2]))
        XCTAssertEqual(graph.nodes[0].inputs, ["x"])
        assertFoveaError(.invalidAttribute, containing: "required attribute 'ends' is missing") {
            try self.load("Slice", ["x"], [B.attribute("starts", ints: [1])], opset: 9)
        }
        // Bounds the graph computes load as computed parameters; from run-time data they cannot be planned.
        let computed = try load("Slice", ["x", "x", "e"], initializers: [ints("e", [1])])
        XCTAssertEqual(computed.nodes[0].op, .withComputedParameters(.slice))
        assertFoveaError(.unsupported, containing: "node 'n' (Slice, opset 13): the parameters of Slice are computed from values known only at run time") {
            try computed.inferTypes()
        }
    }

    func testSplitSizesAndNumOutputs() throws {
        XCTAssertEqual(try load("Split", ["x"], [B.attribute("split", ints: [1, 1]), B.attribute("axis", int: 1)], outputs: ["a", "b"], opset: 11).nodes[0].op,
                       .split(axis: 1, sizes: [1, 1]))
        XCTAssertEqual(try load("Split", ["x", "s"], outputs: ["a", "b"], initializers: [ints("s", [3, 1])]).nodes[0].op, .split(axis: 0, sizes: [3, 1]))
        XCTAssertEqual(try load("Split", ["x"], [B.attribute("num_outputs", int: 2)], outputs: ["a", "b"], opset: 18).nodes[0].op, .split(axis: 0, sizes: nil))
        assertFoveaError(.invalidAttribute, containing: "attribute 'num_outputs' is 3 but the node has 2 outputs") {
            try self.load("Split", ["x"], [B.attribute("num_outputs", int: 3)], outputs: ["a", "b"], opset: 18)
        }
        assertFoveaError(.invalidModel, containing: "needs the input 'split' or the attribute 'num_outputs'") {
            try self.load("Split", ["x"], outputs: ["a", "b"], opset: 18)
        }
    }

    func testCastTargetsAndRefusals() throws {
        XCTAssertEqual(try load("Cast", ["x"], [B.attribute("to", int: 7)]).nodes[0].op, .cast(to: .int64))
        // DOUBLE and FLOAT16 tensors load as float32, so casting to them is a float32 cast.
        XCTAssertEqual(try load("Cast", ["x"], [B.attribute("to", int: 11)]).nodes[0].op, .cast(to: .float32))
        XCTAssertEqual(try load("Cast", ["x"], [B.attribute("to", int: 9), B.attribute("saturate", int: 1)], opset: 19).nodes[0].op, .cast(to: .bool))
        XCTAssertEqual(try load("Cast", ["x"], [B.attribute("to", int: 2)]).nodes[0].op, .cast(to: .uint8))
        assertFoveaError(.unsupported, containing: "attribute 'to' is STRING; Fovea casts to FLOAT, DOUBLE, FLOAT16, INT64, INT32, UINT8, INT8 or BOOL") {
            try self.load("Cast", ["x"], [B.attribute("to", int: 8)])
        }
        assertFoveaError(.invalidAttribute, containing: "required attribute 'to' is missing") { try self.load("Cast") }
    }

    func testDepthToSpaceModesAndBlockSize() throws {
        XCTAssertEqual(try load("DepthToSpace", ["x"], [B.attribute("blocksize", int: 2)]).nodes[0].op, .depthToSpace(blockSize: 2, columnRowDepth: false))
        XCTAssertEqual(try load("DepthToSpace", ["x"], [B.attribute("blocksize", int: 2), B.attribute("mode", string: "CRD")]).nodes[0].op,
                       .depthToSpace(blockSize: 2, columnRowDepth: true))
        assertFoveaError(.invalidAttribute, containing: "attribute 'mode' is 'XYZ'; expected DCR or CRD") {
            try self.load("DepthToSpace", ["x"], [B.attribute("blocksize", int: 2), B.attribute("mode", string: "XYZ")])
        }
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'mode'; DepthToSpace in opset 10") {
            try self.load("DepthToSpace", ["x"], [B.attribute("blocksize", int: 2), B.attribute("mode", string: "CRD")], opset: 10)
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'blocksize' is 0; expected >= 1") {
            try self.load("SpaceToDepth", ["x"], [B.attribute("blocksize", int: 0)])
        }
    }

    func testConstantOfShapeAndRangeBecomeConstantsThatLaterNodesRead() throws {
        // ConstantOfShape([4]) of int64 1 → Expand's shape... here as the Tile repeats.
        let value = B.attribute("value", tensor: B.int64Tensor("v", dims: [1], [1]))
        let model = B.model(
            nodes: [
                B.node("ConstantOfShape", ["dims"], ["ones"], attributes: [value]),
                B.node("Tile", ["x", "ones"], ["tiled"]),
                B.node("Range", ["start", "limit", "delta"], ["r"]),
                B.node("Add", ["tiled", "r"], ["y"]),
            ],
            inputs: [B.valueInfo("x", dims: [1, 2, 4, 4])], outputs: [B.valueInfo("y", dims: nil)],
            initializers: [ints("dims", [4]), B.floatTensor("start", dims: [], [0]), B.floatTensor("limit", dims: [], [2]), B.floatTensor("delta", dims: [], [0.5])])
        let graph = try B.load(model)
        XCTAssertEqual(graph.nodes.map(\.op.typeName), ["Tile", "Add"])
        XCTAssertEqual(graph.nodes[0].op, .tile(repeats: [1, 1, 1, 1]))
        XCTAssertEqual(graph.initializers["r"], try Tensor(shape: [4], floats: [0, 0.5, 1, 1.5]))
        XCTAssertNil(graph.initializers["ones"], "read only as a parameter, so dropped")

        let intRange = try load("Range", ["a", "b", "c"], opset: 11,
                                initializers: [B.int64Tensor("a", dims: [], [10]), B.int64Tensor("b", dims: [], [4]), B.int64Tensor("c", dims: [], [-3])])
        XCTAssertEqual(intRange.initializers["y"], try Tensor(shape: [2], int64s: [10, 7]))
        assertFoveaError(.invalidModel, containing: "input 'delta' is 0") {
            try self.load("Range", ["a", "b", "c"], opset: 11,
                          initializers: [B.int64Tensor("a", dims: [], [0]), B.int64Tensor("b", dims: [], [4]), B.int64Tensor("c", dims: [], [0])])
        }
        assertFoveaError(.invalidModel, containing: "expected non-negative dimensions with at most 67108864 elements") {
            try self.load("ConstantOfShape", ["d"], initializers: [self.ints("d", [1 << 20, 1 << 20])])
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'value' has 2 elements; expected 1") {
            try self.load("ConstantOfShape", ["d"], [B.attribute("value", tensor: B.floatTensor("v", dims: [2], [1, 2]))], initializers: [self.ints("d", [2])])
        }
    }
}

/// How Resize is read: scales or sizes as constant inputs, and the modes Fovea refuses.
final class ONNXResizeFormTests: XCTestCase {
    typealias B = ONNXModelBuilder

    private func resize(_ attributes: [Onnx_AttributeProto], inputs: [String] = ["x", "", "scales"], opset: Int64 = 13) throws -> Op {
        let node = B.node("Resize", inputs, ["y"], name: "n", attributes: attributes)
        let initializers = [B.floatTensor("scales", dims: [4], [1, 1, 2, 2]), B.int64Tensor("sizes", dims: [4], [1, 2, 3, 3]),
                            B.floatTensor("roi", dims: [0], []), B.floatTensor("empty", dims: [0], [])]
        return try B.load(B.singleNode(node, opset: opset, initializers: initializers)).nodes[0].op
    }

    func testDefaultsScalesAndSizes() throws {
        XCTAssertEqual(try resize([]), .resize(ResizeAttributes(mode: .nearest, scales: [1, 1, 2, 2])))
        XCTAssertEqual(try resize([B.attribute("mode", string: "linear"), B.attribute("coordinate_transformation_mode", string: "align_corners")],
                                  inputs: ["x", "roi", "empty", "sizes"], opset: 11),
                       .resize(ResizeAttributes(mode: .linear, coordinates: .alignCorners, sizes: [1, 2, 3, 3])))
        XCTAssertEqual(try resize([B.attribute("nearest_mode", string: "floor"), B.attribute("coordinate_transformation_mode", string: "asymmetric")]),
                       .resize(ResizeAttributes(mode: .nearest, coordinates: .asymmetric, nearestRounding: .floor, scales: [1, 1, 2, 2])))
        // Resize-19's coordinate mode (was refused as unknown).
        XCTAssertEqual(try resize([B.attribute("mode", string: "linear"), B.attribute("coordinate_transformation_mode", string: "half_pixel_symmetric")],
                                  opset: 19),
                       .resize(ResizeAttributes(mode: .linear, coordinates: .halfPixelSymmetric, scales: [1, 1, 2, 2])))
    }

    func testRefusedModesAreTypedErrors() {
        assertFoveaError(.unsupported, containing: "node 'n' (Resize, opset 13): attribute 'mode' is 'cubic'; Fovea resizes in nearest and linear modes only") {
            try self.resize([B.attribute("mode", string: "cubic")])
        }
        assertFoveaError(.unsupported, containing: "'coordinate_transformation_mode' is 'tf_crop_and_resize'") {
            try self.resize([B.attribute("coordinate_transformation_mode", string: "tf_crop_and_resize")])
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'nearest_mode' is 'nearest'") { try self.resize([B.attribute("nearest_mode", string: "nearest")]) }
        assertFoveaError(.unsupported, containing: "attribute 'antialias' is 1") { try self.resize([B.attribute("antialias", int: 1)], opset: 18) }
        assertFoveaError(.unsupported, containing: "attribute 'keep_aspect_ratio_policy' is 'not_larger'") {
            try self.resize([B.attribute("keep_aspect_ratio_policy", string: "not_larger")], opset: 18)
        }
        assertFoveaError(.invalidModel, containing: "needs exactly one of the inputs 'scales' and 'sizes'; found both") {
            try self.resize([], inputs: ["x", "", "scales", "sizes"])
        }
        assertFoveaError(.unsupported, containing: "unsupported op 'Resize' (opset 10)") { try self.resize([], inputs: ["x", "scales"], opset: 10) }
    }

    func testUpsampleIsResizeWithAsymmetricCoordinates() throws {
        let nearest = ResizeAttributes(mode: .nearest, coordinates: .asymmetric, nearestRounding: .floor, scales: [1, 1, 2, 2])
        XCTAssertEqual(try B.load(B.singleNode(B.node("Upsample", ["x"], ["y"], attributes: [B.attribute("scales", floats: [1, 1, 2, 2])]), opset: 8)).nodes[0].op,
                       .resize(nearest))
        let node = B.node("Upsample", ["x", "scales"], ["y"], attributes: [B.attribute("mode", string: "linear")])
        var linear = nearest
        linear.mode = .linear
        XCTAssertEqual(try B.load(B.singleNode(node, opset: 9, initializers: [B.floatTensor("scales", dims: [4], [1, 1, 2, 2])])).nodes[0].op, .resize(linear))
        assertFoveaError(.unsupported, containing: "unsupported op 'Upsample' (opset 10)") {
            try B.load(B.singleNode(node, opset: 10, initializers: [B.floatTensor("scales", dims: [4], [1, 1, 2, 2])]))
        }
        assertFoveaError(.invalidAttribute, containing: "'scales' is [1.0, 1.0, 0.5, 0.5]; Upsample expects values >= 1") {
            try B.load(B.singleNode(B.node("Upsample", ["x"], ["y"], attributes: [B.attribute("scales", floats: [1, 1, 0.5, 0.5])]), opset: 7))
        }
    }
}
