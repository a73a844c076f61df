import Foundation
import XCTest
import CTurboJPEG
import FoveaCore
import FoveaTestSupport
@testable import FoveaImage

/// Issue 34: HEIC/HEIF, AVIF and WebP through libheif and libwebp, the rest of
/// PNG and JPEG, container transforms applied once, alpha over black. The
/// photos are made by scripts/gen/test-photos.py (``TestPhotos``) from the shared
/// red panda, cut to 224×168.
final class PhotoFormatTests: XCTestCase {
    private func decode(_ name: String, colorMatching: ColorMatching = .auto) throws -> RGBImage {
        try ImageDecoder.decode(contentsOf: TestPhotos.path(name), colorMatching: colorMatching)
    }

    /// Every container gives back the panda: lossless ones exactly (16-bit PNG:
    /// within the 8-bit rounding), lossy ones within a mean absolute difference
    /// of 3 levels (of 255) and the transforms restore the upright picture.
    func testEveryContainerDecodesToThePanda() throws {
        let reference = try decode("panda.png")
        XCTAssertEqual(reference.pixels, try ImageDecoder.decode(contentsOf: TestPhotos.path("panda.ppm")).pixels)
        let tolerances: [(String, Double)] = [
            ("panda-16bit.png", 0), ("panda-lossless.webp", 0), ("panda-animated.webp", 0),
            ("panda.jpg", 3), ("panda-progressive.jpg", 3), ("panda-arithmetic.jpg", 3),
            ("panda.heic", 3), ("panda-10bit.heic", 3), ("panda.avif", 3), ("panda.webp", 3),
            ("panda-irot-imir.heic", 3), ("panda-irot-imir-exif.heic", 3), ("panda-10bit-irot.heic", 3),
            ("panda-grid.heic", 3), ("panda-10bit.avif", 3),
        ]
        for (name, meanTolerance) in tolerances {
            let image = try decode(name)
            XCTAssertEqual([image.width, image.height], [224, 168], name)
            let difference = pixelDifference(image, reference)
            XCTAssertLessThanOrEqual(difference.mean, meanTolerance, "\(name): \(difference)")
        }
    }

    func testFormatsAreToldFromTheirBytes() throws {
        let formats: [(String, ImageFormat)] = [("panda.heic", .heif), ("panda-10bit.heic", .heif), ("panda-grid.heic", .heif), ("panda.avif", .avif), ("panda-10bit.avif", .avif),
                                                ("panda.webp", .webp), ("panda-animated.webp", .webp), ("panda.jpg", .jpeg)]
        for (name, format) in formats {
            XCTAssertEqual(ImageDecoder.format(of: try Data(contentsOf: URL(fileURLWithPath: TestPhotos.path(name)))), format, name)
        }
        // An MP4's ftyp is not an image.
        let mp4 = Data([0, 0, 0, 16] + Array("ftypisom".utf8) + [0, 0, 2, 0])
        XCTAssertNil(ImageDecoder.format(of: mp4))
        assertFoveaError(.invalidImage, messageContains: "not a JPEG, PNG, HEIC, AVIF, WebP or PPM image") {
            try ImageDecoder.decode(data: mp4)
        }
    }

    /// libheif's own tool (heif-convert, which applies the same transforms) is
    /// the reference: the same pixels within 1 level (10-bit: its 16-bit PNG
    /// reduced to 8 bits by libpng, ours rounded from 10 bits).
    func testHEIFMatchesLibheifsOwnDecoder() throws {
        for name in ["panda.heic", "panda-10bit.heic", "panda.avif", "panda-irot-imir-exif.heic", "panda-10bit-irot.heic",
                     "panda-grid.heic", "panda-10bit.avif"] {
            let reference = try TestPhotos.path(name + ".heif-convert.png")
            let converted = try TestPhotos.run(["heif-convert", try TestPhotos.path(name), reference])
            XCTAssertEqual(converted.status, 0, converted.output)
            let ours = try decode(name, colorMatching: .off)
            let theirs = try ImageDecoder.decode(contentsOf: reference, colorMatching: .off)
            XCTAssertEqual([ours.width, ours.height], [theirs.width, theirs.height], name)
            XCTAssertLessThanOrEqual(pixelDifference(ours, theirs).max, 1, name)
        }
    }

    /// libwebp's own tool (dwebp) is the reference: the same pixels.
    func testWebPMatchesDwebp() throws {
        for name in ["panda.webp", "panda-lossless.webp"] {
            let reference = try TestPhotos.path(name + ".dwebp.ppm")
            let converted = try TestPhotos.run(["dwebp", "-quiet", "-ppm", try TestPhotos.path(name), "-o", reference])
            XCTAssertEqual(converted.status, 0, converted.output)
            XCTAssertEqual(try decode(name).pixels, try ImageDecoder.decode(contentsOf: reference).pixels, name)
        }
    }

    /// The container's irot/imir turn the picture; the EXIF orientation 6 inside
    /// is not read (it would turn it a second time).
    func testHEIFContainerTransformsAreAppliedOnce() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: TestPhotos.path("panda-irot-imir-exif.heic")))
        XCTAssertNil(EXIFOrientation.read(from: data))
        let upright = try decode("panda.png")
        let decoded = try ImageDecoder.decode(data: data)
        XCTAssertLessThan(pixelDifference(decoded, upright).mean, 3)
        // Turned once more (as EXIF 6 would), it is far from the panda.
        XCTAssertGreaterThan(pixelDifference(decoded.oriented(.upMirrored), upright).mean, 20)
    }

    /// Alpha ramps from 0 (left) to 255 (right): PNG, lossless WebP and HEIC all
    /// give the panda × alpha / 255 (HEIC is lossy: mean within 3 levels).
    func testAlphaIsCompositedOverBlackInEveryFormat() throws {
        let panda = try decode("panda.png")
        var expected = panda.pixels
        for y in 0..<panda.height {
            for x in 0..<panda.width {
                let alpha = (x * 255) / (panda.width - 1)
                for c in 0..<3 {
                    let i = (y * panda.width + x) * 3 + c
                    expected[i] = UInt8((Int(panda.pixels[i]) * alpha + 127) / 255)
                }
            }
        }
        let composited = try RGBImage(width: panda.width, height: panda.height, pixels: expected)
        XCTAssertEqual(try decode("panda-alpha.png").pixels, expected)
        XCTAssertEqual(try decode("panda-alpha.webp").pixels, expected)
        XCTAssertLessThanOrEqual(pixelDifference(try decode("panda-alpha.heic"), composited).mean, 3)
    }

    func testPaletteAndGreyTransparencyInPNG() throws {
        // Palette entries (i × 80, 255 − i × 80, 40) with alphas 0, 85, 170, 255, four columns each.
        let palette = try decode("palette-trns.png")
        for entry in 0..<4 {
            let alpha = [0, 85, 170, 255][entry]
            let colour = [entry * 80, 255 - entry * 80, 40].map { UInt8(($0 * alpha + 127) / 255) }
            let p = palette.pixel(x: entry * 4 + 1, y: 3)!
            XCTAssertEqual([p.red, p.green, p.blue], colour, "entry \(entry)")
        }
        // Grey 200 with alpha 17 × x.
        let grey = try decode("grey-alpha.png")
        for x in 0..<16 {
            let value = UInt8((200 * 17 * x + 127) / 255)
            let p = grey.pixel(x: x, y: 5)!
            XCTAssertEqual([p.red, p.green, p.blue], [value, value, value], "x \(x)")
        }
    }

    /// TurboJPEG writes CMYK as YCCK (Adobe's transform, as Photoshop saves CMYK):
    /// decoded as the CMYK fixture is, within JPEG's loss (mean 2 levels).
    func testYCCKJPEGDecodes() throws {
        let (width, height) = (32, 16)
        var cmyk = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            cmyk[4 * i] = UInt8((i * 5) % 256); cmyk[4 * i + 1] = UInt8((i * 3) % 256)
            cmyk[4 * i + 2] = UInt8(255 - (i % 200)); cmyk[4 * i + 3] = UInt8(128 + (i % 100))
        }
        let handle = try XCTUnwrap(tjInitCompress())
        defer { tjDestroy(handle) }
        var buffer: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(handle, cmyk, Int32(width), 0, Int32(height), Int32(TJPF_CMYK.rawValue), &buffer, &size,
                                 Int32(TJSAMP_444.rawValue), 98, 0)
        XCTAssertEqual(status, 0)
        let jpeg = Data(bytes: try XCTUnwrap(buffer), count: Int(size))
        tjFree(buffer)
        // Adobe marker with transform 2: YCCK.
        XCTAssertNotNil(jpeg.range(of: Data("Adobe".utf8)))
        let decoded = try ImageDecoder.decode(data: jpeg)
        let expected = try RGBImage(width: width, height: height, pixels: JPEGDecoder.rgbFromAdobeCMYK(cmyk))
        XCTAssertLessThanOrEqual(pixelDifference(decoded, expected).mean, 2)
    }
}
