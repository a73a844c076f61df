import Foundation
import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaImage

/// Issue 34: colour matching to sRGB through lcms2. The chart is 24 known sRGB
/// colours (16×16 patches) re-encoded in Display P3 and tagged as P3 in every
/// way a file can say it: a PNG's iCCP (8 and 16 bit), a JPEG's ICC split
/// over 3 APP2 markers, a 10-bit HEIC's colr ICC, an AVIF's colr nclx
/// (primaries 12, transfer 13), a WebP's ICCP. Matched to sRGB, each patch
/// (its central 8×8 mean) lands within the stated ΔE*ab (CIE 1976) of the
/// sRGB original; with `.off` it keeps the P3 values.
final class ColorMatchingTests: XCTestCase {
    /// The largest ΔE*ab allowed per patch: 8-bit P3 values quantized then
    /// matched lose under 1; lossy coding adds to it.
    static let tolerances: [(String, Double)] = [
        ("chart-p3.png", 1.0), ("chart-p3-16bit.png", 1.0), ("chart-p3.webp", 1.0),
        ("chart-p3.jpg", 2.0), ("chart-p3-10bit.heic", 2.0), ("chart-p3-nclx.avif", 3.0),
    ]

    func testDisplayP3ChartLandsOnItsSRGBColours() throws {
        let expected = try patchMeans(ImageDecoder.decode(contentsOf: TestPhotos.path("chart-srgb.ppm")))
        for (name, tolerance) in Self.tolerances {
            let matched = try patchMeans(ImageDecoder.decode(contentsOf: TestPhotos.path(name)))
            let worst = zip(matched, expected).map { Self.deltaE($0, $1) }.max()!
            XCTAssertLessThanOrEqual(worst, tolerance, "\(name): worst patch ΔE \(worst)")
        }
    }

    func testColorMatchingOffKeepsTheStoredValues() throws {
        let raw = try patchMeans(ImageDecoder.decode(contentsOf: TestPhotos.path("chart-p3-raw.ppm")))
        let srgb = try patchMeans(ImageDecoder.decode(contentsOf: TestPhotos.path("chart-srgb.ppm")))
        for (name, tolerance) in Self.tolerances {
            let kept = try patchMeans(ImageDecoder.decode(contentsOf: TestPhotos.path(name), colorMatching: .off))
            let worst = zip(kept, raw).map { Self.deltaE($0, $1) }.max()!
            XCTAssertLessThanOrEqual(worst, tolerance, "\(name) with .off: worst patch ΔE \(worst) from the P3 values")
            // And the P3 values are visibly not the sRGB ones: what matching fixes.
            XCTAssertGreaterThan(zip(kept, srgb).map { Self.deltaE($0, $1) }.max()!, 5, name)
        }
    }

    /// An embedded sRGB profile (the shared red panda's) is recognised as the
    /// identity: its photos are not transformed.
    func testAnEmbeddedSRGBProfileChangesNothing() throws {
        let data = try photoData("red_panda.jpg")
        guard case .icc? = try EmbeddedColorProfile.inJPEG(data) else { return XCTFail("the red panda carries an sRGB ICC profile") }
        XCTAssertEqual(try ImageDecoder.decode(data: data).pixels, try ImageDecoder.decode(data: data, colorMatching: .off).pixels)
    }

    /// The transform is built once per distinct profile and reused.
    func testTransformsAreBuiltOncePerProfile() throws {
        _ = try ImageDecoder.decode(contentsOf: TestPhotos.path("chart-p3.png"))
        let before = SRGBColorTransforms.buildCount
        for _ in 0..<3 { _ = try ImageDecoder.decode(contentsOf: TestPhotos.path("chart-p3.png")) }
        _ = try ImageDecoder.decode(contentsOf: TestPhotos.path("chart-p3.webp"))  // the same profile bytes
        XCTAssertEqual(SRGBColorTransforms.buildCount, before)
    }

    /// A PNG's cHRM chunk (no iCCP) is matched too: P3 primaries given as cHRM.
    func testPNGChromaticitiesAreMatched() throws {
        let chart = try Data(contentsOf: URL(fileURLWithPath: TestPhotos.path("chart-p3.png")))
        let profile = try XCTUnwrap(EmbeddedColorProfile.inPNG(chart))
        guard case .icc = profile else { return XCTFail("iCCP expected") }
        let values = [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060].map { UInt32(($0 * 100_000).rounded()) }
        var body = Data()
        for v in values { withUnsafeBytes(of: v.bigEndian) { body.append(contentsOf: $0) } }
        let withCHRM = Self.pngReplacingICCP(chart, with: "cHRM", body)
        let matched = try patchMeans(ImageDecoder.decode(data: withCHRM))
        let expected = try patchMeans(ImageDecoder.decode(contentsOf: TestPhotos.path("chart-srgb.ppm")))
        let worst = zip(matched, expected).map { Self.deltaE($0, $1) }.max()!
        XCTAssertLessThanOrEqual(worst, 1.0, "cHRM: worst patch ΔE \(worst)")
    }

    // MARK: helpers

    /// The mean colour of the central 8×8 of each 16×16 patch, row by row.
    func patchMeans(_ image: RGBImage) -> [[Double]] {
        var means: [[Double]] = []
        for py in 0..<(image.height / 16) {
            for px in 0..<(image.width / 16) {
                var sum = [0.0, 0.0, 0.0]
                for y in (py * 16 + 4)..<(py * 16 + 12) {
                    for x in (px * 16 + 4)..<(px * 16 + 12) {
                        let p = image.pixel(x: x, y: y)!
                        sum[0] += Double(p.red); sum[1] += Double(p.green); sum[2] += Double(p.blue)
                    }
                }
                means.append(sum.map { $0 / 64 })
            }
        }
        return means
    }

    /// CIE 1976 ΔE*ab between two 8-bit sRGB colours (D65).
    static func deltaE(_ a: [Double], _ b: [Double]) -> Double {
        let la = lab(a), lb = lab(b)
        return sqrt(zip(la, lb).map { ($0 - $1) * ($0 - $1) }.reduce(0, +))
    }

    static func lab(_ rgb: [Double]) -> [Double] {
        let linear = rgb.map { v -> Double in
            let c = v / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let x = 0.4124 * linear[0] + 0.3576 * linear[1] + 0.1805 * linear[2]
        let y = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        let z = 0.0193 * linear[0] + 0.1192 * linear[1] + 0.9505 * linear[2]
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : (24389.0 / 27 * t + 16) / 116 }
        let (fx, fy, fz) = (f(x / 0.9505), f(y), f(z / 1.0890))
        return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)]
    }

    /// The PNG with its iCCP chunk replaced by another chunk (CRC recomputed by zlib's rules).
    static func pngReplacingICCP(_ png: Data, with type: String, _ body: Data) -> Data {
        var bytes = [UInt8](png)
        var i = 8
        while i + 8 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self) == "iCCP" {
                var chunk = [UInt8]()
                withUnsafeBytes(of: UInt32(body.count).bigEndian) { chunk += $0 }
                let typed = Array(type.utf8) + [UInt8](body)
                chunk += typed
                withUnsafeBytes(of: crc32(typed).bigEndian) { chunk += $0 }
                bytes.replaceSubrange(i..<(i + 12 + length), with: chunk)
                return Data(bytes)
            }
            i += 12 + length
        }
        return png
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
