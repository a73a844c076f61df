import Foundation
import FoveaImage
import XCTest
@_spi(Internals) import Fovea
import FoveaTraining

/// Every kind of bad training data gets a clear error naming the problem, or
/// is skipped and counted: never a crash or a silent skip.
final class BadDataTests: XCTestCase {
    private func makeTree(_ files: [String: Data]) throws -> String {
        let root = try TrainingDataSet.temporaryDirectory()
        for (path, data) in files {
            let full = "\(root)/\(path)"
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: full))
        }
        return root
    }

    private var png: Data { get throws { try ImageEncoder.png(try RGBImage(width: 8, height: 8, red: 200, green: 10, blue: 10)) } }

    private func message(_ body: () throws -> Void) -> String {
        do { try body(); return "no error" } catch { return "\(error)" }
    }

    func testFewerThanTwoClasses() throws {
        let root = try makeTree(["only/a.png": try png, "only/b.png": try png])
        let text = message { _ = try LabeledImageDirectory(contentsOf: root) }
        XCTAssertTrue(text.contains("found 1 class folder(s) (only); a classifier needs at least two"), text)
        let none = try TrainingDataSet.temporaryDirectory()
        XCTAssertTrue(message { _ = try LabeledImageDirectory(contentsOf: none) }.contains("found 0 class folder(s)"))
    }

    func testClassWithTooFewImagesIsNamed() throws {
        let root = try makeTree(["cat/a.png": try png, "cat/b.png": try png, "cat/c.png": try png, "dog/a.png": try png])
        let text = message { _ = try LabeledImageDirectory(contentsOf: root, minimumImagesPerClass: 3) }
        XCTAssertTrue(text.contains("class(es) with fewer than 3 images: dog (1)"), text)
    }

    func testEmptyClassFolderIsNamed() throws {
        let root = try makeTree(["cat/a.png": try png, "dog/notes.txt": Data("x".utf8)])
        let text = message { _ = try LabeledImageDirectory(contentsOf: root) }
        XCTAssertTrue(text.contains("class folder(s) with no images (.jpg, .png, .heic, .avif, .webp, .ppm): dog"), text)
    }

    func testNonImageFilesAreIgnoredAndCounted() throws {
        let root = try makeTree(["cat/a.png": try png, "cat/b.PNG": try png, "cat/readme.txt": Data("x".utf8),
                                 "dog/a.png": try png, "dog/b.png": try png, "dog/.DS_Store": Data("x".utf8), "loose.csv": Data()])
        let data = try LabeledImageDirectory(contentsOf: root)
        XCTAssertEqual(data.classes, ["cat", "dog"])
        XCTAssertEqual(data.countsPerClass, [2, 2])
        XCTAssertEqual(Set(data.ignoredFiles.map { ($0 as NSString).lastPathComponent }), ["readme.txt", ".DS_Store", "loose.csv"])
    }

    func testOddClassNameIsAnError() throws {
        let root = try makeTree(["cat/a.png": try png, "cat/b.png": try png, "dog\u{7}/a.png": try png, "dog\u{7}/b.png": try png])
        let text = message { _ = try LabeledImageDirectory(contentsOf: root) }
        XCTAssertTrue(text.contains("the class folder name 'dog\\x07' has control characters"), text)
        let spaced = try makeTree(["cat/a.png": try png, "cat/b.png": try png, " dog/a.png": try png, " dog/b.png": try png])
        XCTAssertTrue(message { _ = try LabeledImageDirectory(contentsOf: spaced) }.contains("leading or trailing spaces"))
    }

    func testNonUTF8ClassNameIsAnError() throws {
        let root = try makeTree(["cat/a.png": try png, "cat/b.png": try png])
        // "d\xFFg": not UTF-8, made through the C API since Swift strings cannot hold it.
        let name: [CChar] = Array("\(root)/d".utf8CString.dropLast()) + [CChar(bitPattern: 0xFF), 0x67, 0]
        XCTAssertEqual(mkdir(name, 0o755), 0)
        let text = message { _ = try LabeledImageDirectory(contentsOf: root) }
        XCTAssertTrue(text.contains("the class folder name \"d\\xffg\" is not valid UTF-8"), text)
    }

    func testMissingDirectory() {
        let text = message { _ = try LabeledImageDirectory(contentsOf: "/nonexistent/fovea-training") }
        XCTAssertTrue(text.contains("no such folder; expected a folder with one subfolder of images per class"), text)
    }

    func testAFileIsNotADirectory() throws {
        let root = try makeTree(["cat/a.png": try png])
        let text = message { _ = try LabeledImageDirectory(contentsOf: "\(root)/cat/a.png") }
        XCTAssertTrue(text.contains("is not a directory; expected one subfolder of images per class"), text)
    }

    func testUnreadableImagesAreSkippedCountedAndListed() throws {
        let data = try TrainingDataSet.prepared()
        let root = try TrainingDataSet.temporaryDirectory()
        for name in TrainingDataSet.classes {
            try FileManager.default.copyItem(atPath: "\(data.training)/\(name)", toPath: "\(root)/\(name)")
        }
        try Data("not a jpeg".utf8).write(to: URL(fileURLWithPath: "\(root)/coffee/broken.jpg"))
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: "\(root)/rocket/truncated.png"))
        var parameters = ImageClassifierParameters(baseModel: TrainingDataSet.squeezeNet)
        parameters.cache = TrainingDataSet.sharedCache
        parameters.maxIterations = 5
        parameters.validation = .none
        let classifier = try ImageClassifier(trainingData: root, parameters: parameters)
        XCTAssertEqual(Set(classifier.report.unreadableImages.map { ($0.path as NSString).lastPathComponent }), ["broken.jpg", "truncated.png"])
        XCTAssertEqual(classifier.report.featuresComputed + classifier.report.featuresCached, 48)
        XCTAssertEqual(classifier.trainingMetrics.count, 48)
    }

    func testClassWithOnlyUnreadableImagesIsAnError() throws {
        let root = try makeTree(["cat/a.png": try png, "cat/b.png": try png, "dog/a.jpg": Data("x".utf8), "dog/b.jpg": Data("y".utf8)])
        var parameters = ImageClassifierParameters(baseModel: TrainingDataSet.squeezeNet)
        parameters.cache = nil
        let text = message { _ = try ImageClassifier(trainingData: root, parameters: parameters) }
        XCTAssertTrue(text.contains("no readable training image left in class(es): dog (2 unreadable image(s))"), text)
    }

    func testBadParameters() throws {
        let root = try makeTree(["cat/a.png": try png, "cat/b.png": try png, "dog/a.png": try png, "dog/b.png": try png])
        var parameters = ImageClassifierParameters(baseModel: TrainingDataSet.squeezeNet)
        parameters.cache = nil
        parameters.featureLayer = "no_such_value"
        XCTAssertTrue(message { _ = try ImageClassifier(trainingData: root, parameters: parameters) }
            .contains("'no_such_value' is not a feature layer of the model"))
        XCTAssertTrue(message { _ = try ImageAugmentation(parsing: "flip,sepia") }.contains("unknown augmentation 'sepia'"))
        XCTAssertThrowsError(try SoftmaxRegression.fit(features: [1, 2], labels: [0, 1], featureCount: 1, classCount: 2, l2: -1, maxIterations: 5))
        XCTAssertThrowsError(try SoftmaxRegression.fit(features: [.nan, 2], labels: [0, 1], featureCount: 1, classCount: 2, l2: 0.1, maxIterations: 5))
    }
}
