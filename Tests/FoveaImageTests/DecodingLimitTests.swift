import CTurboJPEG
import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

/// Issue 11: tiny files that declare huge images are refused from their
/// headers, before any pixel memory is allocated.
final class DecodingLimitTests: XCTestCase {
    /// Asserts a `.limitExceeded` error naming the declared size, in well under a second.
    private func assertRefused(_ data: Data, size: String, limits: ImageDecodingLimits = .default,
                               file: StaticString = #filePath, line: UInt = #line) {
        let start = Date()
        let error = assertFoveaError(.limitExceeded, messageContains: "image of \(size) pixels", {
            try ImageDecoder.decode(data: data, fileName: "bomb", limits: limits)
        }, file: file, line: line)
        XCTAssertEqual(error?.location.file, "bomb", file: file, line: line)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "refusing took too long", file: file, line: line)
    }

    // MARK: PNG

    /// A complete PNG (signature, IHDR, one IDAT, IEND, valid CRCs) whose IHDR
    /// declares `width × height` 8-bit RGB but whose data holds almost nothing.
    static func pngBomb(width: UInt32, height: UInt32) -> Data {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        // A zlib stream holding one empty stored block.
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", []))
    }

    func testPNGBombIsRefusedFromItsHeader() throws {
        let bomb = Self.pngBomb(width: 16000, height: 16000)
        XCTAssertLessThan(bomb.count, 100)
        assertRefused(bomb, size: "16000×16000")
        // The same file built small is a valid PNG header: only the size is refused.
        assertFoveaError(.invalidImage, messageContains: "PNG", { try ImageDecoder.decode(data: Self.pngBomb(width: 4, height: 4)) })
    }

    // MARK: JPEG

    /// A real progressive JPEG of 16×16 pixels whose frame header (SOF2) is
    /// patched to declare `width × height`: what a hostile 519-byte file does.
    static func progressiveJPEGBomb(width: UInt16, height: UInt16) throws -> Data {
        let image = try patternImage(width: 16, height: 16)
        guard let handle = tjInitCompress() else { throw XCTSkip("no TurboJPEG compressor") }
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = image.pixels.withUnsafeBufferPointer { pixels in
            tjCompress2(handle, pixels.baseAddress, 16, 0, 16, Int32(TJPF_RGB.rawValue), &buffer, &size,
                        Int32(TJSAMP_420.rawValue), 90, TJFLAG_PROGRESSIVE)
        }
        defer { if let buffer { tjFree(buffer) } }
        guard status == 0, let buffer else { throw XCTSkip("TurboJPEG cannot write progressive JPEG") }
        var bytes = [UInt8](UnsafeBufferPointer(start: buffer, count: Int(size)))
        // SOF2: FF C2, length (2), precision (1), height (2), width (2).
        guard let sof = (0..<bytes.count - 8).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 }) else {
            XCTFail("no SOF2 marker: not progressive")
            return Data()
        }
        bytes.replaceSubrange((sof + 5)..<(sof + 9), with: bigEndian(height) + bigEndian(width))
        return Data(bytes)
    }

    func testProgressiveJPEGBombIsRefusedFromItsHeader() throws {
        let small = try Self.progressiveJPEGBomb(width: 16, height: 16)
        XCTAssertEqual(try ImageDecoder.decode(data: small).width, 16, "the unpatched file is a valid progressive JPEG")
        let bomb = try Self.progressiveJPEGBomb(width: 16000, height: 16000)
        XCTAssertLessThan(bomb.count, 1000)
        assertRefused(bomb, size: "16000×16000")
    }

    // MARK: PPM and the configurable limit

    func testPPMDeclaringHugeSizeIsRefusedBeforeItsRaster() {
        assertRefused(Data("P6\n16000 16000\n255\n\u{0}\u{0}\u{0}".utf8), size: "16000×16000")
    }

    func testTheLimitIsConfigurable() throws {
        let png = try ImageEncoder.png(try patternImage(width: 40, height: 30))
        let ppm = try patternImage(width: 40, height: 30).ppmData()
        let jpeg = try ImageEncoder.jpeg(try patternImage(width: 40, height: 30))
        let tight = ImageDecodingLimits(maxPixelCount: 1199)
        for data in [png, ppm, jpeg] {
            assertRefused(data, size: "40×30", limits: tight)
            XCTAssertEqual(try ImageDecoder.decode(data: data, limits: ImageDecodingLimits(maxPixelCount: 1200)).height, 30)
        }
        XCTAssertEqual(ImageDecodingLimits.default.maxPixelCount, 100_000_000)
        // Never above what an RGBImage may hold.
        XCTAssertEqual(ImageDecodingLimits(maxPixelCount: .max).maxPixelCount, RGBImage.maxPixelCount)
    }
}

private func bigEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
    withUnsafeBytes(of: value.bigEndian) { Array($0) }
}

/// PNG's CRC-32 (ISO 3309), bit by bit.
private func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
