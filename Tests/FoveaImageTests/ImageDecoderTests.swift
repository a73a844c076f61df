import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

final class ImageDecoderTests: XCTestCase {
    /// Sizes, a few pixels and the sum of all samples, as PIL 13 (libjpeg-turbo 3)
    /// decodes the photos with `Image.open(f).convert("RGB")`.
    private struct PhotoFacts {
        let name: String
        let width: Int, height: Int
        let pixels: [(x: Int, y: Int, rgb: [UInt8])]
        let sampleSum: Int
    }

    private let photos: [PhotoFacts] = [
        PhotoFacts(name: "red_panda.jpg", width: 960, height: 635,
                   pixels: [(0, 0, [188, 199, 131]), (959, 634, [45, 37, 35]), (480, 317, [207, 205, 190]), (123, 45, [215, 223, 148])],
                   sampleSum: 204_931_602),
        PhotoFacts(name: "chelsea_cat.png", width: 451, height: 300,
                   pixels: [(0, 0, [143, 120, 104]), (450, 299, [162, 138, 128]), (225, 150, [190, 150, 124]), (123, 45, [141, 98, 66])],
                   sampleSum: 46_802_357),
        PhotoFacts(name: "coffee.png", width: 600, height: 400,
                   pixels: [(0, 0, [21, 13, 8]), (599, 399, [143, 60, 29]), (300, 200, [248, 250, 255]), (123, 45, [167, 64, 20])],
                   sampleSum: 71_003_487),
        PhotoFacts(name: "rocket.jpg", width: 640, height: 427,
                   pixels: [(0, 0, [17, 33, 58]), (639, 426, [83, 61, 37]), (320, 213, [132, 123, 114]), (123, 45, [29, 44, 75])],
                   sampleSum: 53_516_744),
    ]

    func testPhotosDecodeExactlyAsPIL() throws {
        for facts in photos {
            // PIL does not match colours (rocket.jpg is Adobe RGB): compare the stored values.
            let image = try ImageDecoder.decode(contentsOf: photoPath(facts.name), colorMatching: .off)
            XCTAssertEqual(image.width, facts.width, facts.name)
            XCTAssertEqual(image.height, facts.height, facts.name)
            XCTAssertEqual(image.pixels.count, facts.width * facts.height * 3, facts.name)
            for (x, y, rgb) in facts.pixels {
                let pixel = try XCTUnwrap(image.pixel(x: x, y: y))
                XCTAssertEqual([pixel.red, pixel.green, pixel.blue], rgb, "\(facts.name) at (\(x), \(y))")
            }
            XCTAssertEqual(image.pixels.reduce(0) { $0 + Int($1) }, facts.sampleSum, facts.name)
        }
    }

    func testFormatComesFromMagicBytesNotExtension() throws {
        let png = try photoData("coffee.png")
        XCTAssertEqual(ImageDecoder.format(of: png), .png)
        XCTAssertEqual(ImageDecoder.format(of: try photoData("rocket.jpg")), .jpeg)
        XCTAssertEqual(ImageDecoder.format(of: try photoData("rocket.224.ppm")), .ppm)
        XCTAssertNil(ImageDecoder.format(of: Data("GIF89a".utf8)))
        let image = try ImageDecoder.decode(data: png, fileName: "misnamed.jpg")
        XCTAssertEqual(image.width, 600)
    }

    func testReferenceCropsDecodeAsPPM() throws {
        let crop = try ImageDecoder.decode(contentsOf: photoPath("red_panda.224.ppm"))
        XCTAssertEqual(crop.width, 224)
        XCTAssertEqual(crop.height, 224)
        let raw = try photoData("red_panda.224.ppm")
        XCTAssertEqual(crop.pixels, [UInt8](raw.suffix(224 * 224 * 3)))
    }

    // MARK: PNG colour types and depths

    func testPalettePNGWithTransparencyIsCompositedOverBlack() throws {
        let image = try ImageDecoder.decode(data: Fixture.data(Fixture.palette2PNG))
        XCTAssertEqual(image.width, 5)
        XCTAssertEqual(image.height, 3)
        // Palette ff0000 (alpha 0), 0080ff (alpha 128), 0a141e and c8c9ca (opaque):
        // each colour × alpha / 255 over black (docs/formats.md).
        let composited = ["ff0000": "000000", "0080ff": "004080", "0a141e": "0a141e", "c8c9ca": "c8c9ca"]
        let stored = Fixture.palette2RGB
        var expected = ""
        var index = stored.startIndex
        while index < stored.endIndex {
            let next = stored.index(index, offsetBy: 6)
            expected += composited[String(stored[index..<next])]!
            index = next
        }
        XCTAssertEqual(image.pixels, bytes(hex: expected))
    }

    func testOneBitGrayPNGBecomesBlackAndWhite() throws {
        let image = try ImageDecoder.decode(data: Fixture.data(Fixture.gray1PNG))
        XCTAssertEqual(image.pixels, bytes(hex: Fixture.gray1RGB))
    }

    func testAlphaIsCompositedOverBlack() throws {
        // The fixtures' RGB strings are the stored colours (PIL's convert("RGB") drops alpha).
        let rgba = try ImageDecoder.decode(data: Fixture.data(Fixture.rgbaPNG))
        let stored = bytes(hex: Fixture.rgbaRGB)
        for row in 0..<3 {
            let transparent = row * 5 * 3, opaque = (row * 5 + 1) * 3
            XCTAssertEqual(Array(rgba.pixels[transparent..<(transparent + 3)]), [0, 0, 0], "row \(row), pixel 0 (alpha 0)")
            XCTAssertEqual(Array(rgba.pixels[opaque..<(opaque + 3)]), Array(stored[opaque..<(opaque + 3)]), "row \(row), pixel 1 (opaque)")
        }
        XCTAssertTrue(zip(rgba.pixels, stored).allSatisfy { $0 <= $1 })
        let grayAlpha = try ImageDecoder.decode(data: Fixture.data(Fixture.grayAlphaPNG))
        let grayStored = bytes(hex: Fixture.grayAlphaRGB)
        XCTAssertTrue(zip(grayAlpha.pixels, grayStored).allSatisfy { $0 <= $1 })
        XCTAssertNotEqual(grayAlpha.pixels, grayStored)
    }

    func testSixteenBitPNGIsScaledTo8Bits() throws {
        let rgb = try ImageDecoder.decode(data: Fixture.data(Fixture.rgb16PNG))
        XCTAssertEqual(rgb.width, 5)
        XCTAssertEqual(rgb.height, 3)
        // libpng rounds v * 255 / 65535; PIL keeps the high byte; they differ by at most 1.
        for (decoded, sample) in zip(rgb.pixels, Fixture.rgb16Samples) {
            XCTAssertEqual(Int(decoded), (sample * 255 + 32767) / 65535, "sample \(sample)")
            XCTAssertLessThanOrEqual(abs(Int(decoded) - sample >> 8), 1)
        }
        let gray = try ImageDecoder.decode(data: Fixture.data(Fixture.gray16PNG))
        for (i, sample) in Fixture.gray16Samples.enumerated() {
            let expected = UInt8((sample * 255 + 32767) / 65535)
            XCTAssertEqual(Array(gray.pixels[(3 * i)..<(3 * i + 3)]), [expected, expected, expected], "sample \(sample)")
        }
    }

    // MARK: JPEG colour spaces

    func testGrayscaleJPEGBecomesRGB() throws {
        let image = try ImageDecoder.decode(data: Fixture.data(Fixture.grayJPEG))
        XCTAssertEqual(image.width, 7)
        XCTAssertEqual(image.height, 5)
        XCTAssertEqual(image.pixels, bytes(hex: Fixture.grayJPEGRGB))
    }

    func testCMYKJPEGConvertsAsPIL() throws {
        let image = try ImageDecoder.decode(data: Fixture.data(Fixture.cmykJPEG))
        XCTAssertEqual(image.width, 6)
        XCTAssertEqual(image.height, 4)
        XCTAssertEqual(image.pixels, bytes(hex: Fixture.cmykJPEGRGB))
    }

    func testSubsampledJPEGMatchesPIL() throws {
        let image = try ImageDecoder.decode(data: Fixture.data(Fixture.rgb420JPEG))
        XCTAssertEqual(image.width, 9)
        XCTAssertEqual(image.height, 7)
        XCTAssertEqual(image.pixels, bytes(hex: Fixture.rgb420JPEGRGB))
    }

    /// libjpeg warns about junk before a marker but decodes everything; Fovea accepts
    /// that one warning (common in camera files), yet not when the file is also cut.
    func testExtraneousBytesBeforeAMarkerAreTolerated() throws {
        let original = [UInt8](Fixture.data(Fixture.rgb420JPEG))
        // Junk between the JFIF APP0 segment (ends at 20) and the first DQT.
        XCTAssertEqual(Array(original[20..<22]), [0xFF, 0xDB])
        let padded = Array(original[..<20]) + [0x12, 0x34, 0x56] + Array(original[20...])
        XCTAssertEqual(try ImageDecoder.decode(data: Data(padded)), try ImageDecoder.decode(data: Data(original)))
        for cut in [padded.count - 1, padded.count / 2] {
            assertFoveaError(.invalidImage, messageContains: "truncated JPEG data") {
                try ImageDecoder.decode(data: Data(padded.prefix(cut)))
            }
        }
    }

    // MARK: PPM

    func testPPMHeaderWithCommentsAndOddWhitespace() throws {
        var data = Data("P6 # a comment\n#another\n 2\t1\r\n# between\n255\n".utf8)
        data.append(contentsOf: [1, 2, 3, 250, 251, 252])
        let image = try ImageDecoder.decode(data: data)
        XCTAssertEqual(image.width, 2)
        XCTAssertEqual(image.height, 1)
        XCTAssertEqual(image.pixels, [1, 2, 3, 250, 251, 252])
    }

    func testPPMWithSmallMaxvalIsScaled() throws {
        var data = Data("P6\n2 1\n15\n".utf8)
        data.append(contentsOf: [0, 1, 7, 8, 14, 15])
        let image = try ImageDecoder.decode(data: data)
        // round(v * 255 / 15) = v * 17.
        XCTAssertEqual(image.pixels, [0, 17, 119, 136, 238, 255])

        var halves = Data("P6\n1 1\n2\n".utf8)
        halves.append(contentsOf: [0, 1, 2])
        XCTAssertEqual(try ImageDecoder.decode(data: halves).pixels, [0, 128, 255])
    }

    func testSixteenBitPPMIsScaled() throws {
        var data = Data("P6\n1 1\n65535\n".utf8)
        data.append(contentsOf: [0xFF, 0xFF, 0x00, 0x80, 0x01, 0x00])  // 65535, 128, 256
        XCTAssertEqual(try ImageDecoder.decode(data: data).pixels, [255, 0, 1])

        var tenBit = Data("P6\n1 1\n1023\n".utf8)
        tenBit.append(contentsOf: [0x03, 0xFF, 0x02, 0x00, 0x00, 0x02])  // 1023, 512, 2
        XCTAssertEqual(try ImageDecoder.decode(data: tenBit).pixels, [255, 128, 0])
    }

    func testPGMBecomesGrayRGB() throws {
        var data = Data("P5\n3 1\n255\n".utf8)
        data.append(contentsOf: [0, 100, 255])
        let image = try ImageDecoder.decode(data: data)
        XCTAssertEqual(image.pixels, [0, 0, 0, 100, 100, 100, 255, 255, 255])

        var wide = Data("P5\n1 1\n4095\n".utf8)
        wide.append(contentsOf: [0x08, 0x00])  // 2048 of 4095
        XCTAssertEqual(try ImageDecoder.decode(data: wide).pixels, [128, 128, 128])
    }

    func testTrailingBytesAfterPPMRasterAreIgnored() throws {
        var data = Data("P6\n1 1\n255\n".utf8)
        data.append(contentsOf: [9, 8, 7, 1, 2, 3, 4])
        XCTAssertEqual(try ImageDecoder.decode(data: data).pixels, [9, 8, 7])
    }

    func testPPMRoundTrip() throws {
        let image = try patternImage(width: 13, height: 7)
        let data = image.ppmData()
        XCTAssertTrue(data.starts(with: Data("P6\n13 7\n255\n".utf8)))
        XCTAssertEqual(data.count, 12 + 13 * 7 * 3)
        XCTAssertEqual(try ImageDecoder.decode(data: data), image)

        let reference = try photoData("coffee.224.ppm")
        XCTAssertEqual(try ImageDecoder.decode(data: reference).ppmData(), reference)
    }

    func testDecodingIsThreadSafe() throws {
        let jpeg = try photoData("rocket.jpg")
        let png = try photoData("chelsea_cat.png")
        let expectedJPEG = try ImageDecoder.decode(data: jpeg)
        let expectedPNG = try ImageDecoder.decode(data: png)
        let mismatches = LockedCounter()
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            let decoded = try? ImageDecoder.decode(data: i.isMultiple(of: 2) ? jpeg : png)
            if decoded != (i.isMultiple(of: 2) ? expectedJPEG : expectedPNG) {
                mismatches.increment()
            }
        }
        XCTAssertEqual(mismatches.value, 0)
    }
}
