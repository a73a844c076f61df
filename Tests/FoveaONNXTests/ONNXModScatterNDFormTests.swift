import XCTest
import FoveaCore
@testable import FoveaONNX

/// How Mod (fmod) and ScatterND (reduction, by opset) are read: Swin-T and
/// ViT-B/16 as torch.onnx exports them use both.
final class ONNXModScatterNDFormTests: XCTestCase {
    typealias B = ONNXModelBuilder

    private func op(_ type: String, _ inputs: [String], _ attributes: [Onnx_AttributeProto] = [], opset: Int64 = 13) throws -> Op {
        let node = B.node(type, inputs, ["y"], name: "n", attributes: attributes)
        let initializers = [B.floatTensor("b", dims: [1], [3]), B.int64Tensor("i", dims: [1, 1], [0]), B.floatTensor("u", dims: [1, 2, 4, 4], [Float](repeating: 1, count: 32))]
        return try B.load(B.singleNode(node, opset: opset, initializers: initializers)).nodes[0].op
    }

    func testModReadsFmod() throws {
        XCTAssertEqual(try op("Mod", ["x", "b"], [B.attribute("fmod", int: 1)]), .mod(fmod: true))
        XCTAssertTrue(ONNXOperatorSupport.isSupported("Mod", opset: 10))
        XCTAssertFalse(ONNXOperatorSupport.isSupported("Mod", opset: 9))
        assertFoveaError(.invalidAttribute, containing: "attribute 'fmod' is 2") { try self.op("Mod", ["x", "b"], [B.attribute("fmod", int: 2)]) }
    }

    func testScatterNDReadsReductionFromOpset16() throws {
        XCTAssertEqual(try op("ScatterND", ["x", "i", "u"]), .scatterND(reduction: .none))
        XCTAssertEqual(try op("ScatterND", ["x", "i", "u"], [B.attribute("reduction", string: "add")], opset: 16), .scatterND(reduction: .add))
        XCTAssertEqual(try op("ScatterND", ["x", "i", "u"], [B.attribute("reduction", string: "max")], opset: 18), .scatterND(reduction: .max))
        assertFoveaError(.invalidAttribute, containing: "attribute 'reduction' is 'max'; expected none, add, mul") {
            try self.op("ScatterND", ["x", "i", "u"], [B.attribute("reduction", string: "max")], opset: 16)
        }
    }
}
