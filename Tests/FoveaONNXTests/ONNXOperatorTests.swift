import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// Attribute defaults and checks of the operators without parameter inputs.
final class ONNXOperatorTests: XCTestCase {
    typealias B = ONNXModelBuilder

    private func weight(_ dims: [Int64]) -> Onnx_TensorProto {
        B.floatTensor("w", dims: dims, [Float](repeating: 0.5, count: Int(dims.reduce(1, *))))
    }

    private func conv(_ attributes: [Onnx_AttributeProto], weight dims: [Int64] = [4, 2, 3, 3], opset: Int64 = 13) throws -> Op {
        let node = B.node("Conv", ["x", "w"], ["y"], name: "conv", attributes: attributes)
        return try B.load(B.singleNode(node, opset: opset, initializers: [weight(dims)])).nodes[0].op
    }

    func testConvDefaultsAndKernelFromWeight() throws {
        XCTAssertEqual(try conv([]), .conv(ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])))
        XCTAssertEqual(try conv([], weight: [4, 2, 5], opset: 7), .conv(ConvAttributes(kernelShape: [5], strides: [1], dilations: [1], pads: [0, 0])))
        let full = try conv([
            B.attribute("kernel_shape", ints: [3, 3]), B.attribute("strides", ints: [2, 1]), B.attribute("dilations", ints: [1, 2]),
            B.attribute("pads", ints: [1, 0, 2, 0]), B.attribute("group", int: 2), B.attribute("auto_pad", string: "NOTSET"),
        ], weight: [4, 1, 3, 3])
        XCTAssertEqual(full, .conv(ConvAttributes(kernelShape: [3, 3], strides: [2, 1], dilations: [1, 2], pads: [1, 0, 2, 0], group: 2)))
        XCTAssertEqual(try conv([B.attribute("auto_pad", string: "SAME_LOWER")]),
                       .conv(ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0], autoPad: .sameLower)))
    }

    func testConvKernelFromDeclaredWeightShape() throws {
        let node = B.node("Conv", ["x", "w"], ["y"])
        let graph = try B.load(B.singleNode(node, extraInputs: [B.valueInfo("w", dims: [4, 2, 1, 1])]))
        XCTAssertEqual(graph.nodes[0].op, .conv(ConvAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])))
        assertFoveaError(.invalidAttribute, containing: "attribute 'kernel_shape' is missing and the shape of weight 'w' is not known") {
            try B.load(B.singleNode(node, extraInputs: [B.valueInfo("w", dims: ["M", 2, 1, 1])]))
        }
    }

    func testConvAttributeErrorsNameNodeAndValues() {
        assertFoveaError(.invalidAttribute, containing: "test.onnx: node 'conv' (Conv, opset 13): attribute 'group' is 0; expected >= 1") {
            try self.conv([B.attribute("group", int: 0)])
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'strides' has 3 values [1, 1, 1]; expected 2") {
            try self.conv([B.attribute("strides", ints: [1, 1, 1])])
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'pads' is [-1, 0, 0, 0]; expected values >= 0") {
            try self.conv([B.attribute("pads", ints: [-1, 0, 0, 0])])
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'kernel_shape' is [5, 5]; expected [3, 3]") {
            try self.conv([B.attribute("kernel_shape", ints: [5, 5])])
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'auto_pad' is 'SAME'; expected NOTSET, SAME_UPPER, SAME_LOWER or VALID") {
            try self.conv([B.attribute("auto_pad", string: "SAME")])
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'group' has type FLOAT; expected INT") {
            try self.conv([B.attribute("group", float: 1)])
        }
    }

    func testMaxPoolForms() throws {
        func maxPool(_ attributes: [Onnx_AttributeProto], opset: Int64, outputs: [String] = ["y"]) throws -> Op {
            let node = B.node("MaxPool", ["x"], outputs, name: "pool", attributes: [B.attribute("kernel_shape", ints: [2, 2])] + attributes)
            return try B.load(B.singleNode(node, opset: opset, outputs: outputs)).nodes[0].op
        }
        XCTAssertEqual(try maxPool([], opset: 7), .maxPool(PoolAttributes(kernelShape: [2, 2], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])))
        let opset12 = try maxPool([B.attribute("ceil_mode", int: 1), B.attribute("dilations", ints: [2, 2]), B.attribute("storage_order", int: 0)], opset: 12)
        XCTAssertEqual(opset12, .maxPool(PoolAttributes(kernelShape: [2, 2], strides: [1, 1], dilations: [2, 2], pads: [0, 0, 0, 0], ceilMode: true)))
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'ceil_mode'; MaxPool in opset 8") {
            try maxPool([B.attribute("ceil_mode", int: 1)], opset: 8)
        }
        assertFoveaError(.unsupported, containing: "attribute 'storage_order' is 1") { try maxPool([B.attribute("storage_order", int: 1)], opset: 12) }
        let withIndices = B.node("MaxPool", ["x"], ["y", "indices"], name: "pool", attributes: [B.attribute("kernel_shape", ints: [2, 2])])
        XCTAssertEqual(try B.load(B.singleNode(withIndices, opset: 12, outputs: ["y", "indices"])).nodes[0].outputs, ["y", "indices"])
        assertFoveaError(.unsupported, containing: "has 3 outputs; Fovea computes at most 2 for MaxPool") {
            try maxPool([], opset: 12, outputs: ["y", "indices", "extra"])
        }
        assertFoveaError(.invalidAttribute, containing: "attribute 'ceil_mode' is 2; expected 0 or 1") { try maxPool([B.attribute("ceil_mode", int: 2)], opset: 12) }
        let noKernel = B.node("MaxPool", ["x"], ["y"])
        assertFoveaError(.invalidAttribute, containing: "required attribute 'kernel_shape' is missing") { try B.load(B.singleNode(noKernel)) }
    }

    func testAveragePoolForms() throws {
        func averagePool(_ attributes: [Onnx_AttributeProto], opset: Int64) throws -> Op {
            let node = B.node("AveragePool", ["x"], ["y"], attributes: [B.attribute("kernel_shape", ints: [3, 3])] + attributes)
            return try B.load(B.singleNode(node, opset: opset)).nodes[0].op
        }
        let counting = try averagePool([B.attribute("count_include_pad", int: 1), B.attribute("pads", ints: [1, 1, 1, 1]), B.attribute("strides", ints: [2, 2])], opset: 7)
        XCTAssertEqual(counting, .averagePool(PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1], pads: [1, 1, 1, 1], countIncludePad: true)))
        XCTAssertEqual(try averagePool([B.attribute("dilations", ints: [2, 2]), B.attribute("ceil_mode", int: 1)], opset: 19),
                       .averagePool(PoolAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [2, 2], pads: [0, 0, 0, 0], ceilMode: true)))
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'dilations'; AveragePool in opset 18") {
            try averagePool([B.attribute("dilations", ints: [2, 2])], opset: 18)
        }
    }

    func testSimpleOperators() throws {
        func op(_ type: String, _ inputs: [String] = ["x"], _ attributes: [Onnx_AttributeProto] = [], opset: Int64 = 14) throws -> Op {
            let extra = inputs.dropFirst().map { B.valueInfo($0, dims: [1, 2, 4, 4]) }
            return try B.load(B.singleNode(B.node(type, inputs, ["y"], attributes: attributes), opset: opset, extraInputs: Array(extra))).nodes[0].op
        }
        XCTAssertEqual(try op("Relu"), .relu)
        XCTAssertEqual(try op("Sigmoid"), .sigmoid)
        XCTAssertEqual(try op("LeakyRelu"), .leakyRelu(alpha: 0.01))
        XCTAssertEqual(try op("LeakyRelu", ["x"], [B.attribute("alpha", float: 0.2)]), .leakyRelu(alpha: 0.2))
        XCTAssertEqual(try op("PRelu", ["x", "slope"]), .prelu)
        XCTAssertEqual(try op("HardSigmoid"), .hardSigmoid(alpha: 0.2, beta: 0.5))
        XCTAssertEqual(try op("HardSwish"), .hardSwish)
        XCTAssertEqual(try op("GlobalAveragePool"), .globalAveragePool)
        XCTAssertEqual(try op("GlobalMaxPool"), .globalMaxPool)
        XCTAssertEqual(try op("Concat", ["x", "z"], [B.attribute("axis", int: -1)]), .concat(axis: -1))
        XCTAssertEqual(try op("Flatten"), .flatten(axis: 1))
        XCTAssertEqual(try op("Flatten", ["x"], [B.attribute("axis", int: 0)]), .flatten(axis: 0))
        XCTAssertEqual(try op("Transpose"), .transpose(perm: nil))
        XCTAssertEqual(try op("Transpose", ["x"], [B.attribute("perm", ints: [0, 2, 3, 1])]), .transpose(perm: [0, 2, 3, 1]))
        XCTAssertEqual(try op("Gemm", ["x", "b"]), .gemm(GemmAttributes()))
        XCTAssertEqual(try op("Gemm", ["x", "b", "c"], [B.attribute("alpha", float: 2), B.attribute("beta", float: 0.5), B.attribute("transB", int: 1)]),
                       .gemm(GemmAttributes(alpha: 2, beta: 0.5, transA: false, transB: true)))
        XCTAssertEqual(try op("MatMul", ["x", "b"]), .matMul)
        XCTAssertEqual(try op("Add", ["x", "b"]), .add)
        XCTAssertEqual(try op("Sub", ["x", "b"]), .sub)
        XCTAssertEqual(try op("Mul", ["x", "b"]), .mul)
        XCTAssertEqual(try op("Div", ["x", "b"]), .div)
        XCTAssertEqual(try op("Sum", ["x", "b", "c"]), .sum)
        XCTAssertEqual(try op("Identity"), .identity)
        XCTAssertEqual(try op("LRN", ["x"], [B.attribute("size", int: 5)]), .lrn(LRNAttributes(size: 5)))
        XCTAssertEqual(try op("LRN", ["x"], [B.attribute("size", int: 3), B.attribute("alpha", float: 0.5), B.attribute("beta", float: 1), B.attribute("bias", float: 2)]),
                       .lrn(LRNAttributes(alpha: 0.5, beta: 1, bias: 2, size: 3)))

        assertFoveaError(.invalidAttribute, containing: "required attribute 'axis' is missing") { try op("Concat", ["x", "z"]) }
        assertFoveaError(.invalidAttribute, containing: "attribute 'perm' is [0, 0, 1, 2]; expected a permutation") {
            try op("Transpose", ["x"], [B.attribute("perm", ints: [0, 0, 1, 2])])
        }
        assertFoveaError(.invalidAttribute, containing: "required attribute 'size' is missing") { try op("LRN") }
        // HardSwish arrived in opset 14.
        assertFoveaError(.unsupported, containing: "unsupported op 'HardSwish' (opset 13) at node 'HardSwish_0'") { try op("HardSwish", opset: 13) }
    }

    func testBatchNormalizationForms() throws {
        let inputs = ["x", "scale", "bias", "mean", "var"]
        let stats = ["scale", "bias", "mean", "var"].map { B.floatTensor($0, dims: [2], [1, 1]) }
        func load(_ attributes: [Onnx_AttributeProto], opset: Int64, outputs: [String] = ["y"]) throws -> Graph {
            let node = B.node("BatchNormalization", inputs, outputs, name: "bn", attributes: attributes)
            return try B.load(B.singleNode(node, opset: opset, initializers: stats, outputs: outputs))
        }
        let graph = try load([B.attribute("epsilon", float: 1e-3), B.attribute("momentum", float: 0.9)], opset: 15)
        XCTAssertEqual(graph.nodes[0].op, .batchNormalization(epsilon: 1e-3))
        XCTAssertEqual(graph.nodes[0].inputs, inputs)
        XCTAssertEqual(graph.initializers.count, 4)
        XCTAssertEqual(try load([B.attribute("spatial", int: 1)], opset: 7).nodes[0].op, .batchNormalization(epsilon: 1e-5))

        assertFoveaError(.unsupported, containing: "node 'bn' (BatchNormalization, opset 14): attribute 'training_mode' is 1") {
            try load([B.attribute("training_mode", int: 1)], opset: 14)
        }
        assertFoveaError(.unsupported, containing: "has 3 outputs; Fovea runs BatchNormalization in inference mode only") {
            try load([], opset: 15, outputs: ["y", "m", "v"])
        }
        assertFoveaError(.unsupported, containing: "attribute 'spatial' is 0") { try load([B.attribute("spatial", int: 0)], opset: 8) }
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'spatial'") { try load([B.attribute("spatial", int: 1)], opset: 9) }
    }
}
