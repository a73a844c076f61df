import Foundation
import XCTest
import SwiftProtobuf
import FoveaCore
@testable import FoveaCoreML

/// Bad files and unsupported models give clear typed errors, never a crash.
final class CoreMLErrorTests: XCTestCase {
    private func loadError(_ data: Data, file: StaticString = #filePath, line: UInt = #line) -> FoveaError? {
        do {
            _ = try CoreMLLoader.load(data: data, fileName: "bad.mlmodel")
            XCTFail("expected an error", file: file, line: line)
            return nil
        } catch let error as FoveaError {
            XCTAssertEqual(error.location.file, "bad.mlmodel", file: file, line: line)
            return error
        } catch {
            XCTFail("not a FoveaError: \(error)", file: file, line: line)
            return nil
        }
    }

    private func tinyModelData() throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: CoreMLTestData.path("coreml/TinyResNet.mlmodel")))
    }

    func testEmptyGarbageAndTruncatedFiles() throws {
        XCTAssertEqual(loadError(Data())?.kind, .invalidModel)
        XCTAssertTrue(loadError(Data())?.description.contains("empty") ?? false)
        XCTAssertEqual(loadError(Data("this is not a model at all".utf8))?.kind, .invalidModel)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let garbage = Data((0..<257).map { _ in UInt8.random(in: 0...255, using: &generator) })
            if let error = loadError(garbage) { XCTAssertTrue([.invalidModel, .unsupported].contains(error.kind), "\(error)") }
        }
        let full = try tinyModelData()
        for length in [1, 10, 100, full.count / 3, full.count / 2, full.count - 1] {
            let error = loadError(full.prefix(length))
            XCTAssertTrue(error?.kind == .invalidModel || error?.kind == .unsupported, "\(length): \(String(describing: error))")
        }
        XCTAssertEqual((try? CoreMLLoader.load(contentsOf: "/nonexistent/x.mlmodel")) == nil, true)
        XCTAssertThrowsError(try CoreMLLoader.load(contentsOf: "/nonexistent/x.mlmodel")) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .io)
        }
    }

    func testUnsupportedModelTypes() throws {
        var model = CoreML_Specification_Model()
        model.specificationVersion = 5
        model.description_p.input = [feature("x")]
        model.mlProgram = CoreML_Specification_OpaqueModel()
        var error = loadError(try model.serializedData())
        XCTAssertEqual(error?.kind, .unsupported)
        XCTAssertTrue(error?.message.contains("ML Program") ?? false, "\(String(describing: error))")

        var pipeline = CoreML_Specification_Pipeline()
        var extractor = CoreML_Specification_Model()
        extractor.visionFeaturePrint = CoreML_Specification_OpaqueModel()
        var glm = CoreML_Specification_Model()
        glm.glmClassifier = CoreML_Specification_OpaqueModel()
        pipeline.models = [extractor, glm]
        model.pipelineClassifier = CoreML_Specification_PipelineClassifier.with { $0.pipeline = pipeline }
        error = loadError(try model.serializedData())
        XCTAssertEqual(error?.kind, .unsupported)
        XCTAssertTrue(error?.message.contains("visionFeaturePrint + glmClassifier") ?? false, "\(String(describing: error))")
        XCTAssertTrue(error?.message.contains("VisionFeaturePrint") ?? false)

        model.treeEnsembleClassifier = CoreML_Specification_OpaqueModel()
        error = loadError(try model.serializedData())
        XCTAssertTrue(error?.message.contains("treeEnsembleClassifier") ?? false, "\(String(describing: error))")
    }

    func testUnsupportedSpecificationVersion() throws {
        var model = try CoreML_Specification_Model(serializedBytes: try tinyModelData())
        model.specificationVersion = 7
        let error = loadError(try model.serializedData())
        XCTAssertEqual(error?.kind, .unsupported)
        XCTAssertTrue(error?.message.contains("specification version 7") ?? false)
    }

    /// A layer type outside the proto subset is named from its field number.
    func testUnknownLayerIsNamed() throws {
        var model = try CoreML_Specification_Model(serializedBytes: try tinyModelData())
        var layer = CoreML_Specification_NeuralNetworkLayer()
        layer.name = "my_gelu"
        layer.input = ["input"]
        layer.output = ["gelu_out"]
        // Field 795 (gelu), length-delimited, empty GeluLayerParams.
        var bytes = try layer.serializedData()
        bytes.append(contentsOf: [0xda, 0x31, 0x00])
        let unknown = try CoreML_Specification_NeuralNetworkLayer(serializedBytes: bytes)
        XCTAssertNil(unknown.layer)
        guard case .neuralNetwork(var network) = model.type else { return XCTFail("not a neural network") }
        network.layers.insert(unknown, at: 0)
        model.neuralNetwork = network
        let error = loadError(try model.serializedData())
        XCTAssertEqual(error?.kind, .unsupported)
        XCTAssertEqual(error?.location.node, "my_gelu")
        XCTAssertEqual(error?.location.opType, "gelu")
        XCTAssertTrue(error?.message.contains("'gelu' (NeuralNetworkLayer field 795)") ?? false, "\(String(describing: error))")
    }

    func testBadWeightCountIsReported() throws {
        var model = try CoreML_Specification_Model(serializedBytes: try tinyModelData())
        guard case .neuralNetwork(var network) = model.type, case .convolution(var conv) = network.layers[0].layer else {
            return XCTFail("unexpected model")
        }
        conv.weights.floatValue.removeLast()
        network.layers[0].convolution = conv
        model.neuralNetwork = network
        let error = loadError(try model.serializedData())
        XCTAssertEqual(error?.kind, .invalidModel)
        XCTAssertEqual(error?.location.node, network.layers[0].name)
        XCTAssertTrue(error?.message.contains("weights holds") ?? false, "\(String(describing: error))")
    }

    func testQuantizedAndHalfWeights() throws {
        // 2-bit lookup table, indices packed most significant bit first: 0b00_01_10_11, 0b11_00_0000.
        var lut = CoreML_Specification_WeightParams()
        lut.rawValue = Data([0b0001_1011, 0b1100_0000])
        lut.quantization.numberOfBits = 2
        lut.quantization.lookupTableQuantization.floatValue = [10, 20, 30, 40]
        XCTAssertEqual(try CoreMLWeights.decode(lut, count: 6, role: "w"), [10, 20, 30, 40, 40, 10])
        XCTAssertThrowsError(try CoreMLWeights.decode(lut, count: 9, role: "w"))

        // 4-bit linear, one scale and bias per output channel (2 channels of 2 values).
        var linear = CoreML_Specification_WeightParams()
        linear.rawValue = Data([0x12, 0xf0])
        linear.quantization.numberOfBits = 4
        linear.quantization.linearQuantization.scale = [0.5, 2]
        linear.quantization.linearQuantization.bias = [1, -1]
        XCTAssertEqual(try CoreMLWeights.decode(linear, count: 4, role: "w", channels: 2), [1.5, 2, 29, -1])

        var half = CoreML_Specification_WeightParams()
        half.float16Value = Data([0x00, 0x3c, 0x00, 0xc0, 0x01, 0x00, 0x00, 0x7c])
        let values = try CoreMLWeights.decode(half, count: 4, role: "w")
        XCTAssertEqual(values[0], 1)
        XCTAssertEqual(values[1], -2)
        XCTAssertEqual(values[2], Float(sign: .plus, exponent: -24, significand: 1))
        XCTAssertEqual(values[3], .infinity)

        var bits = CoreML_Specification_WeightParams()
        bits.rawValue = Data([0])
        bits.quantization.numberOfBits = 9
        XCTAssertEqual((try? CoreMLWeights.decode(bits, count: 1, role: "w")) == nil, true)
    }

    private func feature(_ name: String) -> CoreML_Specification_FeatureDescription {
        var f = CoreML_Specification_FeatureDescription()
        f.name = name
        f.type.multiArrayType.shape = [3]
        f.type.multiArrayType.dataType = .float32
        return f
    }
}
