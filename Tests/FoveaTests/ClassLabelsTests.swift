import Foundation
import XCTest
@_spi(Internals) @testable import Fovea

/// Issue 15: labels that cannot go missing silently — the built-in ImageNet
/// labels (a package resource), and the warning for a classifier without labels.
final class ClassLabelsTests: XCTestCase {
    // MARK: the built-in ImageNet labels

    func testImageNet1kIsTheStandardList() throws {
        let labels = try ClassLabels.imageNet1k
        XCTAssertEqual(labels.count, 1000)
        XCTAssertEqual(labels.count, ClassLabels.imageNet1kClassCount)
        XCTAssertEqual(labels.label(at: 0), "tench, Tinca tinca")
        XCTAssertEqual(labels.label(at: 387), "lesser panda, red panda, panda, bear cat, cat bear, Ailurus fulgens")
        XCTAssertEqual(labels.label(at: 999), "toilet tissue, toilet paper, bathroom tissue")
        XCTAssertNil(labels.label(at: 1000))
        XCTAssertEqual(labels, try ClassLabels(contentsOfFile: TestData.model("labels1000.txt")))
    }

    func testTheLabelsComeFromTheResourceBundleThatBundleModuleFinds() throws {
        // SwiftPM's accessor, as generated for the Fovea target on this platform.
        let module = Bundle.module
        let moduleFile = try XCTUnwrap(module.url(forResource: ClassLabels.imageNet1kResource, withExtension: nil),
                                       "Bundle.module has no \(ClassLabels.imageNet1kResource)")
        let bundle = try XCTUnwrap(PackageResources.fovea.bundle, "Fovea's own lookup found no resource bundle")
        XCTAssertEqual(bundle.bundleURL.standardizedFileURL.resolvingSymlinksInPath(),
                       module.bundleURL.standardizedFileURL.resolvingSymlinksInPath())
        let found = try XCTUnwrap(PackageResources.fovea.url(forResource: ClassLabels.imageNet1kResource))
        XCTAssertEqual(found.standardizedFileURL.resolvingSymlinksInPath(), moduleFile.standardizedFileURL.resolvingSymlinksInPath())
        XCTAssertFalse(found.path.contains("/Sources/"), "read from the built bundle, not the source tree: \(found.path)")
        XCTAssertNil(PackageResources.fovea.url(forResource: "no-such-resource.txt"))
    }

    func testImagenetNamesTheBuiltInListAndAnythingElseIsAFile() throws {
        XCTAssertEqual(try ClassLabels(namedOrAt: "imagenet"), try ClassLabels.imageNet1k)
        let directory = try TestData.temporaryDirectory()
        try Data("a\nb\n".utf8).write(to: directory.appendingPathComponent("imagenet"))
        XCTAssertEqual(try ClassLabels(namedOrAt: "./imagenet", relativeTo: directory.path), ClassLabels(["a", "b"]))
        XCTAssertEqual(try ClassLabels(namedOrAt: directory.appendingPathComponent("imagenet").path), ClassLabels(["a", "b"]))
        XCTAssertThrowsError(try ClassLabels(namedOrAt: "ImageNet", relativeTo: directory.path)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .io)
            XCTAssertTrue("\(error)".contains("ImageNet"), "\(error)")
        }
    }

    func testLabelsFromAFileURL() throws {
        let url = URL(fileURLWithPath: TestData.model("labels1000.txt"))
        XCTAssertEqual(try ClassLabels(contentsOf: url), try ClassLabels.imageNet1k)
        XCTAssertThrowsError(try ClassLabels(contentsOf: URL(string: "https://example.com/labels.txt")!)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
            XCTAssertTrue("\(error)".contains("https://example.com/labels.txt"), "\(error)")
        }
    }

    // MARK: a model without labels says so

    func testAnONNXModelWithoutLabelsWarnsInOneLine() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        XCTAssertFalse(model.hasClassLabels)
        let warning = try XCTUnwrap(model.classLabelsWarning)
        XCTAssertFalse(warning.contains("\n"), warning)
        for fragment in ["squeezenet1.1.onnx: ", "no class labels", "1000 classes", "\"class 0\"", "\"labels\"", "ClassLabels.imageNet1k"] {
            XCTAssertTrue(warning.contains(fragment), "'\(warning)' lacks '\(fragment)'")
        }
        // The observations really are named by index: what the warning is about.
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = 1
        let top = try ImageRequestHandler(contentsOfFile: TestData.photo("red_panda.jpg")).performAndWait(request)
        XCTAssertEqual(top.first?.identifier, "class 387")
    }

    func testLabelsSetInCodeOrBuiltInSilenceTheWarning() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx")).describing {
            $0.classLabels = try .imageNet1k
        }
        XCTAssertTrue(model.hasClassLabels)
        XCTAssertNil(model.classLabelsWarning)
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = 1
        let top = try ImageRequestHandler(contentsOfFile: TestData.photo("red_panda.jpg")).performAndWait(request)
        XCTAssertEqual(top.first?.identifier, "lesser panda, red panda, panda, bear cat, cat bear, Ailurus fulgens")
    }

    func testACoreMLClassifierHasItsOwnLabels() throws {
        let model = try Model(contentsOfFile: TestData.model("coreml/SqueezeNet11.mlmodel"))
        XCTAssertTrue(model.hasClassLabels)
        XCTAssertNil(model.classLabelsWarning)
    }

    func testAModelWithNoImageInputIsNotWarnedAbout() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx")).describing { $0.imageInput = nil }
        XCTAssertFalse(model.hasClassLabels)
        XCTAssertNil(model.classLabelsWarning, "not an image classifier: nothing is named by index")
    }

    // MARK: the command line

    func testClassifyWithoutLabelsWarnsOnceBeforeTheResults() throws {
        let result = try TestData.runFovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"), "--top", "1",
                                            TestData.photo("red_panda.jpg"), TestData.photo("coffee.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.contains("class 387"), result.stdout)
        // Standard error: the warning, then the summary line of the two images.
        let lines = result.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 2, "one warning for two images: \(result.stderr)")
        XCTAssertEqual(lines.last?.hasPrefix("2 images classified in "), true, result.stderr)
        let warning = String(lines.first ?? "")
        XCTAssertTrue(warning.hasPrefix("warning: "), warning)
        for fragment in ["squeezenet1.1.onnx: ", "no class labels for its 1000 classes", "--labels FILE", "--labels imagenet", "squeezenet1.1.fovea.json"] {
            XCTAssertTrue(warning.contains(fragment), "'\(warning)' lacks '\(fragment)'")
        }
        let json = try TestData.runFovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"), "--json", TestData.photo("red_panda.jpg")])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)), "the warning stays off standard output")
        XCTAssertTrue(json.stderr.hasPrefix("warning: "), json.stderr)
    }

    func testClassifyWithBuiltInOrModelLabelsDoesNotWarn() throws {
        let builtIn = try TestData.runFovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"), "--labels", "imagenet",
                                             "--top", "1", TestData.photo("red_panda.jpg")])
        XCTAssertEqual(builtIn.status, 0, builtIn.stderr)
        XCTAssertTrue(builtIn.stdout.contains("lesser panda"), builtIn.stdout)
        XCTAssertEqual(builtIn.stderr, "")
        let coreML = try TestData.runFovea(["classify", "--model", TestData.model("coreml/SqueezeNet11.mlmodel"), "--top", "1",
                                            TestData.photo("red_panda.jpg")])
        XCTAssertEqual(coreML.status, 0, coreML.stderr)
        XCTAssertEqual(coreML.stderr, "")
    }

    func testLabelsImagenetOnAModelOfAnotherClassCountFails() throws {
        let model = try TestData.runFovea(["classify", "--model", TestData.model("coreml/TinyMobileNetV2.onnx"),
                                           "--labels", "imagenet", TestData.photo("red_panda.jpg")])
        XCTAssertEqual(model.status, 1, model.stderr)
        XCTAssertTrue(model.stderr.hasPrefix("error: "), model.stderr)
        XCTAssertTrue(model.stderr.contains("name 1000 classes but the model has 10"), model.stderr)
    }
}
