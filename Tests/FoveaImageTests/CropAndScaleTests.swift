import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

/// The exact geometry of centre crop (with and without a crop fraction), letterbox, and pixel buffers.
final class CropAndScaleTests: XCTestCase {
    /// An image whose pixel (x, y) is (x, y, 7): coordinates can be read back.
    private func coordinates(width: Int, height: Int) throws -> RGBImage {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += [UInt8(x), UInt8(y), 7] } }
        return try RGBImage(width: width, height: height, pixels: pixels)
    }

    func testCentreCropWithoutScalingIsTheMiddle() throws {
        let image = try coordinates(width: 30, height: 20)
        let crop = try image.centerCropped(toWidth: 20, height: 20)
        XCTAssertEqual(crop.width, 20)
        XCTAssertEqual(crop.pixel(x: 0, y: 0)?.red, 5)   // (30 - 20) / 2
        XCTAssertEqual(crop.pixel(x: 19, y: 19)?.red, 24)
        XCTAssertEqual(crop.pixel(x: 19, y: 19)?.green, 19)
    }

    func testCentreCropWithFractionScalesTheShorterSideToSizeOverFraction() throws {
        // 0.875 of 16 = 14: shorter side to 16 (round(14 / 0.875)), then the centre 14×14.
        let image = try coordinates(width: 48, height: 32)
        let expected = try image.resizedShorterSide(to: 16).centerCropped(width: 14, height: 14)
        let crop = try image.centerCropped(toWidth: 14, height: 14, cropFraction: 0.875)
        XCTAssertEqual(crop, expected)
        XCTAssertEqual(try image.resizedShorterSide(to: 16).width, 24)
    }

    func testCentreCropForANonSquareTargetCoversIt() throws {
        let image = try coordinates(width: 40, height: 40)
        let crop = try image.centerCropped(toWidth: 20, height: 10)
        XCTAssertEqual([crop.width, crop.height], [20, 10])
        // Scaled to 20×20, rows 5..<15 kept: the first output row is the scaled row 5 ≈ source row 10.5.
        let first = try XCTUnwrap(crop.pixel(x: 0, y: 0)?.green)
        XCTAssertTrue((9...12).contains(first), "\(first)")
        // A tall image into a wide target scales by width.
        let tall = try coordinates(width: 10, height: 40).centerCropped(toWidth: 20, height: 10)
        XCTAssertEqual([tall.width, tall.height], [20, 10])
    }

    func testUpscalingSmallImagesWorks() throws {
        let tiny = try RGBImage(width: 3, height: 2, red: 200, green: 100, blue: 50)
        let crop = try tiny.centerCropped(toWidth: 16, height: 16, cropFraction: 0.875)
        XCTAssertEqual([crop.width, crop.height], [16, 16])
        XCTAssertEqual(crop.pixel(x: 8, y: 8)?.red, 200)
    }

    func testLetterboxCentresOnBlack() throws {
        let white = try RGBImage(width: 40, height: 10, red: 255, green: 255, blue: 255)
        let boxed = try white.letterboxed(toWidth: 16, height: 16)  // 16×4 at rows 6..<10
        for y in 0..<16 {
            let expected: UInt8 = (6..<10).contains(y) ? 255 : 0
            XCTAssertEqual(boxed.pixel(x: 8, y: y)?.green, expected, "row \(y)")
        }
        let tall = try RGBImage(width: 5, height: 20, red: 255, green: 255, blue: 255).letterboxed(toWidth: 16, height: 16)
        // 4×16 at columns 6..<10.
        XCTAssertEqual((0..<16).map { tall.pixel(x: $0, y: 3)?.blue ?? 9 }, (0..<16).map { (6..<10).contains($0) ? 255 : 0 })
        // Same aspect: no bands.
        XCTAssertEqual(try white.letterboxed(toWidth: 8, height: 2), try white.resized(width: 8, height: 2))
        // A 1000×1 line keeps at least one row.
        XCTAssertEqual(try RGBImage(width: 1000, height: 1, red: 1, green: 1, blue: 1).letterboxed(toWidth: 10, height: 10).height, 10)
    }

    func testBadTargetsAreErrors() throws {
        let image = try coordinates(width: 8, height: 8)
        assertFoveaError(.invalidImage) { try image.centerCropped(toWidth: 0, height: 4) }
        assertFoveaError(.invalidArgument, messageContains: "crop fraction") { try image.centerCropped(toWidth: 4, height: 4, cropFraction: 0) }
        assertFoveaError(.invalidArgument) { try image.centerCropped(toWidth: 4, height: 4, cropFraction: 1.5) }
        assertFoveaError(.invalidArgument) { try image.centerCropped(toWidth: 4, height: 4, cropFraction: .nan) }
        assertFoveaError(.invalidImage) { try image.letterboxed(toWidth: 4, height: -1) }
    }

    func testPixelBufferConversion() throws {
        let bgra = PixelBuffer(width: 2, height: 2, bytesPerRow: 12, format: .bgra8,
                               bytes: [3, 2, 1, 0, 6, 5, 4, 0, 99, 99, 99, 99, 9, 8, 7, 0, 12, 11, 10, 0])
        XCTAssertEqual(try RGBImage(pixelBuffer: bgra).pixels, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
        let gray = PixelBuffer(width: 2, height: 1, format: .gray8, bytes: [5, 200])
        XCTAssertEqual(try RGBImage(pixelBuffer: gray).pixels, [5, 5, 5, 200, 200, 200])
        assertFoveaError(.invalidImage, messageContains: "needs 20 bytes") {
            try RGBImage(pixelBuffer: PixelBuffer(width: 2, height: 2, bytesPerRow: 12, format: .bgra8, bytes: [UInt8](repeating: 0, count: 19)))
        }
    }

    func testEncodersRoundTrip() throws {
        let image = try coordinates(width: 7, height: 5)
        XCTAssertEqual(try ImageDecoder.decode(data: try ImageEncoder.png(image)), image)
        XCTAssertEqual(try ImageDecoder.decode(data: try ImageEncoder.encode(image, forPath: "x.ppm")), image)
        let jpeg = try ImageDecoder.decode(data: try ImageEncoder.jpeg(image, quality: 100))
        XCTAssertLessThanOrEqual(zip(jpeg.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 99, 4)
        assertFoveaError(.invalidArgument) { try ImageEncoder.encode(image, forPath: "x.gif") }
        assertFoveaError(.invalidArgument) { try ImageEncoder.jpeg(image, quality: 0) }
    }

    func testScaleBiasAndGrayNormalization() throws {
        // Core ML's x = p × scale + bias, e.g. scale 2/255, bias -1 (the symmetric [-1, 1] range).
        let scaled = try PixelNormalization(scale: [2 / 255], bias: [-1, -1, -1])
        XCTAssertEqual(scaled.value(of: 0, channel: 0), -1, accuracy: 1e-6)
        XCTAssertEqual(scaled.value(of: 255, channel: 2), 1, accuracy: 1e-6)
        XCTAssertEqual(scaled.value(of: 100, channel: 1), 100 * 2 / 255 - 1, accuracy: 1e-6)
        let caffe = try PixelNormalization(scale: [1, 1, 1], bias: [-103.94, -116.78, -123.68], channelOrder: .bgr)
        XCTAssertEqual(caffe.value(of: 200, channel: 0), 200 - 103.94, accuracy: 1e-3)
        XCTAssertEqual(caffe.scale[0], 1, accuracy: 1e-6)
        XCTAssertEqual(caffe.bias[2], -123.68, accuracy: 1e-3)
        assertFoveaError(.invalidArgument) { try PixelNormalization(scale: [0], bias: [0, 0, 0]) }
        assertFoveaError(.invalidArgument) { try PixelNormalization(scale: [1, 1], bias: [0, 0, 0]) }
        assertFoveaError(.invalidArgument) { try PixelNormalization(scale: [1], bias: [.infinity, 0, 0]) }

        let gray = try PixelNormalization(scale: [1 / 255], bias: [0], channelOrder: .gray)
        let image = try RGBImage(width: 2, height: 1, pixels: [255, 0, 0, 10, 200, 30])
        let tensor = try gray.tensor(from: [image])
        XCTAssertEqual(tensor.shape, [1, 1, 1, 2])
        let values = try XCTUnwrap(tensor.floats)
        XCTAssertEqual(values[0], 76 / 255, accuracy: 1e-6)   // Pillow: L of pure red is 76
        XCTAssertEqual(values[1], Float(PixelNormalization.luminance(10, 200, 30)) / 255, accuracy: 1e-6)
        XCTAssertEqual(PixelNormalization.luminance(10, 200, 30), 124)
        assertFoveaError(.invalidArgument) { try PixelNormalization(mean: [0, 0, 0], std: [1, 1, 1], channelOrder: .gray) }
    }
}
