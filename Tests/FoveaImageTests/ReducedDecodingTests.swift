import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

/// Issue 14: JPEGs decoded at 1/2, 1/4 or 1/8 in the DCT when the crop needs
/// fewer pixels, and the fused crop-scale-normalize pass.
final class ReducedDecodingTests: XCTestCase {
    /// A smooth 4000×3000 picture with some texture, as a camera JPEG (made once).
    static let bigJPEG = Result { try makeBigJPEG() }

    private static func makeBigJPEG() throws -> Data {
        let (width, height) = (4000, 3000)
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    buffer[i] = UInt8(truncatingIfNeeded: x / 16 + y / 40)
                    buffer[i + 1] = UInt8(truncatingIfNeeded: (x * y) >> 14)
                    buffer[i + 2] = UInt8(truncatingIfNeeded: 255 - y / 12 + ((x ^ y) & 15))
                }
            }
            count = width * height * 3
        }
        return try ImageEncoder.jpeg(try RGBImage(width: width, height: height, pixels: pixels), quality: 90)
    }

    /// ImageNet evaluation's centre crop (shorter side 256, centre 224) of a full picture.
    private func centerCrop(_ width: Int, _ height: Int) throws -> CropAndScaleGeometry {
        try .centerCrop(imageWidth: width, imageHeight: height, width: 224, height: 224, cropFraction: 0.875)
    }

    func testA4000x3000JPEGIsDecodedAtOneEighthForA224Crop() throws {
        let encoded = try EncodedImage(data: try Self.bigJPEG.get(), fileName: "big.jpg")
        XCTAssertEqual([encoded.width, encoded.height], [4000, 3000])
        XCTAssertEqual(encoded.format, .jpeg)
        XCTAssertTrue(encoded.canDecodeReduced)
        // 3000 / 8 = 375 ≥ 256: the smallest reduction keeps full resolution.
        let geometry = try centerCrop(4000, 3000)
        let reduction = encoded.reduction(where: geometry.keepsFullResolution)
        XCTAssertEqual(reduction, 8)
        let reduced = try encoded.decoded(reducedBy: reduction)
        XCTAssertEqual([reduced.width, reduced.height], [500, 375])
        XCTAssertEqual(reduced.pixels.count, 500 * 375 * 3, "memory follows the decoded size")

        // The model's input from the reduced decode stays close to the exact crop.
        let full = try encoded.decoded()
        XCTAssertEqual([full.width, full.height], [4000, 3000])
        let exact = try full.rendered(geometry)
        let approximate = try reduced.rendered(geometry.reduced(by: 8, imageWidth: 500, imageHeight: 375))
        let difference = pixelDifference(exact, approximate)
        print("4000×3000 decoded at 1/8 against the exact crop: mean |diff| \(difference.mean), max \(difference.max)")
        XCTAssertLessThanOrEqual(difference.mean, ReducedDecodingBounds.meanPixelDifference, "\(difference)")
        XCTAssertLessThanOrEqual(difference.max, ReducedDecodingBounds.maxPixelDifference, "\(difference)")
    }

    func testTheReductionRule() throws {
        let panda = try EncodedImage(data: try photoData("red_panda.jpg"))  // 960×635
        XCTAssertEqual(panda.reduction(where: try centerCrop(960, 635).keepsFullResolution), 2, "318 rows ≥ 256, 159 are not")
        XCTAssertEqual(panda.reduction { w, h in w >= 224 && h >= 224 }, 2)
        XCTAssertEqual(panda.reduction { w, h in w >= 100 && h >= 70 }, 8)
        XCTAssertEqual(panda.reduction { _, _ in false }, 1, "nothing smaller is enough: full size")
        XCTAssertEqual(try panda.decoded(reducedBy: 2).width, 480)
        XCTAssertEqual(try panda.decoded(reducedBy: 4).height, 159, "635 / 4 rounded up")
        XCTAssertEqual(try panda.decoded(reducedBy: 3).width, 960, "not a DCT scale: full size")
        // PNG has no reduced decode.
        let cat = try EncodedImage(data: try photoData("chelsea_cat.png"))
        XCTAssertFalse(cat.canDecodeReduced)
        XCTAssertEqual(cat.reduction { _, _ in true }, 1)
        XCTAssertEqual(try cat.decoded(reducedBy: 8), try ImageDecoder.decode(contentsOf: photoPath("chelsea_cat.png")))
    }

    func testEncodedImageChecksTheHeaderAndLimitsAtOnceAndThePixelsWhenDecoded() throws {
        assertFoveaError(.limitExceeded) { try EncodedImage(data: try Self.bigJPEG.get(), limits: ImageDecodingLimits(maxPixelCount: 1_000_000)) }
        assertFoveaError(.invalidImage, messageContains: "not a JPEG") { try EncodedImage(data: Data("GIF89a".utf8)) }
        let jpeg = try photoData("red_panda.jpg")
        assertFoveaError(.invalidImage) { try EncodedImage(data: jpeg.prefix(100)) }
        // A header intact, the scan cut short: found when the pixels are decoded.
        let truncated = try EncodedImage(data: jpeg.prefix(jpeg.count / 2), fileName: "half.jpg")
        for reduction in [1, 2, 8] {
            let error = assertFoveaError(.invalidImage, messageContains: "truncated") { try truncated.decoded(reducedBy: reduction) }
            XCTAssertEqual(error?.location.file, "half.jpg")
        }
    }

    func testTheFusedTensorEqualsNormalizingThePicture() throws {
        let image = try patternImage(width: 150, height: 97)
        let normalizations = [PixelNormalization.imageNet, .unitGray,
                              try PixelNormalization(mean: [0.4, 0.5, 0.6], std: [0.2, 0.3, 0.25], channelOrder: .bgr)]
        let geometries = [
            try CropAndScaleGeometry.centerCrop(imageWidth: 150, imageHeight: 97, width: 40, height: 40, cropFraction: 0.875),
            try CropAndScaleGeometry.centerCrop(imageWidth: 150, imageHeight: 97, width: 64, height: 36),
            try CropAndScaleGeometry.fill(imageWidth: 150, imageHeight: 97, width: 150, height: 50),
            try CropAndScaleGeometry.fill(imageWidth: 150, imageHeight: 97, width: 200, height: 97),
            try CropAndScaleGeometry.fit(imageWidth: 150, imageHeight: 97, width: 48, height: 48),
            try CropAndScaleGeometry.fit(imageWidth: 150, imageHeight: 97, width: 300, height: 300),
        ]
        for normalization in normalizations {
            for geometry in geometries {
                let expected = try normalization.tensor(from: [try image.rendered(geometry)])
                for threads in [1, 2, 3] {
                    XCTAssertEqual(try normalization.tensor(from: image, geometry: geometry, threads: threads), expected,
                                   "\(normalization.channelOrder) \(geometry) \(threads) threads")
                    XCTAssertEqual(try image.rendered(geometry, threads: threads), try image.rendered(geometry))
                }
            }
        }
        // A batch of two differently sized images fitted to one canvas.
        let other = try patternImage(width: 60, height: 80)
        let batch = try PixelNormalization.imageNet.tensor(
            from: [image, other],
            geometries: [geometries[0], try .centerCrop(imageWidth: 60, imageHeight: 80, width: 40, height: 40)])
        XCTAssertEqual(batch.shape, [2, 3, 40, 40])
        XCTAssertEqual(Array(batch.floats?.suffix(3 * 40 * 40) ?? []),
                       try PixelNormalization.imageNet.tensor(from: [try other.centerCropped(toWidth: 40, height: 40)]).floats)
    }

    func testBadGeometriesAreErrors() throws {
        let image = try patternImage(width: 30, height: 20)
        let geometry = try CropAndScaleGeometry.fill(imageWidth: 20, imageHeight: 20, width: 8, height: 8)
        assertFoveaError(.invalidArgument, messageContains: "20×20") { try image.rendered(geometry) }
        assertFoveaError(.invalidArgument) { try PixelNormalization.imageNet.tensor(from: image, geometry: geometry) }
        assertFoveaError(.invalidArgument) { try PixelNormalization.imageNet.tensor(from: [image], geometries: []) }
        let small = try CropAndScaleGeometry.fill(imageWidth: 30, imageHeight: 20, width: 4, height: 4)
        let large = try CropAndScaleGeometry.fill(imageWidth: 30, imageHeight: 20, width: 8, height: 8)
        assertFoveaError(.shapeMismatch) { try PixelNormalization.imageNet.tensor(from: [image, image], geometries: [small, large]) }
        assertFoveaError(.invalidArgument) { try CropAndScaleGeometry.centerCrop(imageWidth: 30, imageHeight: 20, width: 8, height: 8, cropFraction: 0) }
        assertFoveaError(.invalidImage) { try CropAndScaleGeometry.fit(imageWidth: 0, imageHeight: 20, width: 8, height: 8) }
        // Full resolution means no axis is enlarged.
        XCTAssertTrue(large.keepsFullResolution(forImageWidth: 8, height: 8))
        XCTAssertFalse(large.keepsFullResolution(forImageWidth: 7, height: 30))
        // A reduced geometry maps the same crop onto the smaller picture.
        let half = large.reduced(by: 2, imageWidth: 15, imageHeight: 10)
        XCTAssertEqual([half.sourceWidth, half.sourceHeight], [15, 10])
        XCTAssertEqual([half.scaledWidth, half.cropWidth, half.canvasWidth], [8, 8, 8])
        XCTAssertEqual(try patternImage(width: 15, height: 10).rendered(half).width, 8)
    }
}

/// How far the model's input from a reduced JPEG decode may be from the exact
/// crop of the full decode, in 8-bit levels over the 224×224 picture: on
/// average within one level, nowhere more than 32 (measured at 1/8: 0.27 and 26).
enum ReducedDecodingBounds {
    static let meanPixelDifference = 1.0
    static let maxPixelDifference = 32
}
