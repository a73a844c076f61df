import Foundation
import XCTest
import FoveaCore
import FoveaCoreML
import FoveaPortableBackend

/// The three SqueezeNet 1.1 classifiers (fp32, fp16, 8-bit LUT) on the exact 224×224 crops.
final class CoreMLSqueezeNetTests: XCTestCase {
    /// Applies the model's own scaler in Core ML's order: `p × channelScale + bias[c]`.
    private func preprocessed(_ photo: String, _ model: CoreMLModel) throws -> Tensor {
        let image = try XCTUnwrap(model.imageInput)
        XCTAssertEqual(image.colorSpace, .rgb)
        let pixels = try CoreMLTestData.ppm("photos/\(photo).224.ppm")
        var values = try pixels.requireFloats()
        let plane = image.width * image.height
        for index in values.indices {
            values[index] = values[index] * image.channelScale + image.channelBiases[index / plane]
        }
        let x = try Tensor(shape: pixels.shape, floats: values)
        // The library's helper does the same.
        XCTAssertEqual(try image.preprocess(pixels), x)
        return x
    }

    private func expectedTop5(_ model: String, _ photo: String) throws -> [Int] {
        let data = try Data(contentsOf: URL(fileURLWithPath: CoreMLTestData.path("coreml/expected_top5.json")))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: [String: [[String: Any]]]])
        return try XCTUnwrap(json[model]?[photo]).compactMap { $0["index"] as? Int }
    }

    private func check(_ modelName: String, photos: [String], tolerance: Float, backends: [any Backend] = []) throws {
        let model = try CoreMLLoader.load(contentsOf: CoreMLTestData.path("coreml/\(modelName).mlmodel"))
        let classifier = try XCTUnwrap(model.classifier)
        for photo in photos {
            let x = try preprocessed(photo, model)
            let probabilities = try CoreMLTestData.run(model.graph, [model.graph.inputs[0].name: x], backends: backends)
            let expected = try CoreMLTestData.floats("coreml/expected/\(photo).\(modelName).probs.f32")
            XCTAssertEqual(probabilities.count, 1000)
            XCTAssertLessThan(CoreMLTestData.maxDifference(probabilities, expected), tolerance, "\(modelName) \(photo)")
            let top5 = probabilities.indices.sorted { probabilities[$0] > probabilities[$1] }.prefix(5)
            let want = try expectedTop5(modelName, photo)
            XCTAssertEqual(Array(top5.prefix(3)), Array(want.prefix(3)), "\(modelName) \(photo) top-3")
            XCTAssertEqual(Set(top5), Set(want), "\(modelName) \(photo) top-5 set")
            if modelName == "SqueezeNet11" {
                let logits = try CoreMLTestData.floats("expected/\(photo).squeezenet1.1.logits.f32")
                XCTAssertLessThan(CoreMLTestData.maxDifference(probabilities, CoreMLTestData.softmax(logits)), 1e-4, "\(photo) vs ONNX")
            }
            if photo == "red_panda" {
                XCTAssertEqual(classifier.labels[top5[0]].hasPrefix("lesser panda"), true)
            }
        }
    }

    private let allPhotos = ["red_panda", "chelsea_cat", "coffee", "rocket"]

    func testFP32MatchesExpectedAndONNXOnAllPhotosOnEveryBackend() throws {
        for choice in CoreMLTestData.backendChoices {
            try check("SqueezeNet11", photos: allPhotos, tolerance: 1e-4, backends: choice.backends)
        }
    }

    // fp16 and the 8-bit lookup table decode to other float32 weights, with
    // expected outputs of their own: the README's tolerance for them is 1e-4 too.
    // The simd backend keeps the debug test run short; parity with the
    // reference backend is checked for every model above and in FoveaTests.
    func testFP16MatchesExpectedOnAllPhotos() throws {
        try check("SqueezeNet11FP16", photos: allPhotos, tolerance: 1e-4, backends: [SIMDBackend()])
    }

    func testInt8LookupTableMatchesExpectedOnAllPhotos() throws {
        try check("SqueezeNet11Int8LUT", photos: allPhotos, tolerance: 1e-4, backends: [SIMDBackend()])
    }

    func testDescription() throws {
        let model = try CoreMLLoader.load(contentsOf: CoreMLTestData.path("coreml/SqueezeNet11.mlmodel"))
        XCTAssertEqual(model.modelType, .neuralNetworkClassifier)
        XCTAssertEqual(model.modelType.displayName, "Neural Network Classifier")
        XCTAssertEqual(model.specificationVersion, 1)
        XCTAssertEqual(model.metadata.versionString, "1.1")
        XCTAssertTrue(model.metadata.author.hasPrefix("SqueezeNet: Forrest N. Iandola"))
        XCTAssertTrue(model.metadata.license.hasPrefix("Weights: Apache-2.0"))
        XCTAssertEqual(model.metadata.userDefined["fovea.variant"], "fp32")
        XCTAssertEqual(model.metadata.userDefined["com.github.apple.coremltools.version"], "9.0")
        XCTAssertEqual(model.inputs.map(\.name), ["image"])
        XCTAssertEqual(model.inputs[0].type, .image(width: 224, height: 224, colorSpace: .rgb))
        XCTAssertEqual(model.inputs[0].type.description, "Image (Color 224×224)")
        XCTAssertEqual(model.outputs.map(\.name), ["classLabelProbs", "classLabel"])
        XCTAssertEqual(model.outputs[0].type, .dictionary(keyType: "String"))
        XCTAssertEqual(model.outputs[1].type, .string)

        let image = try XCTUnwrap(model.imageInput)
        XCTAssertEqual(image.name, "image")
        XCTAssertEqual(image.tensorShape, [1, 3, 224, 224])
        XCTAssertEqual(image.channelScale, Float(1.0 / 255.0))
        XCTAssertEqual(image.channelBiases, [-0.485, -0.456, -0.406])
        XCTAssertNil(image.meanImage)

        let classifier = try XCTUnwrap(model.classifier)
        XCTAssertEqual(classifier.labels.count, 1000)
        XCTAssertEqual(classifier.labels[134], "crane (bird)")
        XCTAssertEqual(classifier.labels[517], "crane (machine)")
        XCTAssertEqual(classifier.probabilitiesOutputName, "classLabelProbs")
        XCTAssertEqual(classifier.labelOutputName, "classLabel")
        XCTAssertEqual(classifier.probabilityBlobName, "prob")
        XCTAssertEqual(model.graph.outputs.map(\.name), [classifier.graphOutputName])
        XCTAssertEqual(model.graph.outputs[0].knownShape, [1, 1000])
        XCTAssertEqual(model.graph.inputs[0].knownShape, [1, 3, 224, 224])

        XCTAssertEqual(model.layerHistogram["convolution"], 26)
        XCTAssertEqual(model.layerHistogram["activation"], 26)
        XCTAssertEqual(model.layerHistogram["pooling"], 4)
        XCTAssertEqual(model.layerHistogram["concat"], 8)
        XCTAssertEqual(model.layerHistogram.values.reduce(0, +), 67)
        XCTAssertEqual(model.graph.parameterCount, 1_235_499)
        XCTAssertEqual(model.graph.metadata.format, "Core ML")
    }

    /// Core ML multiplies, then adds; the other order changes the answer.
    func testPreprocessingOrderIsMultiplyThenAdd() throws {
        let model = try CoreMLLoader.load(contentsOf: CoreMLTestData.path("coreml/SqueezeNet11.mlmodel"))
        let image = try XCTUnwrap(model.imageInput)
        let one = try Tensor(shape: [1, 3, 224, 224], floats: [Float](repeating: 100, count: 3 * 224 * 224))
        let y = try image.preprocess(one).requireFloats()
        XCTAssertEqual(y[0], 100 * Float(1.0 / 255.0) + -0.485, accuracy: 1e-6)
        XCTAssertNotEqual(y[0], (100 + -0.485) * Float(1.0 / 255.0), accuracy: 1e-3)
        XCTAssertEqual(y[2 * 224 * 224], 100 * Float(1.0 / 255.0) + -0.406, accuracy: 1e-6)
        XCTAssertThrowsError(try image.preprocess(try Tensor(shape: [1, 3, 2, 2], repeating: 0).reshaped([1, 3, 2, 2])))
    }
}
