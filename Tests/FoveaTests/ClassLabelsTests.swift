import Foundation
import XCTest
@testable import Fovea

/// Issue 15: labels that cannot go missing silently — the built-in ImageNet
/// labels (a package resource).
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
        XCTAssertEqual(labels, try ClassLabels(contentsOf: TestData.model("labels1000.txt")))
    }

    func testTheLabelsComeFromTheResourceBundleThatBundleModuleFinds() throws {
        // SwiftPM's accessor, as generated for the Fovea target on this platform.
        let module = Bundle.module
        let moduleFile = try XCTUnwrap(module.url(forResource: ClassLabels.imageNet1kResource, withExtension: nil),
                                       "Bundle.module has no \(ClassLabels.imageNet1kResource)")
        let bundle = try XCTUnwrap(PackageResources.bundle, "Fovea's own lookup found no resource bundle")
        XCTAssertEqual(bundle.bundleURL.standardizedFileURL.resolvingSymlinksInPath(),
                       module.bundleURL.standardizedFileURL.resolvingSymlinksInPath())
        let found = try XCTUnwrap(PackageResources.url(forResource: ClassLabels.imageNet1kResource))
        XCTAssertEqual(found.standardizedFileURL.resolvingSymlinksInPath(), moduleFile.standardizedFileURL.resolvingSymlinksInPath())
        XCTAssertFalse(found.path.contains("/Sources/"), "read from the built bundle, not the source tree: \(found.path)")
        XCTAssertNil(PackageResources.url(forResource: "no-such-resource.txt"))
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

    // MARK: the command line

    func testClassifyWithBuiltInLabels() throws {
        let builtIn = try TestData.runFovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"), "--labels", "imagenet",
                                             "--top", "1", TestData.photo("red_panda.jpg")])
        XCTAssertEqual(builtIn.status, 0, builtIn.stderr)
        XCTAssertTrue(builtIn.stdout.contains("lesser panda"), builtIn.stdout)
        XCTAssertEqual(builtIn.stderr, "")
    }

    func testLabelsImagenetOnAModelOfAnotherClassCountFails() throws {
        let model = try TestData.runFovea(["classify", "--model", TestData.model("coreml/TinyMobileNetV2.onnx"),
                                           "--labels", "imagenet", TestData.photo("red_panda.jpg")])
        XCTAssertEqual(model.status, 1, model.stderr)
        XCTAssertTrue(model.stderr.hasPrefix("error: "), model.stderr)
        XCTAssertTrue(model.stderr.contains("1000 labels but the model has 10 classes"), model.stderr)
    }
}
