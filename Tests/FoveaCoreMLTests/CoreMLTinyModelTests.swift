import Foundation
import XCTest
import FoveaCore
import FoveaCoreML
import FoveaONNX

/// The random-weight layer models reproduce onnxruntime's outputs and their ONNX twins.
final class CoreMLTinyModelTests: XCTestCase {
    private func check(_ name: String, inputShape: [Int], specVersion: Int, compareONNXTwin: Bool = true) throws {
        let model = try CoreMLLoader.load(contentsOf: CoreMLTestData.path("coreml/\(name).mlmodel"))
        XCTAssertEqual(model.modelType, .neuralNetwork)
        XCTAssertEqual(model.specificationVersion, specVersion)
        XCTAssertNil(model.classifier)
        XCTAssertEqual(model.graph.inputs.map(\.name), ["input"])
        XCTAssertEqual(model.graph.inputs[0].knownShape, inputShape)
        let x = try Tensor(shape: inputShape, floats: try CoreMLTestData.floats("coreml/\(name).input.f32"))
        let expected = try CoreMLTestData.floats("coreml/\(name).output.f32")
        var y: [Float] = []
        for choice in CoreMLTestData.backendChoices {
            y = try CoreMLTestData.run(model.graph, ["input": x], backends: choice.backends)
            XCTAssertEqual(y.count, expected.count)
            for (a, b) in zip(y, expected) {
                XCTAssertEqual(a, b, accuracy: 1e-5 * max(1, abs(b)), "\(name) on \(choice.name)")
            }
        }
        // The ONNX twin, through the ONNX loader, agrees.
        guard compareONNXTwin else { return }
        let twin = try ONNXLoader.load(contentsOf: CoreMLTestData.path("coreml/\(name).onnx"))
        let onnx = try CoreMLTestData.run(twin, [twin.inputs[0].name: x])
        XCTAssertLessThan(CoreMLTestData.maxDifference(y, onnx), 1e-5, name)
    }

    func testTinyMobileNetV2() throws {
        try check("TinyMobileNetV2", inputShape: [1, 3, 32, 32], specVersion: 4)
    }

    func testTinyResNet() throws {
        try check("TinyResNet", inputShape: [1, 3, 32, 32], specVersion: 1)
    }

    func testTinyOps() throws {
        // Its ONNX twin writes ReLU6 as Max + Min, which are not among Fovea's ONNX operators.
        try check("TinyOps", inputShape: [1, 4, 16, 16], specVersion: 1, compareONNXTwin: false)
        let model = try CoreMLLoader.load(contentsOf: CoreMLTestData.path("coreml/TinyOps.mlmodel"))
        XCTAssertEqual(model.layerHistogram["padding"], 2)
        XCTAssertEqual(model.layerHistogram["unary"], 1)
        XCTAssertEqual(model.inputs[0].type, .multiArray(shape: [4, 16, 16], dataType: "Float32"))
    }
}
