import XCTest
import FoveaCore
@testable import FoveaONNX

/// How QuantizeLinear and DequantizeLinear are read at each opset: `axis` from 13,
/// the output type from the zero point (or opset 21's `output_dtype`), and
/// blocked quantization refused with a clear error.
final class ONNXQuantizationFormTests: XCTestCase {
    typealias B = ONNXModelBuilder

    private func int8Tensor(_ name: String, _ values: [Int8]) -> Onnx_TensorProto {
        var t = Onnx_TensorProto()
        t.name = name
        t.dims = [Int64(values.count)]
        t.dataType = Int32(Onnx_TensorProto.DataType.int8.rawValue)
        t.rawData = Data(values.map { UInt8(bitPattern: $0) })
        return t
    }

    private func op(_ type: String, _ inputs: [String], _ attributes: [Onnx_AttributeProto] = [], opset: Int64) throws -> Op {
        let node = B.node(type, inputs, ["y"], name: "n", attributes: attributes)
        let initializers = [B.floatTensor("s", dims: [2], [0.5, 0.25]), int8Tensor("z", [0, -3])]
        return try B.load(B.singleNode(node, opset: opset, initializers: initializers)).nodes[0].op
    }

    func testQuantizeLinearForms() throws {
        XCTAssertEqual(try op("QuantizeLinear", ["x", "s", "z"], [B.attribute("axis", int: 1)], opset: 13),
                       .quantizeLinear(QuantizeLinearAttributes(axis: 1, outputType: .int8)))
        XCTAssertEqual(try op("QuantizeLinear", ["x", "s"], [B.attribute("saturate", int: 1)], opset: 19),
                       .quantizeLinear(QuantizeLinearAttributes(axis: 1, outputType: .uint8)))
        XCTAssertEqual(try op("QuantizeLinear", ["x", "s"], [B.attribute("output_dtype", int: 3)], opset: 21),
                       .quantizeLinear(QuantizeLinearAttributes(axis: 1, outputType: .int8)))
        // Opset 10 has no axis attribute: it is refused as unread.
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'axis'") {
            try self.op("QuantizeLinear", ["x", "s", "z"], [B.attribute("axis", int: 1)], opset: 10)
        }
        assertFoveaError(.unsupported, containing: "attribute 'block_size' is 2: blocked quantization is not supported") {
            try self.op("DequantizeLinear", ["x", "s"], [B.attribute("block_size", int: 2)], opset: 21)
        }
        assertFoveaError(.unsupported, containing: "attribute 'output_dtype' is UINT8") {
            try self.op("QuantizeLinear", ["x", "s", "z"], [B.attribute("output_dtype", int: 2)], opset: 21)
        }
        XCTAssertTrue(ONNXOperatorSupport.isSupported("QLinearConv", opset: 10))
        XCTAssertFalse(ONNXOperatorSupport.isSupported("QuantizeLinear", opset: 9))
    }
}
