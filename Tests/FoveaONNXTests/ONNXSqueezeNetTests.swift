import Foundation
import XCTest
import FoveaCore
import FoveaONNX

/// The real pretrained models in ../shared/models.
final class ONNXSqueezeNetTests: XCTestCase {
    func testSqueezeNet11() throws {
        let path = TestPaths.model("squeezenet1.1.onnx")
        let graph = try ONNXLoader.load(contentsOf: path)
        XCTAssertEqual(graph.nodes.count, 65)
        XCTAssertEqual(graph.parameterCount, 1_235_496)
        XCTAssertEqual(graph.inputs, [ValueInfo(name: "data", dataType: .float32, dimensions: [.known(1), .known(3), .known(224), .known(224)])])
        XCTAssertEqual(graph.outputs.map(\.name), ["logits"])
        XCTAssertEqual(graph.outputs.first?.knownShape, [1, 1000])
        XCTAssertEqual(graph.opHistogram, ["Conv": 26, "Relu": 26, "MaxPool": 3, "Concat": 8, "GlobalAveragePool": 1, "Flatten": 1])
        XCTAssertEqual(Set(graph.nodes.map(\.name)).count, graph.nodes.count)

        // The first conv: 3×3 stride 2, no padding, 64 output channels, with bias.
        let conv0 = try XCTUnwrap(graph.nodes.first)
        XCTAssertEqual(conv0.op, .conv(ConvAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1], pads: [0, 0, 0, 0])))
        XCTAssertEqual(conv0.inputs.count, 3)
        XCTAssertEqual(graph.initializers[conv0.inputs[1]]?.shape, [64, 3, 3, 3])
        XCTAssertEqual(graph.initializers[conv0.inputs[2]]?.shape, [64])

        let pools = graph.nodes.filter { $0.op.typeName == "MaxPool" }
        XCTAssertEqual(pools.first?.op, .maxPool(PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1], pads: [0, 0, 0, 0])))
        XCTAssertTrue(graph.nodes.filter { $0.op.typeName == "Concat" }.allSatisfy { $0.op == .concat(axis: 1) })
        XCTAssertEqual(graph.nodes.last?.op, .flatten(axis: 1))

        XCTAssertEqual(graph.metadata.format, "ONNX")
        XCTAssertEqual(graph.metadata.irVersion, 7)
        XCTAssertEqual(graph.metadata.opset, 13)
    }

    func testSqueezeNet10() throws {
        let graph = try ONNXLoader.load(contentsOf: TestPaths.model("squeezenet1.0.onnx"))
        XCTAssertEqual(graph.nodes.count, 66)
        XCTAssertEqual(graph.parameterCount, 1_248_937)
        XCTAssertEqual(graph.inputs.map(\.name), ["data"])
        XCTAssertEqual(graph.inputs.first?.knownShape, [1, 3, 224, 224])
        XCTAssertEqual(graph.outputs.map(\.name), ["prob"])
        XCTAssertEqual(Set(graph.opHistogram.keys), ["Conv", "Relu", "MaxPool", "Concat", "GlobalAveragePool", "Flatten", "Softmax"])
        XCTAssertEqual(graph.opHistogram["Softmax"], 1)
        // conv1: 7×7 stride 2 with TensorFlow-SAME-like asymmetric pads [2, 2, 3, 3].
        XCTAssertEqual(graph.nodes.first?.op, .conv(ConvAttributes(kernelShape: [7, 7], strides: [2, 2], dilations: [1, 1], pads: [2, 2, 3, 3])))
        // Opset 13: softmax along one axis.
        XCTAssertEqual(graph.nodes.last?.op, .softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)))
    }

    func testOperatorTypes() throws {
        let types = try ONNXLoader.operatorTypes(contentsOf: TestPaths.model("squeezenet1.0.onnx"))
        XCTAssertEqual(types, ["Conv", "Relu", "MaxPool", "Concat", "GlobalAveragePool", "Flatten", "Softmax"])
    }
}
