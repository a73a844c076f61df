import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// The load error and ``ONNXLoader/unsupportedOperators(contentsOf:)`` name every
/// operator Fovea does not read, with its count and opset, not only the first.
final class ONNXUnsupportedOperatorTests: XCTestCase {
    typealias B = ONNXModelBuilder

    /// x → FooBar → Relu → FooBar → Quux → com.microsoft.FusedConv → HardSwish (opset 13: too early) → y
    private func modelWithSeveralUnsupportedOps() -> Onnx_ModelProto {
        B.model(
            opset: 13,
            nodes: [
                B.node("FooBar", ["x"], ["a"], name: "foo1"),
                B.node("Relu", ["a"], ["b"], name: "relu"),
                B.node("FooBar", ["b"], ["c"], name: "foo2"),
                B.node("Quux", ["c"], ["d"], name: "quux"),
                B.node("FusedConv", ["d"], ["e"], name: "fused", domain: "com.microsoft"),
                B.node("HardSwish", ["e"], ["y"]),
            ],
            inputs: [B.valueInfo("x", dims: [1, 2, 4, 4])], outputs: [B.valueInfo("y", dims: nil)],
            extraOpsets: ["com.microsoft": 1])
    }

    func testLoadErrorNamesEveryUnsupportedOpWithCountAndOpset() {
        do {
            _ = try B.load(modelWithSeveralUnsupportedOps())
            XCTFail("the model loaded")
        } catch let error as FoveaError {
            XCTAssertEqual(error.kind, .unsupported)
            XCTAssertEqual(error.message, "4 unsupported ops: 'FooBar' (opset 13) ×2 at nodes 'foo1', 'foo2'; "
                + "'Quux' (opset 13) at node 'quux'; 'com.microsoft.FusedConv' (opset 1) at node 'fused'; "
                + "'HardSwish' (opset 13) at node 'HardSwish_5'")
            XCTAssertEqual(error.location, FoveaError.Location(file: "test.onnx"))
        } catch {
            XCTFail("\(error)")
        }
    }

    func testUnsupportedOperatorsAsData() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("unsupported-\(UUID().uuidString).onnx").path
        try B.serialized(modelWithSeveralUnsupportedOps()).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let found = try ONNXLoader.unsupportedOperators(contentsOf: path)
        XCTAssertEqual(found, [
            UnsupportedONNXOperator(opType: "FooBar", opset: 13, nodes: ["foo1", "foo2"]),
            UnsupportedONNXOperator(opType: "Quux", opset: 13, nodes: ["quux"]),
            UnsupportedONNXOperator(opType: "com.microsoft.FusedConv", opset: 1, nodes: ["fused"]),
            UnsupportedONNXOperator(opType: "HardSwish", opset: 13, nodes: ["HardSwish_5"]),
        ])
        XCTAssertEqual(found.map(\.count), [2, 1, 1, 1])
        // A model Fovea reads has none.
        let fine = B.singleNode(B.node("Relu", ["x"], ["y"]))
        try B.serialized(fine).write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(try ONNXLoader.unsupportedOperators(contentsOf: path), [])
    }

    func testManyNodesOfOneOpAreCountedAndAbbreviated() {
        let nodes = (0..<5).map { B.node("Mystery", [$0 == 0 ? "x" : "v\($0 - 1)"], [$0 == 4 ? "y" : "v\($0)"], name: "m\($0)") }
        let model = B.model(nodes: nodes, inputs: [B.valueInfo("x", dims: [1])], outputs: [B.valueInfo("y", dims: nil)])
        assertFoveaError(.unsupported, containing: "test.onnx: unsupported op 'Mystery' (opset 13) ×5 at nodes 'm0', 'm1', 'm2' and 2 more") {
            try B.load(model)
        }
    }

    func testSupportTableHasOpsetRangesAndAgreesWithTheLoader() throws {
        XCTAssertEqual(ONNXOperatorSupport.opsets["Conv"], 7...21)
        XCTAssertEqual(ONNXOperatorSupport.opsets["HardSwish"], 14...21)
        // Operators introduced after opset 7 start at their first opset.
        let introduced = ["Expand": 8, "Erf": 9, "Where": 9, "ConstantOfShape": 9, "Range": 11, "Resize": 11, "Celu": 12,
                          "LessOrEqual": 12, "GreaterOrEqual": 12, "LayerNormalization": 17, "Mish": 18, "GroupNormalization": 18, "Gelu": 20]
        for (op, first) in introduced { XCTAssertEqual(ONNXOperatorSupport.opsets[op], first...21, op) }
        XCTAssertEqual(ONNXOperatorSupport.opsets["ReduceMean"], 7...21)
        XCTAssertTrue(ONNXOperatorSupport.isSupported("HardSwish", opset: 14))
        XCTAssertFalse(ONNXOperatorSupport.isSupported("HardSwish", opset: 13))
        XCTAssertFalse(ONNXOperatorSupport.isSupported("FooBar", opset: 13))
        for range in ONNXOperatorSupport.opsets.values {
            XCTAssertTrue(ONNXLoader.supportedOpsets.contains(range.lowerBound) && ONNXLoader.supportedOpsets.contains(range.upperBound))
        }
        XCTAssertTrue(ONNXOperatorSupport.listing.contains { $0.hasPrefix("HardSwish") && $0.hasSuffix("14–21") })
        XCTAssertEqual(ONNXOperatorSupport.listing.count, ONNXOperatorSupport.opsets.count)
    }
}
