import XCTest
@_spi(Internals) @testable import Fovea

/// `fovea classify` end to end: decode, resize, crop, normalize, run, rank.
final class ClassifyCommandTests: XCTestCase {
    private let imageNet = ["--mean", "0.485,0.456,0.406", "--std", "0.229,0.224,0.225"]

    private func classify(_ extra: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestData.runFovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"),
                               "--labels", TestData.model("labels1000.txt")] + imageNet + extra)
    }

    func testRedPandaJPEGIsLesserPanda() throws {
        let result = try classify([TestData.photo("red_panda.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        guard lines.count == 6 else { return XCTFail("expected the path and five classes:\n\(result.stdout)") }
        XCTAssertTrue(lines[1].contains("lesser panda"), result.stdout)
        let percent = try XCTUnwrap(Double(lines[1].trimmingCharacters(in: .whitespaces).split(separator: "%")[0]))
        XCTAssertGreaterThan(percent, 99.5)
    }

    func testCatPNGIsACatInJSON() throws {
        let result = try classify(["--json", "--top", "3", TestData.photo("chelsea_cat.png")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let results = try XCTUnwrap(json["results"] as? [[String: Any]])
        XCTAssertEqual(results.count, 1)
        XCTAssertEqual(results[0]["image"] as? String, TestData.photo("chelsea_cat.png"))
        let observations = try XCTUnwrap(results[0]["observations"] as? [[String: Any]])
        XCTAssertEqual(observations.count, 3)
        let confidences = observations.compactMap { $0["confidence"] as? Double }
        XCTAssertEqual(confidences, confidences.sorted(by: >))
        XCTAssertTrue(confidences.allSatisfy { $0 >= 0 && $0 <= 1 })
        let top = try XCTUnwrap(observations[0]["identifier"] as? String)
        let cats = ["Egyptian cat", "tabby, tabby cat", "tiger cat", "Persian cat", "Siamese cat, Siamese"]
        XCTAssertTrue(cats.contains(top), top)
    }

    func testBadImageGivesOneLineErrorAndNonZeroExitButOthersStillRun() throws {
        let directory = try TestData.temporaryDirectory()
        let bad = directory.appendingPathComponent("broken.jpg")
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: TestData.photo("red_panda.jpg")))
        try jpeg.prefix(jpeg.count / 3).write(to: bad)
        let result = try classify([bad.path, TestData.photo("red_panda.jpg")])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stdout.contains("lesser panda"), "the good image is still classified")
        let lines = result.stderr.split(separator: "\n")
        let errorLines = lines.filter { $0.hasPrefix("error:") }
        XCTAssertEqual(errorLines.count, 1, result.stderr)
        XCTAssertTrue(errorLines.first?.contains("broken.jpg") ?? false, result.stderr)
        XCTAssertEqual(lines.last.map(String.init)?.hasPrefix("1 image classified in "), true, "the summary line: \(result.stderr)")
        XCTAssertEqual(lines.last.map(String.init)?.hasSuffix("; 1 failed"), true, "the summary line: \(result.stderr)")
    }

    func testADirectoryGivesASummaryLineAndTheSameResultsInBatches() throws {
        let directory = try TestData.temporaryDirectory()
        for photo in ["red_panda.jpg", "rocket.jpg", "coffee.png"] {
            try FileManager.default.copyItem(atPath: TestData.photo(photo), toPath: directory.appendingPathComponent(photo).path)
        }
        let one = try classify([directory.path])
        XCTAssertEqual(one.status, 0, one.stderr)
        let summary = try XCTUnwrap(one.stderr.split(separator: "\n").last.map(String.init))
        XCTAssertTrue(summary.range(of: #"^3 images classified in [0-9.]+ s: [0-9.]+ images/s$"#, options: .regularExpression) != nil, summary)
        XCTAssertEqual(one.stdout.split(separator: "\n").count, 3 * 6, one.stdout)
        let batched = try classify(["--batch-size", "2", directory.path])
        XCTAssertEqual(batched.status, 0, batched.stderr)
        XCTAssertEqual(batched.stdout, one.stdout)
        XCTAssertNotEqual(try classify(["--batch-size", "0", directory.path]).status, 0)
    }

    func testMissingModelAndBadOptionsFailCleanly() throws {
        let missing = try TestData.runFovea(["classify", "--model", "/nonexistent/model.onnx", TestData.photo("red_panda.jpg")])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("/nonexistent/model.onnx"), missing.stderr)
        let badMean = try classify(["--mean", "1,2", TestData.photo("red_panda.jpg")])
        XCTAssertNotEqual(badMean.status, 0)
        XCTAssertTrue(badMean.stderr.contains("--mean"), badMean.stderr)
        let wrongLabels = try TestData.runFovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"),
                                                 "--labels", TestData.model("labels1001.txt"), TestData.photo("red_panda.jpg")])
        XCTAssertNotEqual(wrongLabels.status, 0)
        XCTAssertTrue(wrongLabels.stderr.contains("1001"), wrongLabels.stderr)
    }
}
