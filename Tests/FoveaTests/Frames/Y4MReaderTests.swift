import XCTest
import FoveaFrames
@_spi(Internals) @testable import Fovea

/// YUV4MPEG2 streams written by the tests, read back.
final class Y4MReaderTests: XCTestCase {
    private func write(_ data: Data) throws -> String {
        let path = try TestData.temporaryDirectory().appendingPathComponent("clip.y4m").path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Flat colours survive 4:2:0 and the studio-range matrix within 2 levels.
    func testFramesComeBackAsRGB() throws {
        let colours: [(UInt8, UInt8, UInt8)] = [(200, 30, 40), (20, 180, 90), (128, 128, 128), (250, 250, 10)]
        let frames = try colours.map { try RGBImage(width: 6, height: 5, red: $0.0, green: $0.1, blue: $0.2) }
        let reader = try Y4MReader(path: write(FrameTestSupport.y4m(frames)))
        XCTAssertEqual([reader.width, reader.height], [6, 5])
        XCTAssertEqual(reader.framesPerSecond, 30)
        XCTAssertEqual(reader.colourSpace, "420jpeg")
        for (frame, colour) in zip(frames, colours) {
            let read = try XCTUnwrap(try reader.nextFrame())
            XCTAssertEqual([read.width, read.height], [frame.width, frame.height])
            for (value, expected) in zip(read.pixels, frame.pixels) { XCTAssertEqual(Int(value), Int(expected), accuracy: 2, "\(colour)") }
        }
        XCTAssertNil(try reader.nextFrame())
        XCTAssertEqual(reader.framesRead, 4)
    }

    /// Grey (mono) and 4:4:4 layouts, hand-made.
    func testMonoAnd444() throws {
        var mono = Data("YUV4MPEG2 W2 H2 Cmono\nFRAME\n".utf8)
        mono.append(contentsOf: [16, 235, 126, 16])
        let grey = try XCTUnwrap(try Y4MReader(path: write(mono)).nextFrame())
        XCTAssertEqual(grey.pixels, [0, 0, 0, 255, 255, 255, 128, 128, 128, 0, 0, 0])
        var full = Data("YUV4MPEG2 W2 H1 C444 Ip\nFRAME Ixyz\n".utf8)
        full.append(contentsOf: [81, 145] + [90, 54] + [240, 34])  // Y, Cb, Cr: red, then green (BT.601 studio)
        let colour = try XCTUnwrap(try Y4MReader(path: write(full)).nextFrame())
        for (value, expected) in zip(colour.pixels, [255, 0, 0, 0, 255, 0] as [Int]) {
            XCTAssertEqual(Int(value), expected, accuracy: 2, "\(colour.pixels)")
        }
    }

    /// Standard input is a pipe: a stream arrives in pieces.
    func testReadsFromAPipe() throws {
        let frames = try (0..<3).map { try RGBImage(width: 64, height: 48, red: UInt8(60 * $0), green: 90, blue: 200) }
        let pipe = Pipe()
        let data = FrameTestSupport.y4m(frames)
        let writer = Thread {
            for start in stride(from: 0, to: data.count, by: 1000) {
                pipe.fileHandleForWriting.write(data.subdata(in: start..<min(data.count, start + 1000)))
            }
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let reader = try Y4MReader(descriptor: pipe.fileHandleForReading.fileDescriptor, name: "pipe")
        var count = 0
        while let frame = try reader.nextFrame() {
            XCTAssertEqual(Int(frame.pixels[0]), 60 * count, accuracy: 2)
            count += 1
        }
        XCTAssertEqual(count, 3)
    }

    func testBadStreamsAreRefusedWithClearErrors() throws {
        func error(_ text: String, _ body: [UInt8] = [], limits: ImageDecodingLimits = .default) throws -> FoveaError {
            var data = Data(text.utf8)
            data.append(contentsOf: body)
            let path = try write(data)
            do {
                let reader = try Y4MReader(path: path, limits: limits)
                while try reader.nextFrame() != nil {}
            } catch let error as FoveaError {
                return error
            }
            XCTFail("no error for \(text)")
            return FoveaError(.io, "")
        }
        XCTAssertEqual(try error("").kind, .invalidImage)
        XCTAssertTrue(try error("P6 2 2 255\n").message.contains("not a YUV4MPEG2 stream"))
        XCTAssertTrue(try error("YUV4MPEG2 W2\n").message.contains("no W (width) or H"))
        XCTAssertEqual(try error("YUV4MPEG2 W2 H2 C420p10\n").kind, .unsupported)
        XCTAssertTrue(try error("YUV4MPEG2 W2 H2 C444\nFRAME\n", [1, 2, 3]).message.contains("ends inside frame 1"))
        XCTAssertTrue(try error("YUV4MPEG2 W2 H2 Cmono\nFRAMX\n", [1, 2, 3, 4]).message.contains("does not start with FRAME"))
        XCTAssertEqual(try error("YUV4MPEG2 W12000 H10000\n").kind, .limitExceeded)  // 120 megapixels
        XCTAssertEqual(try error("YUV4MPEG2 W64 H64\n", limits: ImageDecodingLimits(maxPixelCount: 1000)).kind, .limitExceeded)
        XCTAssertEqual(try error(String(repeating: "Y", count: 5000)).kind, .invalidImage)
        XCTAssertThrowsError(try Y4MReader(path: "/nonexistent/clip.y4m")) { XCTAssertEqual(($0 as? FoveaError)?.kind, .io) }
    }
}
