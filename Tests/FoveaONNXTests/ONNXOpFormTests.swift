import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// Each opset-dependent ONNX form becomes the expected canonical `Op`.
final class ONNXOpFormTests: XCTestCase {
    typealias B = ONNXModelBuilder

    private func int64s(_ name: String, _ values: [Int64]) -> Onnx_TensorProto {
        B.int64Tensor(name, dims: [Int64(values.count)], values)
    }

    private func scalar(_ name: String, _ value: Float) -> Onnx_TensorProto {
        B.floatTensor(name, dims: [], [value])
    }

    // MARK: Clip

    func testClipOpset6Attributes() throws {
        let node = B.node("Clip", ["x"], ["y"], attributes: [B.attribute("min", float: 0), B.attribute("max", float: 6)])
        let graph = try B.load(B.singleNode(node, opset: 6 + 1))
        XCTAssertEqual(graph.nodes[0].op, .clip(min: 0, max: 6))
        XCTAssertEqual(graph.nodes[0].inputs, ["x"])

        let open = try B.load(B.singleNode(B.node("Clip", ["x"], ["y"]), opset: 10))
        XCTAssertEqual(open.nodes[0].op, .clip(min: nil, max: nil))
    }

    func testClipOpset11ConstantInputs() throws {
        // min from an initializer, max from a Constant node; both leave the inputs and the initializers.
        let node = B.node("Clip", ["x", "lo", "hi"], ["y"])
        let model = B.singleNode(node, opset: 11, initializers: [scalar("lo", 0)], constants: [B.constant("hi", scalar("", 6))])
        let graph = try B.load(model)
        XCTAssertEqual(graph.nodes.count, 1)
        XCTAssertEqual(graph.nodes[0].op, .clip(min: 0, max: 6))
        XCTAssertEqual(graph.nodes[0].inputs, ["x"])
        XCTAssertTrue(graph.initializers.isEmpty)

        // An absent min is open.
        let maxOnly = try B.load(B.singleNode(B.node("Clip", ["x", "", "hi"], ["y"]), opset: 13, initializers: [scalar("hi", 6)]))
        XCTAssertEqual(maxOnly.nodes[0].op, .clip(min: nil, max: 6))
    }

    func testClipOpset11RejectsAttributes() {
        let node = B.node("Clip", ["x"], ["y"], name: "c", attributes: [B.attribute("min", float: 0)])
        assertFoveaError(.invalidAttribute, containing: "test.onnx: node 'c' (Clip, opset 11): unexpected attribute 'min'") {
            try B.load(B.singleNode(node, opset: 11))
        }
    }

    func testClipBoundFromGraphInputMustBeConstant() throws {
        let node = B.node("Clip", ["x", "lo"], ["y"], name: "c")
        let model = B.singleNode(node, opset: 13, extraInputs: [B.valueInfo("lo", dims: [])])
        assertFoveaError(.unsupported, containing: "node 'c' (Clip, opset 13): input 'min' of Clip must be a constant (initializer or Constant)") {
            try B.load(model)
        }
        // Given through knownInputs it is folded, and the graph input disappears.
        let graph = try B.load(model, knownInputs: ["lo": Tensor(shape: [], floats: [-1])])
        XCTAssertEqual(graph.nodes[0].op, .clip(min: -1, max: nil))
        XCTAssertEqual(graph.inputs.map(\.name), ["x"])
        XCTAssertTrue(graph.initializers.isEmpty)
    }

    // MARK: Squeeze / Unsqueeze

    func testSqueezeOpset11Attribute() throws {
        let withAxes = B.node("Squeeze", ["x"], ["y"], attributes: [B.attribute("axes", ints: [0])])
        XCTAssertEqual(try B.load(B.singleNode(withAxes, opset: 11)).nodes[0].op, .squeeze(axes: [0]))
        XCTAssertEqual(try B.load(B.singleNode(B.node("Squeeze", ["x"], ["y"]), opset: 11)).nodes[0].op, .squeeze(axes: nil))
    }

    func testSqueezeOpset13Input() throws {
        let graph = try B.load(B.singleNode(B.node("Squeeze", ["x", "axes"], ["y"]), opset: 13, initializers: [int64s("axes", [0, -3])]))
        XCTAssertEqual(graph.nodes[0].op, .squeeze(axes: [0, -3]))
        XCTAssertEqual(graph.nodes[0].inputs, ["x"])
        XCTAssertTrue(graph.initializers.isEmpty)
        XCTAssertEqual(try B.load(B.singleNode(B.node("Squeeze", ["x"], ["y"]), opset: 13)).nodes[0].op, .squeeze(axes: nil))
        // The attribute form is gone at 13.
        let old = B.node("Squeeze", ["x"], ["y"], attributes: [B.attribute("axes", ints: [0])])
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'axes'") { try B.load(B.singleNode(old, opset: 13)) }
    }

    func testUnsqueezeForms() throws {
        let old = B.node("Unsqueeze", ["x"], ["y"], attributes: [B.attribute("axes", ints: [0, 5])])
        XCTAssertEqual(try B.load(B.singleNode(old, opset: 11)).nodes[0].op, .unsqueeze(axes: [0, 5]))
        assertFoveaError(.invalidAttribute, containing: "required attribute 'axes' is missing") {
            try B.load(B.singleNode(B.node("Unsqueeze", ["x"], ["y"]), opset: 11))
        }
        let new = try B.load(B.singleNode(B.node("Unsqueeze", ["x", "a"], ["y"]), opset: 13, constants: [B.constant("a", int64s("", [1]))]))
        XCTAssertEqual(new.nodes[0].op, .unsqueeze(axes: [1]))
        XCTAssertEqual(new.nodes[0].inputs, ["x"])
        assertFoveaError(.invalidModel, containing: "required input 1 'axes' is missing") {
            try B.load(B.singleNode(B.node("Unsqueeze", ["x"], ["y"]), opset: 13))
        }
    }

    // MARK: Pad

    func testPadOpset2Attributes() throws {
        let node = B.node("Pad", ["x"], ["y"], attributes: [
            B.attribute("mode", string: "constant"), B.attribute("pads", ints: [0, 0, 1, 2, 0, 0, 3, 4]), B.attribute("value", float: 1.5),
        ])
        let graph = try B.load(B.singleNode(node, opset: 10))
        XCTAssertEqual(graph.nodes[0].op, .pad(pads: [0, 0, 1, 2, 0, 0, 3, 4], value: 1.5, axes: nil))
    }

    func testPadOpset11Inputs() throws {
        let node = B.node("Pad", ["x", "pads", "v"], ["y"])
        let graph = try B.load(B.singleNode(node, opset: 11, initializers: [int64s("pads", [0, 0, 1, 1, 0, 0, 1, 1])], constants: [B.constant("v", scalar("", -2))]))
        XCTAssertEqual(graph.nodes[0].op, .pad(pads: [0, 0, 1, 1, 0, 0, 1, 1], value: -2, axes: nil))
        XCTAssertEqual(graph.nodes[0].inputs, ["x"])
        XCTAssertTrue(graph.initializers.isEmpty)
        // constant_value absent: zero.
        let noValue = try B.load(B.singleNode(B.node("Pad", ["x", "pads"], ["y"]), opset: 13, initializers: [int64s("pads", [0, 0, 1, 1, 0, 0, 1, 1])]))
        XCTAssertEqual(noValue.nodes[0].op, .pad(pads: [0, 0, 1, 1, 0, 0, 1, 1], value: 0, axes: nil))
        // The axes input does not exist before 18.
        assertFoveaError(.invalidModel, containing: "has 4 inputs; expected 1 to 3") {
            try B.load(B.singleNode(B.node("Pad", ["x", "pads", "", "axes"], ["y"]), opset: 13,
                                    initializers: [int64s("pads", [1, 1]), int64s("axes", [3])]))
        }
    }

    func testPadOpset18Axes() throws {
        let node = B.node("Pad", ["x", "pads", "", "axes"], ["y"])
        let graph = try B.load(B.singleNode(node, opset: 18, initializers: [int64s("pads", [1, 2, 3, 4]), int64s("axes", [2, -1])]))
        XCTAssertEqual(graph.nodes[0].op, .pad(pads: [1, 2, 3, 4], value: 0, axes: [2, -1]))
        XCTAssertEqual(graph.nodes[0].inputs, ["x"])
        assertFoveaError(.invalidAttribute, containing: "'pads' has 2 values; expected 4") {
            try B.load(B.singleNode(node, opset: 18, initializers: [int64s("pads", [1, 2]), int64s("axes", [2, 3])]))
        }
    }

    func testPadReflectAndEdgeBecomeBorderPadAndWrapIsUnsupported() throws {
        let reflect = B.node("Pad", ["x", "pads"], ["y"], attributes: [B.attribute("mode", string: "reflect")])
        let reflected = try B.load(B.singleNode(reflect, opset: 13, initializers: [int64s("pads", [0, 0, 1, 1, 0, 0, 1, 1])]))
        XCTAssertEqual(reflected.nodes[0].op, .borderPad(pads: [0, 0, 1, 1, 0, 0, 1, 1], mode: .reflect))
        XCTAssertEqual(reflected.nodes[0].inputs, ["x"])
        let edge = B.node("Pad", ["x"], ["y"], attributes: [B.attribute("mode", string: "edge"), B.attribute("pads", ints: [0, 0, 0, 0, 0, 0, 0, 0])])
        XCTAssertEqual(try B.load(B.singleNode(edge, opset: 7)).nodes[0].op, .borderPad(pads: [0, 0, 0, 0, 0, 0, 0, 0], mode: .edge))
        let edgeAxes = B.node("Pad", ["x", "pads", "", "axes"], ["y"], attributes: [B.attribute("mode", string: "edge")])
        assertFoveaError(.unsupported, containing: "'axes' with mode 'edge' is not supported") {
            try B.load(B.singleNode(edgeAxes, opset: 18, initializers: [self.int64s("pads", [1, 1]), self.int64s("axes", [2])]))
        }
        let wrap = B.node("Pad", ["x", "pads"], ["y"], attributes: [B.attribute("mode", string: "wrap")])
        assertFoveaError(.unsupported, containing: "attribute 'mode' is 'wrap'; Fovea supports constant, reflect and edge padding") {
            try B.load(B.singleNode(wrap, opset: 19, initializers: [self.int64s("pads", [0, 0, 1, 1, 0, 0, 1, 1])]))
        }
        let bogus = B.node("Pad", ["x"], ["y"], attributes: [B.attribute("mode", string: "mirror"), B.attribute("pads", ints: [0, 0])])
        assertFoveaError(.invalidAttribute, containing: "attribute 'mode' is 'mirror'; expected constant, reflect, edge") {
            try B.load(B.singleNode(bogus, opset: 7))
        }
    }

    // MARK: Softmax / LogSoftmax

    func testSoftmaxBeforeAndFrom13() throws {
        XCTAssertEqual(try B.load(B.singleNode(B.node("Softmax", ["x"], ["y"]), opset: 11)).nodes[0].op,
                       .softmax(SoftmaxAttributes(axis: 1, coercedTo2D: true)))
        XCTAssertEqual(try B.load(B.singleNode(B.node("Softmax", ["x"], ["y"]), opset: 13)).nodes[0].op,
                       .softmax(SoftmaxAttributes(axis: -1, coercedTo2D: false)))
        let withAxis = B.node("LogSoftmax", ["x"], ["y"], attributes: [B.attribute("axis", int: 2)])
        XCTAssertEqual(try B.load(B.singleNode(withAxis, opset: 11)).nodes[0].op, .logSoftmax(SoftmaxAttributes(axis: 2, coercedTo2D: true)))
        XCTAssertEqual(try B.load(B.singleNode(withAxis, opset: 13)).nodes[0].op, .logSoftmax(SoftmaxAttributes(axis: 2, coercedTo2D: false)))
    }

    // MARK: Dropout

    func testDropoutOpset10() throws {
        let node = B.node("Dropout", ["x"], ["y", "mask"], attributes: [B.attribute("ratio", float: 0.3)])
        let graph = try B.load(B.singleNode(node, opset: 10, outputs: ["y", "mask"]))
        XCTAssertEqual(graph.nodes[0].op, .dropout)
        XCTAssertEqual(graph.nodes[0].inputs, ["x"])
        XCTAssertEqual(graph.nodes[0].outputs, ["y", "mask"])
    }

    func testDropoutOpset12Inputs() throws {
        let node = B.node("Dropout", ["x", "r", "t"], ["y"], name: "d", attributes: [B.attribute("seed", int: 3)])
        var training = Onnx_TensorProto()
        training.dataType = Int32(Onnx_TensorProto.DataType.bool.rawValue)
        training.int32Data = [0]
        let graph = try B.load(B.singleNode(node, opset: 12, initializers: [scalar("r", 0.5)], constants: [B.constant("t", training)]))
        XCTAssertEqual(graph.nodes[0].op, .dropout)
        XCTAssertEqual(graph.nodes[0].inputs, ["x"])
        XCTAssertTrue(graph.initializers.isEmpty)

        training.int32Data = [1]
        assertFoveaError(.unsupported, containing: "node 'd' (Dropout, opset 12): input 'training_mode' is true") {
            try B.load(B.singleNode(node, opset: 12, initializers: [self.scalar("r", 0.5)], constants: [B.constant("t", training)]))
        }
        let dynamicRatio = B.node("Dropout", ["x", "r"], ["y"])
        assertFoveaError(.unsupported, containing: "input 'ratio' of Dropout must be a constant") {
            try B.load(B.singleNode(dynamicRatio, opset: 13, extraInputs: [B.valueInfo("r", dims: [])]))
        }
        // The ratio attribute is gone at 12.
        let oldRatio = B.node("Dropout", ["x"], ["y"], attributes: [B.attribute("ratio", float: 0.5)])
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'ratio'") { try B.load(B.singleNode(oldRatio, opset: 12)) }
    }

    // MARK: Reshape

    func testReshapeAllowZero() throws {
        let node = B.node("Reshape", ["x", "shape"], ["y"])
        let graph13 = try B.load(B.singleNode(node, opset: 13, initializers: [int64s("shape", [0, -1])]))
        XCTAssertEqual(graph13.nodes[0].op, .reshape(shape: [0, -1], allowZero: false))
        XCTAssertEqual(graph13.nodes[0].inputs, ["x"])
        XCTAssertTrue(graph13.initializers.isEmpty)

        let allowing = B.node("Reshape", ["x", "shape"], ["y"], attributes: [B.attribute("allowzero", int: 1)])
        let graph14 = try B.load(B.singleNode(allowing, opset: 14, initializers: [int64s("shape", [2, 16, 1])]))
        XCTAssertEqual(graph14.nodes[0].op, .reshape(shape: [2, 16, 1], allowZero: true))
        XCTAssertEqual(try B.load(B.singleNode(node, opset: 14, initializers: [int64s("shape", [32])])).nodes[0].op,
                       .reshape(shape: [32], allowZero: false))

        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'allowzero'; Reshape in opset 13 does not define it") {
            try B.load(B.singleNode(allowing, opset: 13, initializers: [self.int64s("shape", [32])]))
        }
        assertFoveaError(.invalidAttribute, containing: "cannot hold both 0 and -1") {
            try B.load(B.singleNode(allowing, opset: 14, initializers: [self.int64s("shape", [0, -1])]))
        }
        assertFoveaError(.invalidAttribute, containing: "at most one -1") {
            try B.load(B.singleNode(node, opset: 13, initializers: [self.int64s("shape", [-1, -1])]))
        }
    }

    func testReshapeShapeMustBeInt64() {
        let node = B.node("Reshape", ["x", "shape"], ["y"])
        assertFoveaError(.invalidModel, containing: "input 'shape' has data type float32; expected int64") {
            try B.load(B.singleNode(node, opset: 13, initializers: [B.floatTensor("shape", dims: [1], [32])]))
        }
    }

    // MARK: Constant

    func testConstantNodeForms() throws {
        let cases: [(Onnx_AttributeProto, Tensor)] = [
            (B.attribute("value", tensor: B.floatTensor("ignored", dims: [2], [1, 2])), try Tensor(shape: [2], floats: [1, 2])),
            (B.attribute("value_float", float: 2.5), try Tensor(shape: [], floats: [2.5])),
            (B.attribute("value_floats", floats: [1, 2, 3]), try Tensor(shape: [3], floats: [1, 2, 3])),
            (B.attribute("value_int", int: 7), try Tensor(shape: [], int64s: [7])),
            (B.attribute("value_ints", ints: [4, 5]), try Tensor(shape: [2], int64s: [4, 5])),
        ]
        for (attribute, expected) in cases {
            // Graph output straight from the constant: it stays an initializer.
            let model = B.model(nodes: [B.node("Constant", [], ["c"], attributes: [attribute])], inputs: [], outputs: [B.valueInfo("c", dims: nil)])
            let graph = try B.load(model)
            XCTAssertTrue(graph.nodes.isEmpty, attribute.name)
            XCTAssertEqual(graph.initializers["c"], expected, attribute.name)
        }
    }

    func testConstantNodeErrors() {
        func load(_ attributes: [Onnx_AttributeProto], opset: Int64 = 13) throws -> Graph {
            try B.load(B.model(opset: opset, nodes: [B.node("Constant", [], ["c"], name: "k", attributes: attributes)],
                               inputs: [], outputs: [B.valueInfo("c", dims: nil)]))
        }
        assertFoveaError(.unsupported, containing: "node 'k' (Constant, opset 13): attribute 'value_string': string constants are not supported") {
            try load([B.attribute("value_string", string: "hello")])
        }
        var sparse = Onnx_AttributeProto()
        sparse.name = "sparse_value"
        sparse.type = .sparseTensor
        assertFoveaError(.unsupported, containing: "sparse constants are not supported") { try load([sparse]) }
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'value_float'; Constant in opset 11 does not define it") {
            try load([B.attribute("value_float", float: 1)], opset: 11)
        }
        assertFoveaError(.invalidAttribute, containing: "needs exactly one value attribute") {
            try load([B.attribute("value_float", float: 1), B.attribute("value_int", int: 1)])
        }
        assertFoveaError(.invalidAttribute, containing: "found none") { try load([]) }
        assertFoveaError(.invalidAttribute, containing: "attribute 'value' has type FLOAT; expected TENSOR") {
            try load([B.attribute("value", float: 1)])
        }
    }

    // MARK: Shape

    func testShapeStartEnd() throws {
        XCTAssertEqual(try B.load(B.singleNode(B.node("Shape", ["x"], ["y"]), opset: 13)).nodes[0].op, .shape(start: 0, end: nil))
        let sliced = B.node("Shape", ["x"], ["y"], attributes: [B.attribute("start", int: 1), B.attribute("end", int: -1)])
        XCTAssertEqual(try B.load(B.singleNode(sliced, opset: 15)).nodes[0].op, .shape(start: 1, end: -1))
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'end'") { try B.load(B.singleNode(sliced, opset: 14)) }
    }
}
