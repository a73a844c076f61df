import Foundation
import XCTest
@_spi(Internals) @testable import Fovea

/// A folder in one call: `request.classify(directory:)` and `classify(contentsOf:)`
/// as `AsyncSequence`s, against one `perform` per file.
final class ClassifyDirectoryTests: XCTestCase {
    private func top5Request() throws -> ClassificationRequest {
        let request = try ClassificationRequest(model: try ClassificationRequestTests.squeezeNet())
        request.maximumObservations = 5
        return request
    }

    /// photos/: two photos, a hidden file, a text file, an upper-case extension,
    /// and sub/ with one photo and sub/deeper/ with another.
    private func makeTree() throws -> URL {
        let root = try TestData.temporaryDirectory()
        let fileManager = FileManager.default
        func copy(_ photo: String, to relative: String) throws {
            let destination = root.appendingPathComponent(relative)
            try fileManager.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fileManager.copyItem(atPath: TestData.photo(photo), toPath: destination.path)
        }
        try copy("red_panda.jpg", to: "b.jpg")
        try copy("coffee.png", to: "a.PNG")
        try copy("rocket.jpg", to: ".hidden.jpg")
        try Data("not an image".utf8).write(to: root.appendingPathComponent("notes.txt"))
        try copy("chelsea_cat.png", to: "sub/cat.png")
        try copy("rocket.jpg", to: "sub/deeper/rocket.jpg")
        return root
    }

    func testAFolderIsClassifiedInNameOrderWithTheCLIsFilter() async throws {
        let root = try makeTree()
        let request = try top5Request()
        var flat: [ClassifiedImage] = []
        for try await image in try request.classify(directory: root) { flat.append(image) }
        XCTAssertEqual(flat.map { URL(fileURLWithPath: $0.path).lastPathComponent }, ["a.PNG", "b.jpg"])

        var deep: [ClassifiedImage] = []
        for try await image in try request.classify(directory: root, recursive: true, batchSize: 2) { deep.append(image) }
        let relative = deep.map { String($0.path.dropFirst(root.path.count + 1)) }
        XCTAssertEqual(relative, ["a.PNG", "b.jpg", "sub/cat.png", "sub/deeper/rocket.jpg"])
        for image in deep {
            let expected = try ImageRequestHandler(contentsOfFile: image.path).performAndWait(request)
            XCTAssertEqual(try image.result.get(), expected, image.path)
        }
    }

    func testTheAsyncSequenceReportsBadFilesInPlaceAndCallsTheCompletionHandler() async throws {
        let directory = try TestData.temporaryDirectory()
        let broken = directory.appendingPathComponent("broken.jpg").path
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestData.photo("rocket.jpg")))
        try jpeg.prefix(jpeg.count / 3).write(to: URL(fileURLWithPath: broken))
        let paths = [TestData.photo("red_panda.jpg"), broken, "/nonexistent/photo.jpg", TestData.photo("coffee.png")]
        let calls = Calls()
        let request = try top5Request()
        request.completionHandler = { _, _ in calls.increment() }
        var seen: [ClassifiedImage] = []
        for try await image in request.classify(contentsOf: paths) { seen.append(image) }
        XCTAssertEqual(seen.map(\.path), paths)
        XCTAssertEqual(calls.value, paths.count)
        XCTAssertEqual(try seen[0].result.get().first?.identifier.hasPrefix("lesser panda"), true)
        for failed in seen[1...2] {
            XCTAssertThrowsError(try failed.result.get()) { XCTAssertTrue("\($0)".contains(failed.path), "\($0)") }
        }
        XCTAssertEqual(try seen[3].result.get().first?.identifier, "espresso")
    }

    func testACancelledIterationThrowsCancellationError() async throws {
        let request = try top5Request()
        let paths = Array(repeating: TestData.photo("red_panda.jpg"), count: 1_000)
        let task = Task {
            var count = 0
            for try await _ in request.classify(contentsOf: paths) {
                count += 1
                if count == 2 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        do {
            let count = try await task.value
            XCTFail("a cancelled iteration ended normally after \(count) images")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    func testAMissingFolderOrAFileIsAnErrorNamingIt() throws {
        let request = try top5Request()
        XCTAssertThrowsError(try request.classify(directory: URL(fileURLWithPath: "/nonexistent/photos"))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .io)
            XCTAssertTrue("\(error)".contains("/nonexistent/photos: no such folder"), "\(error)")
        }
        let file = TestData.photo("red_panda.jpg")
        XCTAssertThrowsError(try request.classify(directory: URL(fileURLWithPath: file))) { error in
            XCTAssertTrue("\(error)".contains("\(file): is not a folder"), "\(error)")
        }
        XCTAssertThrowsError(try request.classify(directory: URL(string: "https://example.com/photos")!)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
        }
    }
}

private final class Calls: @unchecked Sendable {
    // @unchecked: `count` is only touched while holding `lock`.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
