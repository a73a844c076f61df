import Foundation
import XCTest
import FoveaCore
@testable import FoveaImage

/// Issue 11: a centre crop resamples only the crop, so memory follows the
/// output (224×224), not the scaled image, which for a 1×1170 picture would
/// be 224×262080 pixels.
final class CroppedResamplingTests: XCTestCase {
    func testACroppedResizeIsTheCropOfTheResize() throws {
        var generator = SeededGenerator(seed: 17)
        for _ in 0..<60 {
            let width = Int.random(in: 1...40, using: &generator), height = Int.random(in: 1...40, using: &generator)
            let image = try patternImage(width: width, height: height)
            // Shrinking, enlarging and keeping each axis.
            let newWidth = [1, width, Int.random(in: 1...90, using: &generator)][Int.random(in: 0...2, using: &generator)]
            let newHeight = [1, height, Int.random(in: 1...90, using: &generator)][Int.random(in: 0...2, using: &generator)]
            let cropWidth = Int.random(in: 1...newWidth, using: &generator), cropHeight = Int.random(in: 1...newHeight, using: &generator)
            let x = Int.random(in: 0...(newWidth - cropWidth), using: &generator)
            let y = Int.random(in: 0...(newHeight - cropHeight), using: &generator)
            let whole = try image.resized(width: newWidth, height: newHeight).cropped(x: x, y: y, width: cropWidth, height: cropHeight)
            let region = try image.resized(width: newWidth, height: newHeight, croppedTo: x, y, width: cropWidth, height: cropHeight)
            XCTAssertEqual(region, whole, "\(width)×\(height) → \(newWidth)×\(newHeight), crop \(cropWidth)×\(cropHeight) at (\(x), \(y))")
        }
        XCTAssertThrowsError(try patternImage(width: 4, height: 4).resized(width: 8, height: 8, croppedTo: 5, 0, width: 4, height: 4))
    }

    func testCentreCropsAreUnchangedForExtremeAspectRatios() throws {
        // Resize-then-crop as before, against the cropped resampling now used.
        for (width, height, fraction) in [(3, 90, 1.0), (90, 3, 0.875), (1, 60, 1.0), (60, 1, 0.875), (7, 5, 1.0)] {
            let image = try patternImage(width: width, height: height)
            let scaled = try image.resizedShorterSide(to: Int((224 / fraction).rounded()))
            let before = try scaled.centerCropped(width: 224, height: 224)
            XCTAssertEqual(try image.centerCropped(toWidth: 224, height: 224, cropFraction: fraction), before, "\(width)×\(height)")
        }
        // Non-square target: aspect fill, then the centre.
        let image = try patternImage(width: 2, height: 150)
        XCTAssertEqual(try image.centerCropped(toWidth: 96, height: 64),
                       try image.resized(width: 96, height: 7200).centerCropped(width: 96, height: 64))
    }

    func testAThinImageCostsOnlyItsCrop() throws {
        // 1×1170 (the 87-byte PNG of the issue) → 224×262080 scaled; 1×100000 would be 22.4 gigapixels.
        for height in [1170, 100_000] {
            let image = try RGBImage(width: 1, height: height, red: 10, green: 20, blue: 30)
            let start = Date()
            let crop = try image.centerCropped(toWidth: 224, height: 224)
            XCTAssertLessThan(Date().timeIntervalSince(start), 0.5)
            XCTAssertEqual(crop.width, 224)
            XCTAssertEqual(crop.pixel(x: 100, y: 100)?.green, 20)
        }
    }
}
