import XCTest
@_spi(Internals) @testable import Fovea

/// The real pretrained SqueezeNets on the four photo crops reproduce
/// onnxruntime's outputs (`../shared/models/expected`) on the reference backend.
final class RealModelTests: XCTestCase {
    func testSqueezeNet11ReproducesOnnxruntimeLogits() throws {
        try checkModel(file: "squeezenet1.1.onnx", expectedSuffix: "squeezenet1.1.logits.f32", key: "squeezenet1.1",
                       labels: "labels1000.txt", normalization: .imageNet, outputsLogits: true)
    }

    func testSqueezeNet10ReproducesOnnxruntimeProbabilities() throws {
        // SqueezeNet 1.0 (TFLite weights) expects (p - 127.5) / 127.5, i.e. mean 0.5 and std 0.5.
        try checkModel(file: "squeezenet1.0.onnx", expectedSuffix: "squeezenet1.0.prob.f32", key: "squeezenet1.0",
                       labels: "labels1001.txt", normalization: PixelNormalization(mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5]),
                       outputsLogits: false)
    }

    private func checkModel(file: String, expectedSuffix: String, key: String, labels labelFile: String,
                            normalization: PixelNormalization, outputsLogits: Bool) throws {
        let labels = try ClassLabels(contentsOfFile: TestData.model(labelFile))
        let model = try Model(contentsOfFile: TestData.model(file)).describing {
            $0.classLabels = labels
            $0.imageInput?.normalization = normalization
        }
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = 5
        let expectedTop5 = try TestData.expectedTop5()
        let input = try XCTUnwrap(model.primaryInput).name
        let output = try XCTUnwrap(model.graph.outputs.first).name

        for photo in TestData.photoNames {
            // The exact 224×224 crops: no resizing involved.
            let image = try ImageDecoder.decode(contentsOf: TestData.photo("\(photo).224.ppm"))
            let tensor = try normalization.tensor(from: [image])
            let scores = try XCTUnwrap(model.predict([input: tensor])[output]?.floats)
            let expected = try TestData.floats(at: TestData.model("expected/\(photo).\(expectedSuffix)"))
            XCTAssertEqual(scores.count, expected.count, photo)
            let maxExpected = expected.map(abs).max() ?? 0
            let maxError = zip(scores, expected).map { abs($0 - $1) }.max() ?? .infinity
            XCTAssertLessThanOrEqual(maxError, 1e-3 * maxExpected, "\(file) on \(photo): max |Δ| \(maxError), max |expected| \(maxExpected)")

            let observations = try request.observations(forInputTensor: tensor)
            let photoFile = TestData.photoNames.contains(photo) ? try XCTUnwrap(expectedTop5.keys.first { $0.hasPrefix(photo + ".") }) : photo
            let expectedEntries = try XCTUnwrap(expectedTop5[photoFile]?[key], "\(photoFile) \(key)")
            XCTAssertEqual(observations.map(\.identifier), expectedEntries.map { labels.label(at: $0.index) ?? "" }, "\(file) on \(photo)")
            XCTAssertEqual(observations.map(\.identifier), expectedEntries.map(\.label), "\(file) on \(photo)")
            let probabilities = outputsLogits ? softmax(expected) : expected
            XCTAssertEqual(Double(observations[0].confidence), Double(probabilities[expectedEntries[0].index]), accuracy: 1e-4)
        }
    }

    func testBatchOfThreeEqualsThreeSingleRuns() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        let images = try ["red_panda", "coffee", "rocket"].map { try ImageDecoder.decode(contentsOf: TestData.photo("\($0).224.ppm")) }
        let batch = try PixelNormalization.imageNet.tensor(from: images)
        XCTAssertEqual(batch.shape, [3, 3, 224, 224])
        let batched = try XCTUnwrap(model.predict(["data": batch])["logits"])
        XCTAssertEqual(batched.shape, [3, 1000])
        let all = try XCTUnwrap(batched.floats)
        for (i, image) in images.enumerated() {
            let single = try XCTUnwrap(model.predict(["data": PixelNormalization.imageNet.tensor(from: [image])])["logits"]?.floats)
            XCTAssertEqual(Array(all[(i * 1000)..<((i + 1) * 1000)]), single)
        }
    }
}
