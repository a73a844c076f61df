import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

/// EXIF orientation: reading the tag, and the 8 transforms.
final class OrientationTests: XCTestCase {
    /// 3×2 image whose pixel (x, y) has red = 10·x + y + 1.
    private func numbered() throws -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<2 { for x in 0..<3 { pixels += [UInt8(10 * x + y + 1), 0, 0] } }
        return try RGBImage(width: 3, height: 2, pixels: pixels)
    }

    private func reds(_ image: RGBImage) -> [[UInt8]] {
        (0..<image.height).map { y in (0..<image.width).map { x in image.pixel(x: x, y: y)?.red ?? 0 } }
    }

    func testEachOrientationIsPillowsExifTranspose() throws {
        // Stored:  1 11 21 / 2 12 22. Expected pictures per Pillow's ImageOps.exif_transpose.
        let expected: [ImageOrientation: [[UInt8]]] = [
            .up: [[1, 11, 21], [2, 12, 22]],
            .upMirrored: [[21, 11, 1], [22, 12, 2]],
            .down: [[22, 12, 2], [21, 11, 1]],
            .downMirrored: [[2, 12, 22], [1, 11, 21]],
            .leftMirrored: [[1, 2], [11, 12], [21, 22]],       // transpose
            .right: [[2, 1], [12, 11], [22, 21]],              // 90° clockwise
            .rightMirrored: [[22, 21], [12, 11], [2, 1]],      // transverse
            .left: [[21, 22], [11, 12], [1, 2]],               // 90° counter-clockwise
        ]
        let image = try numbered()
        for orientation in ImageOrientation.allCases {
            let oriented = image.oriented(orientation)
            XCTAssertEqual(reds(oriented), expected[orientation], "\(orientation)")
            XCTAssertEqual(image.oriented(orientation.inverse).oriented(orientation), image, "\(orientation)")
        }
    }

    func testNamesRoundTrip() {
        XCTAssertEqual(ImageOrientation.allCases.map(\.rawValue), Array(1...8))
        for orientation in ImageOrientation.allCases {
            XCTAssertEqual(ImageOrientation(name: orientation.name), orientation)
        }
        XCTAssertEqual(ImageOrientation.right.name, "right")
        XCTAssertEqual(ImageOrientation.leftMirrored.name, "left-mirrored")
        XCTAssertNil(ImageOrientation(name: "sideways"))
    }

    /// A TIFF block with one IFD0 entry `Orientation = value`.
    private func tiff(orientation value: UInt16, littleEndian: Bool, type: UInt16 = 3) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
        func u32(_ v: UInt32) -> [UInt8] { littleEndian ? (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } : (0..<4).reversed().map { UInt8((v >> (8 * $0)) & 0xFF) } }
        // Two entries: an unrelated tag first (ImageWidth), then Orientation.
        return (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8) + u16(2)
            + u16(0x0100) + u16(3) + u32(1) + u16(640) + [0, 0]
            + u16(0x0112) + u16(type) + u32(1) + u16(value) + [0, 0] + u32(0)
    }

    private func jpeg(withAPP1 body: [UInt8]) throws -> Data {
        let base = try ImageEncoder.jpeg(try RGBImage(width: 4, height: 4, red: 9, green: 9, blue: 9))
        let length = body.count + 2
        var data = Data(base.prefix(2))
        // An APP0 segment first, so the reader has to skip a segment.
        data.append(contentsOf: [0xFF, 0xE0, 0x00, 0x04, 0x00, 0x00])
        data.append(contentsOf: [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body)
        data.append(base.dropFirst(2))
        return data
    }

    func testReadsJPEGAPP1InBothByteOrders() throws {
        for value in 1...8 {
            for littleEndian in [false, true] {
                let data = try jpeg(withAPP1: Array("Exif".utf8) + [0, 0] + tiff(orientation: UInt16(value), littleEndian: littleEndian))
                XCTAssertEqual(EXIFOrientation.read(from: data)?.rawValue, UInt32(value))
                XCTAssertNoThrow(try ImageDecoder.decode(data: data), "EXIF does not disturb decoding")
            }
        }
    }

    func testMissingOrBrokenEXIFGivesNil() throws {
        let plain = try ImageEncoder.jpeg(try RGBImage(width: 4, height: 4, red: 1, green: 2, blue: 3))
        XCTAssertNil(EXIFOrientation.read(from: plain))
        let good = Array("Exif".utf8) + [0, 0] + tiff(orientation: 6, littleEndian: false)
        let broken: [[UInt8]] = [
            Array("Exif".utf8) + [0, 0] + tiff(orientation: 9, littleEndian: false),      // out of range
            Array("Exif".utf8) + [0, 0] + tiff(orientation: 0, littleEndian: true),       // out of range
            Array("Exif".utf8) + [0, 0] + tiff(orientation: 6, littleEndian: false, type: 4),  // wrong type
            Array("Exif".utf8) + [0, 0] + [0x4D, 0x4D, 0, 42, 0xFF, 0xFF, 0xFF, 0xF0],   // IFD offset far away
            Array("Exif".utf8) + [0, 0] + [0x58, 0x58, 0, 42, 0, 0, 0, 8],               // bad byte order
            Array(good.prefix(20)),                                                        // cut short
            Array("Exig".utf8) + [0, 0] + tiff(orientation: 6, littleEndian: false),      // not Exif
        ]
        for body in broken {
            XCTAssertNil(EXIFOrientation.read(from: try jpeg(withAPP1: body)), "\(body)")
        }
        // Garbage and truncated files never crash.
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 2, 3, 5, 40] {
            let random = Data([0xFF, 0xD8] + (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) })
            _ = EXIFOrientation.read(from: random)
        }
        let full = try jpeg(withAPP1: good)
        for cut in 0..<40 { _ = EXIFOrientation.read(from: full.prefix(cut)) }
        XCTAssertEqual(EXIFOrientation.read(from: full), .right)
    }

    func testReadsPNGeXIfChunk() throws {
        let png = try ImageEncoder.png(try RGBImage(width: 2, height: 2, red: 5, green: 6, blue: 7))
        let body = tiff(orientation: 8, littleEndian: true)
        // Insert eXIf after IHDR (8 signature + 25 IHDR bytes); the CRC is not checked by the reader.
        let chunk: [UInt8] = [0, 0, 0, UInt8(body.count)] + Array("eXIf".utf8) + body + [0, 0, 0, 0]
        var data = Data(png.prefix(33))
        data.append(contentsOf: chunk)
        data.append(png.dropFirst(33))
        XCTAssertEqual(EXIFOrientation.read(from: data), .left)
        XCTAssertNil(EXIFOrientation.read(from: png))
    }
}
