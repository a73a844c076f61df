import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

/// Bad input of every kind must throw the right `FoveaError`, never crash.
final class DecoderErrorTests: XCTestCase {
    func testMissingFileIsIOError() throws {
        let path = photoPath("no_such_photo.jpg")
        let error = assertFoveaError(.io, messageContains: "no such file") { try ImageDecoder.decode(contentsOf: path) }
        XCTAssertEqual(error?.location.file, path)
        assertFoveaError(.io, messageContains: "directory") { try ImageDecoder.decode(contentsOf: photosDirectory.path) }
    }

    func testEmptyDataAndEmptyFile() throws {
        let error = assertFoveaError(.invalidImage, messageContains: "image is empty") {
            try ImageDecoder.decode(data: Data(), fileName: "empty.png")
        }
        XCTAssertEqual(error?.location.file, "empty.png")
        XCTAssertEqual(error?.description, "empty.png: image is empty (0 bytes)")

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fovea-image-empty-\(UUID().uuidString).jpg")
        try Data().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let fileError = assertFoveaError(.invalidImage, messageContains: "image is empty") {
            try ImageDecoder.decode(contentsOf: url.path)
        }
        XCTAssertEqual(fileError?.location.file, url.path)
    }

    func testUnknownFormatNamesTheLeadingBytes() throws {
        let error = assertFoveaError(.invalidImage) { try ImageDecoder.decode(data: Data("GIF89a...".utf8), fileName: "a.gif") }
        XCTAssertEqual(error?.description, "a.gif: not a JPEG, PNG, HEIC, AVIF, WebP or PPM image (starts with 0x47 0x49)")
        assertFoveaError(.invalidImage, messageContains: "(starts with 0x0A)") { try ImageDecoder.decode(data: Data([0x0A])) }
        assertFoveaError(.invalidImage, messageContains: "(starts with 0xFF 0x00)") { try ImageDecoder.decode(data: Data([0xFF, 0x00, 1])) }
    }

    func testTruncatedJPEGIsAnErrorNotAGreyPicture() throws {
        for name in ["red_panda.jpg", "rocket.jpg"] {
            let data = try photoData(name)
            let n = data.count
            for cut in [2, 3, 4, 20, 200, 700, n / 4, n / 2, 3 * n / 4, n - 100, n - 2, n - 1] {
                let error = assertFoveaError(.invalidImage) {
                    try ImageDecoder.decode(data: data.prefix(cut), fileName: name)
                }
                XCTAssertEqual(error?.location.file, name)
                XCTAssertTrue(error?.message.contains("truncated JPEG data") ?? false, "\(name) cut at \(cut): \(String(describing: error))")
            }
        }
        let fixture = Fixture.data(Fixture.grayJPEG)
        for cut in stride(from: 2, to: fixture.count, by: 7) {
            assertFoveaError(.invalidImage) { try ImageDecoder.decode(data: fixture.prefix(cut)) }
        }
    }

    func testTruncatedPNGIsAnError() throws {
        for name in ["coffee.png", "chelsea_cat.png"] {
            let data = try photoData(name)
            let n = data.count
            for cut in [4, 7, 8, 16, 30, 33, 100, n / 3, n / 2, n - 13, n - 1] {
                let error = assertFoveaError(.invalidImage) {
                    try ImageDecoder.decode(data: data.prefix(cut), fileName: name)
                }
                XCTAssertEqual(error?.location.file, name)
                XCTAssertTrue(error?.message.contains("truncated PNG data") ?? false, "\(name) cut at \(cut): \(String(describing: error))")
            }
        }
        let fixture = Fixture.data(Fixture.rgbaPNG)
        for cut in 4..<fixture.count {
            assertFoveaError(.invalidImage) { try ImageDecoder.decode(data: fixture.prefix(cut)) }
        }
    }

    func testRandomBytesAreRejected() throws {
        var generator = SeededGenerator(seed: 0xF0FEA)
        let prefixes: [[UInt8]] = [[], [0xFF, 0xD8], [0xFF, 0xD8, 0xFF, 0xE0], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("P6\n".utf8), Array("P5 ".utf8)]
        for prefix in prefixes {
            for _ in 0..<40 {
                let count = Int.random(in: 1...3000, using: &generator)
                let noise = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let error = assertFoveaError(.invalidImage) { try ImageDecoder.decode(data: Data(prefix + noise)) }
                if error == nil { print("accepted: prefix \(prefix), \(count) bytes") }
            }
        }
    }

    /// Damaged (not truncated) files: libjpeg and libpng may or may not notice,
    /// but the result is either a correctly sized image or an `.invalidImage` error.
    func testCorruptedFilesNeverCrash() throws {
        var generator = SeededGenerator(seed: 42)
        let inputs = [Fixture.data(Fixture.rgb420JPEG), Fixture.data(Fixture.cmykJPEG), Fixture.data(Fixture.palette2PNG), Fixture.data(Fixture.rgb16PNG)]
        for original in inputs {
            let expected = try ImageDecoder.decode(data: original)
            for _ in 0..<60 {
                var damaged = [UInt8](original)
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let at = Int.random(in: 2..<damaged.count, using: &generator)
                    damaged[at] = UInt8.random(in: 0...255, using: &generator)
                }
                do {
                    let image = try ImageDecoder.decode(data: Data(damaged))
                    XCTAssertEqual(image.pixels.count, image.width * image.height * 3)
                    _ = expected
                } catch let error as FoveaError {
                    XCTAssertEqual(error.kind, .invalidImage, "\(error)")
                }
            }
        }
    }

    func testBadPPMHeaders() throws {
        let cases: [(String, [UInt8], String)] = [
            ("P6", [], "missing width"),
            ("P6\n", [], "missing width"),
            ("P6\n2", [], "missing height"),
            ("P6\n2 2", [], "missing maxval"),
            ("P6\n2 2\n255", [], "header ends before the pixels"),
            ("P6\n2 2\n255\n", [1, 2, 3], "truncated PPM data"),
            ("P6\n2 2\n255\n", Array(repeating: 7, count: 11), "needs 12 bytes of pixels, found 11"),
            ("P6\n1 1\n300\n", [0, 1, 0, 1, 0], "truncated PPM data"),
            ("P6\nx 2\n255\n", [], "width is not a number"),
            ("P6\n2a 2\n255\n", [], "width is followed by"),
            ("P6\n-2 2\n255\n", [], "width is not a number"),
            ("P6\n2 2\n0\n", [], "maxval is 0"),
            ("P6\n2 2\n65536\n", [], "maxval is 65536"),
            ("P6\n0 2\n255\n", [], "image is empty"),
            ("P6\n2 0\n255\n", [], "image is empty"),
            ("P6\n9999999999 2\n255\n", [], "too many digits"),
            ("P6\n100000 100000\n255\n", [], "limit"),
            ("P6x 1 1 255\n", [0, 0, 0], "not followed by whitespace"),
            ("P6\n1 1\n255x", [0, 0, 0], "maxval is followed by byte 0x78"),
            ("P6\n1 1\n255#\n", [0, 0, 0], "expected whitespace after maxval"),
            ("P6\n1 1\n15\n", [0, 0, 16], "above maxval 15"),
            ("P3\n1 1\n255\n0 0 0\n", [], "P3"),
            ("P4\n1 1\n", [0], "P4"),
            ("P7\nWIDTH 1\n", [], "P7"),
            ("P5\n2 2\n255\n", [1, 2, 3], "truncated PPM data"),
        ]
        for (header, raster, fragment) in cases {
            let data = Data(header.utf8) + Data(raster)
            let error = assertFoveaError(.invalidImage, messageContains: fragment) {
                try ImageDecoder.decode(data: data, fileName: "bad.ppm")
            }
            XCTAssertEqual(error?.location.file, "bad.ppm", header)
        }
    }

    func testZeroSizedAndMismatchedImages() throws {
        assertFoveaError(.invalidImage, messageContains: "image is empty") { try RGBImage(width: 0, height: 3, pixels: []) }
        assertFoveaError(.invalidImage, messageContains: "image is empty") { try RGBImage(width: 3, height: 0, pixels: []) }
        assertFoveaError(.invalidImage, messageContains: "image is empty") { try RGBImage(width: -1, height: -1, pixels: [0, 0, 0]) }
        assertFoveaError(.invalidImage, messageContains: "needs 12 bytes, found 11") {
            try RGBImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 11))
        }
        assertFoveaError(.invalidImage, messageContains: "limit") { try RGBImage(width: Int.max, height: 2, pixels: []) }
        assertFoveaError(.invalidImage) { try RGBImage(width: 0, height: 1, red: 0, green: 0, blue: 0) }
    }

    func testJPEGWithZeroOrHugeDimensionsInItsHeader() throws {
        let original = [UInt8](Fixture.data(Fixture.grayJPEG))
        let sof = try XCTUnwrap(Self.startOfFrameOffset(original))
        // SOF0: FF C0, length (2), precision (1), height (2), width (2).
        var zeroHeight = original
        zeroHeight[sof + 5] = 0
        zeroHeight[sof + 6] = 0
        assertFoveaError(.invalidImage) { try ImageDecoder.decode(data: Data(zeroHeight)) }
        // 65279 × 65279 is within libjpeg's 65500 but beyond Fovea's pixel limit: refused before allocating.
        var huge = original
        for i in [5, 7] { huge[sof + i] = 0xFE }
        for i in [6, 8] { huge[sof + i] = 0xFF }
        assertFoveaError(.invalidImage, messageContains: "limit") { try ImageDecoder.decode(data: Data(huge)) }
        var beyondLibjpeg = original
        for i in 5...8 { beyondLibjpeg[sof + i] = 0xFF }
        assertFoveaError(.invalidImage, messageContains: "65500") { try ImageDecoder.decode(data: Data(beyondLibjpeg)) }
    }

    func testPNGWithZeroOrHugeDimensionsInItsHeader() throws {
        let original = [UInt8](Fixture.data(Fixture.rgbaPNG))
        // IHDR data starts at 16: width (4), height (4); its CRC covers bytes 12..<29.
        func withSize(width: UInt32, height: UInt32) -> Data {
            var bytes = original
            for i in 0..<4 {
                bytes[16 + i] = UInt8(truncatingIfNeeded: width >> (24 - 8 * i))
                bytes[20 + i] = UInt8(truncatingIfNeeded: height >> (24 - 8 * i))
            }
            let crc = crc32(bytes[12..<29])
            for i in 0..<4 { bytes[29 + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * i)) }
            return Data(bytes)
        }
        XCTAssertEqual(try ImageDecoder.decode(data: withSize(width: 5, height: 3)).width, 5)  // the CRC helper is right
        assertFoveaError(.invalidImage) { try ImageDecoder.decode(data: withSize(width: 0, height: 3)) }
        assertFoveaError(.invalidImage) { try ImageDecoder.decode(data: withSize(width: 5, height: 0)) }
        assertFoveaError(.invalidImage) { try ImageDecoder.decode(data: withSize(width: 900_000, height: 900_000)) }
        assertFoveaError(.invalidImage) { try ImageDecoder.decode(data: withSize(width: 0x7FFF_FFFF, height: 1)) }
        // A wrong CRC in IHDR.
        var badCRC = original
        badCRC[29] ^= 0xFF
        assertFoveaError(.invalidImage, messageContains: "corrupt PNG data") { try ImageDecoder.decode(data: Data(badCRC)) }
    }

    private static func startOfFrameOffset(_ bytes: [UInt8]) -> Int? {
        (0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }
    }

    /// PNG's CRC-32 (ISO 3309 / zlib).
    private func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
