import XCTest
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// Issue 5 end to end: Core ML classifiers need no flags.
final class CoreMLCommandTests: XCTestCase {
    func testClassifyWithNoFlagsFindsTheRedPanda() throws {
        let result = try TestData.runFovea(["classify", "--model", TestData.model("coreml/SqueezeNet11.mlmodel"), TestData.photo("red_panda.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertGreaterThanOrEqual(lines.count, 2, result.stdout)
        XCTAssertTrue(lines.count >= 2 && lines[1].contains("lesser panda"), result.stdout)
    }

    func testClassifyJSONAlsoPrintsCoreMLsOwnOutputs() throws {
        let result = try TestData.runFovea(["classify", "--model", TestData.model("coreml/SqueezeNet11.mlmodel"), "--json", "--top", "3",
                                            TestData.photo("chelsea_cat.224.ppm")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let first = try XCTUnwrap((json["results"] as? [[String: Any]])?.first)
        XCTAssertEqual((first["observations"] as? [Any])?.count, 3)
        let outputs = try XCTUnwrap(first["outputs"] as? [String: Any])
        XCTAssertEqual(outputs["classLabel"] as? String, "Egyptian cat")
        let probabilities = try XCTUnwrap(outputs["classLabelProbs"] as? [String: Double])
        XCTAssertEqual(probabilities.count, 1000)
        XCTAssertEqual(probabilities.values.reduce(0, +), 1, accuracy: 1e-3)
        XCTAssertNotNil(probabilities["crane (bird)"])
    }

    func testProbabilitiesOnTheExactCropsEqualTheONNXModelsSoftmax() throws {
        // No resizing: the crops are already 224×224, and the model's own scaler and labels are used.
        let model = try Model(contentsOfFile: TestData.model("coreml/SqueezeNet11.mlmodel"))
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = nil
        let labels = try XCTUnwrap(model.modelDescription.classLabels)
        for photo in TestData.photoNames {
            let observations = try ImageRequestHandler(contentsOfFile: TestData.photo("\(photo).224.ppm")).performAndWait(request)
            XCTAssertEqual(observations.count, 1000)
            let byLabel = Dictionary(observations.map { ($0.identifier, $0.confidence) }, uniquingKeysWith: { a, _ in a })
            let expected = softmax(try TestData.floats(at: TestData.model("expected/\(photo).squeezenet1.1.logits.f32")))
            let maxError = expected.indices.map { abs((byLabel[labels.names[$0]] ?? -1) - expected[$0]) }.max() ?? .infinity
            XCTAssertLessThanOrEqual(maxError, 1e-4, photo)
        }
    }

    func testInspectShowsWhatXcodeShows() throws {
        let result = try TestData.runFovea(["inspect", "--model", TestData.model("coreml/SqueezeNet11Int8LUT.mlmodel")])
        XCTAssertEqual(result.status, 0, result.stderr)
        for expected in ["Neural Network Classifier", "Image (Color 224×224)", "classLabelProbs", "classLabel", "Classes           1000",
                         "8-bit lookup table", "convolution 26", "Author", "License", "Version           1.1", "349.2 M"] {
            XCTAssertTrue(result.stdout.contains(expected), "missing '\(expected)' in:\n\(result.stdout)")
        }
        let fp16 = try ModelSummary(modelAt: TestData.model("coreml/SqueezeNet11FP16.mlmodel"))
        XCTAssertEqual(fp16.weightPrecision?.keys.sorted(), ["float16"])
        XCTAssertEqual(fp16.modelType, "Neural Network Classifier")
        XCTAssertEqual(fp16.specificationVersion, 2)
    }

    func testParityAndRunAcceptCoreMLModels() throws {
        let parity = try TestData.runFovea(["parity", "--model", TestData.model("coreml/TinyMobileNetV2.mlmodel")])
        XCTAssertEqual(parity.status, 0, parity.stdout + parity.stderr)
        XCTAssertEqual(parity.stdout.split(separator: "\n").last.map(String.init), "parity ok")

        let directory = try TestData.temporaryDirectory()
        let input = try Tensor(shape: [1, 3, 32, 32], floats: try TestData.floats(at: TestData.model("coreml/TinyMobileNetV2.input.f32")))
        let inputPath = directory.appendingPathComponent("x.npy").path
        let outputPath = directory.appendingPathComponent("y.npy").path
        try NumpyFile.write(input, to: inputPath)
        let run = try TestData.runFovea(["run", "--model", TestData.model("coreml/TinyMobileNetV2.mlmodel"), "--input", inputPath, "--output", outputPath])
        XCTAssertEqual(run.status, 0, run.stderr)
        let output = try XCTUnwrap(NumpyFile.read(contentsOf: outputPath).floats)
        let expected = try TestData.floats(at: TestData.model("coreml/TinyMobileNetV2.output.f32"))
        XCTAssertEqual(output.count, expected.count)
        let scale = expected.map(abs).max() ?? 1
        XCTAssertLessThanOrEqual(zip(output, expected).map { abs($0 - $1) }.max() ?? .infinity, 1e-4 * max(1, scale))
    }
}
