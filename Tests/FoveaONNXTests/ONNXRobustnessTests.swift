import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// Bad bytes never crash the loader: each case throws a clear `FoveaError`.
final class ONNXRobustnessTests: XCTestCase {
    typealias B = ONNXModelBuilder

    private func squeezeNetBytes() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: TestPaths.model("squeezenet1.1.onnx")))
    }

    func testTruncatedModel() throws {
        let data = try squeezeNetBytes()
        var cuts = [1, 2, 7, 16, 64, 1000, 100_000, data.count - 64, data.count - 8, data.count - 1]
        cuts += (1...9).map { data.count * $0 / 10 }
        for cut in cuts {
            assertFoveaError(.invalidModel, containing: "squeezenet1.1.onnx: not a valid ONNX model") {
                try ONNXLoader.load(data: data.prefix(cut), fileName: "squeezenet1.1.onnx")
            }
        }
    }

    func testTruncationMessage() throws {
        let data = try squeezeNetBytes()
        assertFoveaError(.invalidModel, containing: "not a valid ONNX model: protobuf decoding failed: the data ends in the middle of a field (truncated file?)") {
            try ONNXLoader.load(data: data.prefix(data.count / 2), fileName: "m.onnx")
        }
    }

    func testEmptyFile() {
        assertFoveaError(.invalidModel, containing: "empty.onnx: the file is empty (0 bytes); expected an ONNX model") {
            try ONNXLoader.load(data: Data(), fileName: "empty.onnx")
        }
    }

    func testRandomBytes() {
        var generator = SeededGenerator(seed: 2024)
        for _ in 0..<64 {
            let bytes = Data((0..<1024).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            assertFoveaError(.invalidModel, containing: "random.onnx: ") {
                try ONNXLoader.load(data: bytes, fileName: "random.onnx")
            }
            assertFoveaError(.invalidModel, containing: "not a valid ONNX tensor") { try ONNXTensorFile.decode(data: bytes) }
        }
    }

    /// Random byte changes in a small valid model: loading either succeeds or throws a `FoveaError`.
    func testMutatedModelsNeverCrash() throws {
        let node = B.node("Conv", ["x", "w", "b"], ["y"], attributes: [B.attribute("pads", ints: [1, 1, 1, 1]), B.attribute("group", int: 1)])
        let model = B.singleNode(node, initializers: [B.floatTensor("w", dims: [2, 2, 3, 3], [Float](repeating: 1, count: 36)), B.floatTensor("b", dims: [2], [0, 0])])
        let original = try B.serialized(model)
        var generator = SeededGenerator(seed: 7)
        var loaded = 0
        for _ in 0..<500 {
            var bytes = original
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
            }
            do {
                _ = try ONNXLoader.load(data: bytes, fileName: "mutated.onnx")
                loaded += 1
            } catch is FoveaError {
                // expected for most mutations
            } catch {
                XCTFail("not a FoveaError: \(error)")
            }
        }
        // Mutations of the weights' bytes still load; the rest must have failed cleanly.
        XCTAssertGreaterThan(loaded, 0)
        XCTAssertLessThan(loaded, 500)
    }

    func testProtobufThatIsNotAModel() throws {
        XCTAssertNoThrow(try B.load(B.singleNode(B.node("Relu", ["x"], ["y"]))))
        // A TensorProto is protobuf, but no model.
        let tensor: Data = try B.floatTensor("w", dims: [2], [1, 2]).serializedBytes()
        assertFoveaError(.invalidModel, containing: "not a valid ONNX model") { try ONNXLoader.load(data: tensor, fileName: "t.pb") }

        var noGraph = B.singleNode(B.node("Relu", ["x"], ["y"]))
        noGraph.clearGraph()
        assertFoveaError(.invalidModel, containing: "not a valid ONNX model: it has no graph") { try B.load(noGraph) }

        var noOpset = B.singleNode(B.node("Relu", ["x"], ["y"]))
        noOpset.opsetImport = []
        assertFoveaError(.invalidModel, containing: "not a valid ONNX model: it has no opset_import") { try B.load(noOpset) }

        var noOutputs = B.singleNode(B.node("Relu", ["x"], ["y"]))
        noOutputs.graph.output = []
        assertFoveaError(.invalidModel, containing: "not a valid ONNX model: its graph has no outputs") { try B.load(noOutputs) }

        var otherDomainOnly = B.singleNode(B.node("Relu", ["x"], ["y"]))
        otherDomainOnly.opsetImport[0].domain = "com.example"
        assertFoveaError(.invalidModel, containing: "opset_import has no entry for the default domain") { try B.load(otherDomainOnly) }
    }

    func testFileErrors() {
        assertFoveaError(.io, containing: "/nonexistent/model.onnx: no such file") { try ONNXLoader.load(contentsOf: "/nonexistent/model.onnx") }
        assertFoveaError(.io, containing: "is a directory") { try ONNXLoader.load(contentsOf: TestPaths.models.path) }
    }
}

