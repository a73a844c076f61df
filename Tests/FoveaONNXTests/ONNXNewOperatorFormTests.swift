import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// How the reductions, math, activation and normalization operators are read
/// at each opset: defaults, axes as attribute or input, and the errors for
/// values Fovea does not accept.
final class ONNXNewOperatorFormTests: XCTestCase {
    typealias B = ONNXModelBuilder

    /// The canonical op of a single node reading `x` (1×2×4×4) and `extra` inputs.
    private func op(_ type: String, _ inputs: [String] = ["x"], _ attributes: [Onnx_AttributeProto] = [], opset: Int64 = 13,
                    initializers: [Onnx_TensorProto] = [], extraInputs: [Onnx_ValueInfoProto] = []) throws -> Op {
        let node = B.node(type, inputs, ["y"], name: "n", attributes: attributes)
        return try B.load(B.singleNode(node, opset: opset, extraInputs: extraInputs, initializers: initializers)).nodes[0].op
    }

    private func axes(_ values: [Int64]) -> Onnx_TensorProto { B.int64Tensor("axes", dims: [Int64(values.count)], values) }

    func testReductionAxesAsAttributeBeforeTheirOpsetAndAsInputAfter() throws {
        XCTAssertEqual(try op("ReduceMean", ["x"], [B.attribute("axes", ints: [2, 3])], opset: 13),
                       .reduce(ReduceAttributes(.mean, axes: [2, 3], keepDims: true)))
        XCTAssertEqual(try op("ReduceMean", ["x", "axes"], [B.attribute("keepdims", int: 0)], opset: 18, initializers: [axes([-1])]),
                       .reduce(ReduceAttributes(.mean, axes: [-1], keepDims: false)))
        // ReduceSum took its axes as an input from opset 13, the others from 18.
        XCTAssertEqual(try op("ReduceSum", ["x", "axes"], opset: 13, initializers: [axes([1])]),
                       .reduce(ReduceAttributes(.sum, axes: [1])))
        XCTAssertEqual(try op("ReduceSum", ["x"], [B.attribute("axes", ints: [1])], opset: 11),
                       .reduce(ReduceAttributes(.sum, axes: [1])))
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'axes'; ReduceSum in opset 13 does not define it") {
            try self.op("ReduceSum", ["x"], [B.attribute("axes", ints: [1])], opset: 13)
        }
        assertFoveaError(.invalidModel, containing: "has 2 inputs; expected 1") {
            try self.op("ReduceMax", ["x", "axes"], opset: 17, initializers: [self.axes([1])])
        }
        XCTAssertEqual(try op("ReduceMin", ["x"], [B.attribute("axes", ints: [0])], opset: 17), .reduce(ReduceAttributes(.min, axes: [0])))
        XCTAssertEqual(try op("ReduceL2", ["x"]), .reduce(ReduceAttributes(.l2, axes: nil)))
        XCTAssertEqual(try op("ReduceSumSquare", ["x"], [B.attribute("keepdims", int: 0)]), .reduce(ReduceAttributes(.sumSquare, axes: nil, keepDims: false)))
    }

    func testEmptyAxesReduceAllUnlessNoop() throws {
        XCTAssertEqual(try op("ReduceMean", ["x"], opset: 18), .reduce(ReduceAttributes(.mean, axes: nil)))
        XCTAssertEqual(try op("ReduceMean", ["x", "axes"], opset: 18, initializers: [axes([])]), .reduce(ReduceAttributes(.mean, axes: nil)))
        XCTAssertEqual(try op("ReduceMean", ["x", "axes"], [B.attribute("noop_with_empty_axes", int: 1)], opset: 18, initializers: [axes([])]),
                       .reduce(ReduceAttributes(.mean, axes: [])))
        // noop_with_empty_axes only exists where axes are an input.
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'noop_with_empty_axes'; ReduceMean in opset 17") {
            try self.op("ReduceMean", ["x"], [B.attribute("noop_with_empty_axes", int: 1)], opset: 17)
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'noop_with_empty_axes' is 2; expected 0 or 1") {
            try self.op("ReduceSum", ["x"], [B.attribute("noop_with_empty_axes", int: 2)], opset: 13)
        }
    }

    func testReductionAxesComputedAtRunTimeAreRefused() {
        assertFoveaError(.unsupported, containing: "input 'axes' of ReduceMean must be a constant") {
            try self.op("ReduceMean", ["x", "a"], opset: 18, extraInputs: [B.valueInfo("a", type: .int64, dims: [1])])
        }
    }

    /// Shapes are checked when the graph is validated (or planned), with the node named.
    private func validate(_ type: String, _ inputs: [String], _ attributes: [Onnx_AttributeProto], opset: Int64,
                          initializers: [Onnx_TensorProto] = []) throws {
        let node = B.node(type, inputs, ["y"], name: "n", attributes: attributes)
        try B.load(B.singleNode(node, opset: opset, initializers: initializers)).validate()
    }

    func testReductionWithBadAxesFailsValidation() {
        assertFoveaError(.invalidAttribute, containing: "node 'n' (ReduceMean, opset 13): axis 4 is out of range for rank 4") {
            try self.validate("ReduceMean", ["x"], [B.attribute("axes", ints: [4])], opset: 13)
        }
        assertFoveaError(.invalidAttribute, containing: "node 'n' (ReduceL2, opset 18): axes [1, 1] repeat axis 1") {
            try self.validate("ReduceL2", ["x", "axes"], [], opset: 18, initializers: [self.axes([1, 1])])
        }
    }

    func testArgMaxForms() throws {
        XCTAssertEqual(try op("ArgMax"), .argMax(axis: 0, keepDims: true, selectLastIndex: false))
        XCTAssertEqual(try op("ArgMax", ["x"], [B.attribute("axis", int: -1), B.attribute("keepdims", int: 0), B.attribute("select_last_index", int: 1)]),
                       .argMax(axis: -1, keepDims: false, selectLastIndex: true))
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'select_last_index'; ArgMax in opset 11") {
            try self.op("ArgMax", ["x"], [B.attribute("select_last_index", int: 1)], opset: 11)
        }
    }

    func testMathAndActivationOperators() throws {
        XCTAssertEqual(try op("Sqrt"), .unary(.sqrt))
        XCTAssertEqual(try op("Reciprocal"), .unary(.reciprocal(epsilon: 0)))
        XCTAssertEqual(try op("Log"), .unary(.log(epsilon: 0)))
        XCTAssertEqual(try op("Erf"), .unary(.erf))
        XCTAssertEqual(try op("Neg"), .unary(.neg))
        XCTAssertEqual(try op("Pow", ["x", "e"], extraInputs: [B.valueInfo("e", dims: [1])]), .pow)
        XCTAssertEqual(try op("Max", ["x", "x", "x"]), .maximum)
        XCTAssertEqual(try op("Min", ["x"]), .minimum)
        XCTAssertEqual(try op("Elu"), .unary(.elu(alpha: 1)))
        XCTAssertEqual(try op("Celu", ["x"], [B.attribute("alpha", float: 2)]), .unary(.celu(alpha: 2)))
        XCTAssertEqual(try op("Selu"), .unary(.selu(alpha: 1.67326319217681884765625, gamma: 1.05070102214813232421875)))
        XCTAssertEqual(try op("Mish", opset: 18), .unary(.mish))
        XCTAssertEqual(try op("Gelu", opset: 20), .unary(.gelu(tanhApproximation: false)))
        XCTAssertEqual(try op("Gelu", ["x"], [B.attribute("approximate", string: "tanh")], opset: 20), .unary(.gelu(tanhApproximation: true)))
        assertFoveaError(.invalidAttribute, containing: "attribute 'approximate' is 'sigmoid'; expected 'none' or 'tanh'") {
            try self.op("Gelu", ["x"], [B.attribute("approximate", string: "sigmoid")], opset: 20)
        }
        // Operators before the opset that introduced them are unsupported at that opset.
        assertFoveaError(.unsupported, containing: "unsupported op 'Gelu' (opset 19) at node 'n'") { try self.op("Gelu", opset: 19) }
        assertFoveaError(.unsupported, containing: "unsupported op 'Mish' (opset 17)") { try self.op("Mish", opset: 17) }
        assertFoveaError(.unsupported, containing: "unsupported op 'Celu' (opset 11)") { try self.op("Celu", opset: 11) }
        assertFoveaError(.invalidModel, containing: "has 1 inputs; expected 2") { try self.op("Pow") }
    }

    func testNormalizationForms() throws {
        let scale = B.floatTensor("s", dims: [2], [1, 1]), bias = B.floatTensor("b", dims: [2], [0, 0])
        XCTAssertEqual(try op("LayerNormalization", ["x", "s"], opset: 17, initializers: [B.floatTensor("s", dims: [4], [1, 1, 1, 1])]),
                       .layerNormalization(axis: -1, epsilon: 1e-5))
        assertFoveaError(.unsupported, containing: "attribute 'stash_type' is 11; Fovea computes the statistics in float32 only") {
            try self.op("LayerNormalization", ["x", "s"], [B.attribute("stash_type", int: 11)], opset: 17,
                        initializers: [B.floatTensor("s", dims: [4], [1, 1, 1, 1])])
        }
        XCTAssertEqual(try op("InstanceNormalization", ["x", "s", "b"], [B.attribute("epsilon", float: 0.01)], initializers: [scale, bias]),
                       .instanceNormalization(epsilon: 0.01))
        // GroupNormalization: scale and bias per group at opset 18, per channel at 21.
        let groups = B.attribute("num_groups", int: 1)
        XCTAssertEqual(try op("GroupNormalization", ["x", "s", "b"], [groups], opset: 18,
                              initializers: [B.floatTensor("s", dims: [1], [1]), B.floatTensor("b", dims: [1], [0])]),
                       .groupNormalization(groups: 1, epsilon: 1e-5, perChannel: false))
        XCTAssertEqual(try op("GroupNormalization", ["x", "s", "b"], [groups], opset: 21, initializers: [scale, bias]),
                       .groupNormalization(groups: 1, epsilon: 1e-5, perChannel: true))
        assertFoveaError(.invalidAttribute, containing: "required attribute 'num_groups' is missing") {
            try self.op("GroupNormalization", ["x", "s", "b"], opset: 18, initializers: [scale, bias])
        }
        assertFoveaError(.shapeMismatch, containing: "node 'n' (GroupNormalization, opset 18): scale is 2; expected 1 values") {
            try self.validate("GroupNormalization", ["x", "s", "b"], [groups], opset: 18, initializers: [scale, bias])
        }
    }
}
