import FoveaImage
import XCTest
import FoveaFrames
@_spi(Internals) @testable import Fovea

/// `fovea stream`: a panned-then-still clip through standard input, as
/// `ffmpeg -i clip.mp4 -f yuv4mpegpipe - | fovea stream ...` would send it.
final class StreamCommandTests: XCTestCase {
    /// 224×224 windows of the red panda photo: 12 frames panning 12 px per
    /// frame, then 20 held still (with sensor noise). Made once for all tests.
    static func pannedThenStillClip() throws -> Data { try clip.get() }

    private static let clip = Result { () throws -> Data in
        let photo = try FrameTestSupport.photo("red_panda.jpg").resized(width: 424, height: 641)
        let frames = try (0..<32).map { i in
            try FrameTestSupport.window(of: photo, x: 40 + 12 * Double(min(i, 11)), y: 150, width: 224, height: 224, noise: 2, seed: UInt64(i))
        }
        return FrameTestSupport.y4m(frames)
    }

    private func runStream(_ arguments: [String], input: Data) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = TestData.productsDirectory.appendingPathComponent("fovea")
        process.arguments = arguments
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let writer = Thread {
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    func testStableOnlyClassifiesOnlyTheStillPartAndCountsDrops() throws {
        let result = try runStream(["stream", "--model", TestData.model("squeezenet1.1.onnx"), "--labels", "imagenet",
                                    "--stable-only", "--json", "-"], input: Self.pannedThenStillClip())
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let frames = lines.compactMap { $0 }.filter { $0["frame"] != nil }
        let summary = try XCTUnwrap(lines.last??["summary"] as? [String: Any], result.stdout)
        XCTAssertEqual(summary["framesRead"] as? Int, 32)
        let classified = try XCTUnwrap(summary["classified"] as? Int), dropped = try XCTUnwrap(summary["dropped"] as? Int)
        let skipped = try XCTUnwrap(summary["skipped"] as? Int)
        XCTAssertEqual(classified, frames.count)
        XCTAssertGreaterThan(classified, 0)
        XCTAssertEqual(classified + dropped + skipped, 32)
        // Translations of frames 2...12 are 12 px: stable once the last 15 hold at most one, from frame 26 on.
        for frame in frames {
            XCTAssertGreaterThanOrEqual(frame["frame"] as? Int ?? 0, 26, "\(frame)")
            XCTAssertEqual(frame["stable"] as? Bool, true)
        }
        // Sensor noise differs frame to frame; a 224×224 window of the photo is mostly the panda.
        let pandas = frames.filter { ($0["identifier"] as? String ?? "").hasPrefix("lesser panda") }.count
        XCTAssertGreaterThanOrEqual(3 * pandas, 2 * frames.count, "\(frames)")
        XCTAssertGreaterThanOrEqual(skipped, 25)
    }

    func testTextOutputAndADirectorySource() throws {
        let directory = try TestData.temporaryDirectory()
        let photo = try FrameTestSupport.photo("coffee.png")
        for i in 0..<3 {
            let frame = try FrameTestSupport.window(of: photo, x: 100 + 5 * Double(i), y: 80, width: 160, height: 120)
            try ImageEncoder.encode(frame, forPath: "x.png").write(to: directory.appendingPathComponent("frame\(i).png"))
        }
        let result = try TestData.runFovea(["stream", "--model", TestData.model("squeezenet1.1.onnx"), "--labels", "imagenet", directory.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("frame     1  moving") ?? false, result.stdout)
        XCTAssertTrue(lines.last?.hasPrefix("frames read 3, classified ") ?? false, result.stdout)
        XCTAssertTrue(lines.last?.contains("mean latency") ?? false)
    }

    func testBadSourcesAndOptions() throws {
        let model = TestData.model("squeezenet1.1.onnx")
        let notVideo = try runStream(["stream", "--model", model, "-"], input: Data("P6 2 2 255\n".utf8))
        XCTAssertEqual(notVideo.status, 1)
        XCTAssertTrue(notVideo.stderr.hasPrefix("error: standard input: not a YUV4MPEG2 stream"), notVideo.stderr)
        XCTAssertEqual(try TestData.runFovea(["stream", "--model", model, "--every", "0", "-"]).status, 64)
        let missing = try TestData.runFovea(["stream", "--model", model, "/nonexistent.y4m"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("/nonexistent.y4m"), missing.stderr)
    }
}
