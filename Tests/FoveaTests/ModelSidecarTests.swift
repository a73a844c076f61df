import XCTest
@_spi(Internals) @testable import Fovea

/// Model descriptions: inferred from the graph, from a sidecar file, from
/// `metadata_props`, and set in code.
final class ModelSidecarTests: XCTestCase {
    /// A folder holding a symlink to SqueezeNet 1.1 (the test data is never copied) and `sidecar`, if given.
    private func squeezeNetFolder(sidecar: String?) throws -> String {
        let directory = try TestData.temporaryDirectory()
        let model = directory.appendingPathComponent("squeezenet1.1.onnx")
        try FileManager.default.createSymbolicLink(atPath: model.path, withDestinationPath: TestData.model("squeezenet1.1.onnx"))
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("labels1000.txt").path,
                                                   withDestinationPath: TestData.model("labels1000.txt"))
        if let sidecar {
            try Data(sidecar.utf8).write(to: directory.appendingPathComponent("squeezenet1.1.fovea.json"))
        }
        return model.path
    }

    /// The README's sidecar for SqueezeNet 1.1.
    static let squeezeNetSidecar = """
    {
      "input": "data",
      "input_size": [224, 224],
      "channel_order": "rgb",
      "mean": [0.485, 0.456, 0.406],
      "std": [0.229, 0.224, 0.225],
      "crop_fraction": 0.875,
      "labels": "labels1000.txt",
      "output": "logits",
      "output_kind": "logits"
    }
    """

    func testGraphAloneGivesTheImageInputAndNoLabels() throws {
        let description = try Model(contentsOfFile: try squeezeNetFolder(sidecar: nil)).modelDescription
        let image = try XCTUnwrap(description.imageInput)
        XCTAssertEqual(image.name, "data")
        XCTAssertEqual([image.width, image.height], [224, 224])
        XCTAssertEqual(image.normalization, .imageNet)
        XCTAssertNil(image.cropFraction)
        XCTAssertNil(description.classLabels)
        XCTAssertNil(description.outputKind)
        XCTAssertEqual(description.scoresOutputName, "logits")
        XCTAssertEqual(description.metadata.format, "ONNX")
    }

    func testTheREADMESidecarIsReadNextToTheModel() throws {
        let model = try Model(contentsOfFile: try squeezeNetFolder(sidecar: Self.squeezeNetSidecar))
        let description = model.modelDescription
        XCTAssertEqual(description.imageInput?.cropFraction, 0.875)
        XCTAssertEqual(description.classLabels?.count, 1000)
        XCTAssertEqual(description.outputKind, .logits)
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = 1
        let top = try ImageRequestHandler(contentsOfFile: TestData.photo("coffee.png")).performAndWait(request)
        XCTAssertEqual(top.first?.identifier, "espresso")
    }

    func testScaleBiasAndBGRInTheSidecar() throws {
        let json = #"{"channel_order": "bgr", "scale": [0.5], "bias": [-1, -2, -3], "labels": ["x"]}"#
        var description = ModelDescription(inputs: [ValueInfo(name: "data", dataType: .float32, dimensions: [.known(1), .known(3), .known(8), .known(8)])],
                                           outputs: [])
        description.imageInput = ImageInputDescription(name: "data", width: 8, height: 8, normalization: .imageNet)
        try ModelSidecar(json: Data(json.utf8)).apply(to: &description)
        let normalization = try XCTUnwrap(description.imageInput?.normalization)
        XCTAssertEqual(normalization.channelOrder, .bgr)
        for (value, expected) in zip(normalization.bias, [Float(-1), -2, -3]) { XCTAssertEqual(value, expected, accuracy: 1e-5) }
        for value in normalization.scale { XCTAssertEqual(value, 0.5, accuracy: 1e-7) }
        XCTAssertEqual(description.classLabels, ClassLabels(["x"]))
    }

    func testMetadataPropsAreUsedAndTheSidecarWins() throws {
        var graph = try ModelFile.loadGraph(contentsOf: TestData.model("squeezenet1.1.onnx"))
        graph.metadata.properties["fovea"] = #"{"crop_fraction": 0.5, "output_kind": "probabilities"}"#
        let embedded = try Model.describe(graph, modelPath: "/nonexistent/dir/model.onnx")
        XCTAssertEqual(embedded.imageInput?.cropFraction, 0.5)
        XCTAssertEqual(embedded.outputKind, .probabilities)
        let path = try squeezeNetFolder(sidecar: #"{"crop_fraction": 0.875}"#)
        let both = try Model.describe(graph, modelPath: path)
        XCTAssertEqual(both.imageInput?.cropFraction, 0.875)
        XCTAssertEqual(both.outputKind, .probabilities)
    }

    func testCodeOverridesAndKeepsThePlans() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        let described = try model.describing { $0.imageInput?.cropFraction = 0.9 }
        XCTAssertEqual(described.modelDescription.imageInput?.cropFraction, 0.9)
        XCTAssertNil(model.modelDescription.imageInput?.cropFraction, "the original is unchanged")
        XCTAssertTrue(try described.plan() === model.plan(), "the prepared plan is shared")
    }

    func testBadSidecarsAndDescriptionsAreTypedErrors() throws {
        let cases: [(String, String)] = [
            ("{not json", "invalid sidecar JSON"),
            (#"{"crop_fraction": "big"}"#, "crop_fraction"),
            (#"{"crop_fraction": 1.5}"#, "(0, 1]"),
            (#"{"channel_order": "cmyk"}"#, "cmyk"),
            (#"{"input_size": [224]}"#, "[width, height]"),
            (#"{"mean": [0.5, 0.5]}"#, "3 means"),
            (#"{"mean": [0.5, 0.5, 0.5], "scale": [1]}"#, "not both"),
            (#"{"labels": "missing.txt"}"#, "missing.txt"),
            (#"{"labels": ["only", "two"]}"#, "name 2 classes but the model has 1000"),
            (#"{"input": "nope", "input_size": [2, 2]}"#, "'nope'"),
            (#"{"output": "nope"}"#, "'nope'"),
            (#"{"output_kind": "odds"}"#, "odds"),
        ]
        for (json, fragment) in cases {
            let path = try squeezeNetFolder(sidecar: json)
            XCTAssertThrowsError(try Model(contentsOfFile: path), json) { error in
                guard let error = error as? FoveaError else { return XCTFail("\(json): \(error)") }
                XCTAssertTrue(error.description.contains(fragment), "\(json): \(error)")
                XCTAssertTrue(error.description.contains("squeezenet1.1.") || error.description.contains("missing.txt"), "\(json): names the file: \(error)")
                XCTAssertFalse(error.description.contains("\n"), "\(json): \(error)")
            }
        }
    }

    // MARK: issue 15: a mistyped key is an error, "imagenet" names the built-in labels

    func testAnUnknownKeyIsAnErrorNamingItAndTheKnownKeys() throws {
        let known = "known keys: input, input_size, channel_order, mean, std, scale, bias, crop_fraction, labels, output, output_kind"
        XCTAssertEqual(ModelSidecar.knownKeys.joined(separator: ", "), String(known.dropFirst("known keys: ".count)))
        let path = try squeezeNetFolder(sidecar: #"{"label": "labels1000.txt"}"#)
        XCTAssertThrowsError(try Model(contentsOfFile: path)) { error in
            guard let error = error as? FoveaError else { return XCTFail("\(error)") }
            XCTAssertEqual(error.kind, .invalidArgument)
            XCTAssertEqual(error.description, "\(ModelSidecar.path(forModelAt: path)): invalid sidecar: unknown key 'label' (did you mean 'labels'?); \(known)")
        }
        // Every unknown key is named; a hint only when one is close.
        let several = try squeezeNetFolder(sidecar: #"{"crop_fraction": 0.875, "Crop_Fraction": 0.5, "comment": "mine"}"#)
        XCTAssertThrowsError(try Model(contentsOfFile: several)) { error in
            XCTAssertTrue("\(error)".hasSuffix("invalid sidecar: unknown keys 'Crop_Fraction' (did you mean 'crop_fraction'?), 'comment'; \(known)"), "\(error)")
        }
    }

    func testAnUnknownKeyInMetadataPropsIsAnErrorToo() throws {
        var graph = try ModelFile.loadGraph(contentsOf: TestData.model("squeezenet1.1.onnx"))
        graph.metadata.properties["fovea"] = #"{"outputkind": "probabilities"}"#
        XCTAssertThrowsError(try Model.describe(graph, modelPath: "/nonexistent/dir/model.onnx")) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/dir/model.onnx: invalid sidecar: unknown key 'outputkind' (did you mean 'output_kind'?)"), "\(error)")
        }
    }

    func testSidecarLabelsImagenetAreTheBuiltInLabels() throws {
        let model = try Model(contentsOfFile: try squeezeNetFolder(sidecar: #"{"labels": "imagenet", "crop_fraction": 0.875}"#))
        XCTAssertEqual(model.modelDescription.classLabels, try ClassLabels.imageNet1k)
        XCTAssertNil(model.classLabelsWarning)
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = 1
        XCTAssertEqual(try ImageRequestHandler(contentsOfFile: TestData.photo("coffee.png")).performAndWait(request).first?.identifier, "espresso")
    }
}
