import Foundation
import XCTest
@_spi(Internals) import Fovea
import FoveaTraining

/// Each augmentation is deterministic for a seed, changes the picture, and
/// keeps it a valid image.
final class ImageAugmentationTests: XCTestCase {
    /// A 24×16 gradient.
    private var image: RGBImage {
        get throws {
            var pixels: [UInt8] = []
            for y in 0..<16 { for x in 0..<24 { pixels += [UInt8(x * 10), UInt8(y * 15), UInt8((x + y) * 5)] } }
            return try RGBImage(width: 24, height: 16, pixels: pixels)
        }
    }

    func testEveryOptionIsSeededAndChangesThePicture() throws {
        for (name, option) in ImageAugmentation.named {
            let a = try ImageAugmentation.apply(option, to: try image, seed: 5)
            let b = try ImageAugmentation.apply(option, to: try image, seed: 5)
            XCTAssertEqual(a, b, name)
            XCTAssertNotEqual(a, try image, name)
            if option != .crop { XCTAssertEqual([a.width, a.height], [24, 16], name) }
        }
        XCTAssertNotEqual(try ImageAugmentation.apply(.noise, to: try image, seed: 5), try ImageAugmentation.apply(.noise, to: try image, seed: 6))
    }

    func testFlipMirrorsAndCropStaysInside() throws {
        let original = try image
        let flipped = try ImageAugmentation.apply(.flip, to: original, seed: 0)
        for y in 0..<16 { for x in 0..<24 { XCTAssertTrue(flipped.pixel(x: x, y: y)! == original.pixel(x: 23 - x, y: y)!) } }
        for seed in 0..<20 as Range<UInt64> {
            let crop = try ImageAugmentation.apply(.crop, to: try image, seed: seed)
            XCTAssertTrue((16...24).contains(crop.width) && (11...16).contains(crop.height), "\(crop.width)×\(crop.height)")
        }
    }

    func testOneOptionAtATime() throws {
        XCTAssertThrowsError(try ImageAugmentation.apply([.flip, .crop], to: try image, seed: 0))
        XCTAssertThrowsError(try ImageAugmentation.apply([], to: try image, seed: 0))
    }

    func testParsing() throws {
        XCTAssertEqual(try ImageAugmentation(parsing: "crop, rotate,flip"), [.crop, .rotation, .flip])
        XCTAssertEqual(try ImageAugmentation(parsing: "none"), [])
        XCTAssertEqual(try ImageAugmentation(parsing: "blur,exposure,noise").members.map(\.name), ["blur", "exposure", "noise"])
    }
}
