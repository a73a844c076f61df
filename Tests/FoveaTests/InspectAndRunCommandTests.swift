import XCTest
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

final class InspectAndRunCommandTests: XCTestCase {
    func testSummaryOfSqueezeNet11() throws {
        let summary = try ModelSummary(modelAt: TestData.model("squeezenet1.1.onnx"))
        XCTAssertEqual(summary.format, "ONNX")
        XCTAssertEqual(summary.opset, 13)
        XCTAssertEqual(summary.irVersion, 7)
        XCTAssertEqual(summary.nodeCount, 65)
        XCTAssertEqual(summary.parameterCount, 1_235_496)
        XCTAssertEqual(summary.fileSizeBytes, 4_950_394)
        XCTAssertEqual(summary.operators, ["Conv": 26, "Relu": 26, "MaxPool": 3, "Concat": 8, "GlobalAveragePool": 1, "Flatten": 1])
        XCTAssertEqual(summary.inputs, [ModelSummary.Value(name: "data", dataType: "float32", shape: ["1", "3", "224", "224"])])
        XCTAssertEqual(summary.outputs.map(\.name), ["logits"])
        // Conv multiply-adds, summed layer by layer with onnx.shape_inference in Python.
        XCTAssertEqual(summary.multiplyAccumulates, 349_151_936)
    }

    func testInspectCommandPrintsTextAndJSON() throws {
        let text = try TestData.runFovea(["inspect", "--model", TestData.model("squeezenet1.1.onnx")])
        XCTAssertEqual(text.status, 0, text.stderr)
        for expected in ["ONNX", "Opset", "13", "data", "1×3×224×224", "logits", "Conv 26", "1,235,496", "Multiply-adds"] {
            XCTAssertTrue(text.stdout.contains(expected), "missing \(expected) in:\n\(text.stdout)")
        }
        let json = try TestData.runFovea(["inspect", "--model", TestData.model("squeezenet1.0.onnx"), "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["nodeCount"] as? Int, 66)
        XCTAssertEqual(object["parameterCount"] as? Int, 1_248_937)
    }

    func testRunCommandReadsNpyWritesNpy() throws {
        let directory = try TestData.temporaryDirectory()
        let image = try ImageDecoder.decode(contentsOf: TestData.photo("coffee.224.ppm"))
        let input = try PixelNormalization.imageNet.tensor(from: [image])
        let inputPath = directory.appendingPathComponent("input.npy").path
        let outputPath = directory.appendingPathComponent("logits.npy").path
        try NumpyFile.write(input, to: inputPath)
        let result = try TestData.runFovea(["run", "--model", TestData.model("squeezenet1.1.onnx"), "--input", inputPath, "--output", outputPath])
        XCTAssertEqual(result.status, 0, result.stderr)
        let logits = try NumpyFile.read(contentsOf: outputPath)
        XCTAssertEqual(logits.shape, [1, 1000])
        let expected = try TestData.floats(at: TestData.model("expected/coffee.squeezenet1.1.logits.f32"))
        let maxError = zip(try XCTUnwrap(logits.floats), expected).map { abs($0 - $1) }.max() ?? .infinity
        XCTAssertLessThan(maxError, 0.03)

        let wrongShape = directory.appendingPathComponent("wrong.npy").path
        try NumpyFile.write(Tensor(shape: [1, 3, 100, 100], repeating: 0), to: wrongShape)
        let bad = try TestData.runFovea(["run", "--model", TestData.model("squeezenet1.1.onnx"), "--input", wrongShape, "--output", outputPath])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("data"), bad.stderr)
    }

    func testRunCommandReadsONNXTensorProtoInputs() throws {
        let test = "\(ConformanceRunner.defaultDataDirectory)/node/test_relu"
        let directory = try TestData.temporaryDirectory()
        let output = directory.appendingPathComponent("y.npy").path
        let result = try TestData.runFovea(["run", "--model", "\(test)/model.onnx", "--input", "\(test)/test_data_set_0/input_0.pb", "--output", output])
        XCTAssertEqual(result.status, 0, result.stderr)
        let y = try XCTUnwrap(NumpyFile.read(contentsOf: output).floats)
        XCTAssertTrue(y.allSatisfy { $0 >= 0 })
        XCTAssertEqual(y.count, 60)
    }
}
