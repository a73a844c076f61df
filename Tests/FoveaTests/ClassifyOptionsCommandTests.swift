import FoveaImage
import XCTest
@_spi(Internals) @testable import Fovea

/// `fovea classify`'s request options and `fovea prepare`.
final class ClassifyOptionsCommandTests: XCTestCase {
    private func classify(_ extra: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try TestData.runFovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"),
                               "--labels", TestData.model("labels1000.txt"), "--crop-fraction", "0.875"] + extra)
    }

    private func json(_ text: String) throws -> [[String: Any]] {
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try XCTUnwrap(object["results"] as? [[String: Any]])
    }

    func testOrientationFieldAutoAndExplicit() throws {
        let directory = try TestData.temporaryDirectory()
        let upright = try ImageDecoder.decode(contentsOf: TestData.photo("rocket.jpg"))
        let rotated = directory.appendingPathComponent("rotated.jpg")
        try TestImages.insertingEXIF(orientation: 6, into: try ImageEncoder.jpeg(upright.oriented(.left))).write(to: rotated)
        let auto = try classify(["--json", "--top", "1", "--backend", "reference", "--threads", "1", rotated.path])
        XCTAssertEqual(auto.status, 0, auto.stderr)
        let result = try XCTUnwrap(try json(auto.stdout).first)
        XCTAssertEqual(result["orientation"] as? String, "right")
        let label = try XCTUnwrap((result["observations"] as? [[String: Any]])?.first?["identifier"] as? String)
        XCTAssertEqual(label, "missile")

        let forced = try classify(["--json", "--orientation", "up", rotated.path])
        XCTAssertEqual(try json(forced.stdout).first?["orientation"] as? String, "up")
    }

    func testMinConfidenceSaysNotSure() throws {
        let result = try classify(["--min-confidence", "0.9", TestData.photo("chelsea_cat.png"), TestData.photo("red_panda.jpg")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines[1].contains("not sure"), result.stdout)
        XCTAssertTrue(lines[3].contains("lesser panda"), result.stdout)
        XCTAssertEqual(lines.count, 4, result.stdout)
    }

    func testDirectoriesAndSaveInput() throws {
        let directory = try TestData.temporaryDirectory()
        for name in ["red_panda.jpg", "coffee.png"] {
            try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent(name).path, withDestinationPath: TestData.photo(name))
        }
        try Data("notes".utf8).write(to: directory.appendingPathComponent("notes.txt"))
        let output = try TestData.temporaryDirectory().appendingPathComponent("seen.png")
        let result = try classify(["--json", "--save-input", output.path, directory.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let results = try json(result.stdout)
        XCTAssertEqual(results.compactMap { ($0["image"] as? String).map { ($0 as NSString).lastPathComponent } }, ["coffee.png", "red_panda.jpg"])
        let saved = try ImageDecoder.decode(contentsOf: output.deletingLastPathComponent().appendingPathComponent("seen-red_panda.png").path)
        let reference = try ImageDecoder.decode(contentsOf: TestData.photo("red_panda.224.ppm"))
        XCTAssertEqual([saved.width, saved.height], [224, 224])
        XCTAssertLessThanOrEqual(zip(saved.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 99, 1)
    }

    func testBadOptionsFailCleanly() throws {
        for options in [["--crop", "zoom"], ["--orientation", "sideways"], ["--backend", "nosuch"], ["--threads", "0"], ["--min-confidence", "2"]] {
            let result = try classify(options + [TestData.photo("red_panda.jpg")])
            XCTAssertNotEqual(result.status, 0, "\(options)")
            XCTAssertFalse(result.stderr.isEmpty, "\(options)")
        }
        let missing = try classify([TestData.photo("red_panda.jpg"), "/nonexistent/x.jpg"])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stdout.contains("lesser panda"))
        XCTAssertTrue(missing.stderr.contains("/nonexistent/x.jpg"), missing.stderr)
    }

    func testPrepareWritesWhatTheModelSees() throws {
        let directory = try TestData.temporaryDirectory()
        let output = directory.appendingPathComponent("prepared.ppm").path
        let result = try TestData.runFovea(["prepare", TestData.photo("coffee.png"), "--size", "224x224", "--crop", "center",
                                            "--crop-fraction", "0.875", "--output", output])
        XCTAssertEqual(result.status, 0, result.stderr)
        let prepared = try ImageDecoder.decode(contentsOf: output)
        let reference = try ImageDecoder.decode(contentsOf: TestData.photo("coffee.224.ppm"))
        XCTAssertLessThanOrEqual(zip(prepared.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 99, 1)

        let fit = directory.appendingPathComponent("fit.png").path
        XCTAssertEqual(try TestData.runFovea(["prepare", TestData.photo("coffee.png"), "--size", "60x40", "--crop", "fit",
                                              "--orientation", "right", "--output", fit]).status, 0)
        let boxed = try ImageDecoder.decode(contentsOf: fit)
        XCTAssertEqual([boxed.width, boxed.height], [60, 40])
        XCTAssertEqual(boxed.pixel(x: 0, y: 20)?.red, 0, "black band left of the turned photo")

        for bad in [["--size", "224"], ["--size", "0x5"], ["--output", directory.appendingPathComponent("x.gif").path]] {
            var arguments = ["prepare", TestData.photo("coffee.png"), "--size", "8x8", "--output", directory.appendingPathComponent("o.png").path]
            arguments += bad
            let failed = try TestData.runFovea(arguments)
            XCTAssertNotEqual(failed.status, 0, "\(bad)")
            XCTAssertFalse(failed.stderr.isEmpty, "\(bad)")
        }
    }
}
