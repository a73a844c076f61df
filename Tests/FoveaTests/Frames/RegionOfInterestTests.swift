import FoveaImage
import XCTest
import FoveaFrames
@_spi(Internals) @testable import Fovea

/// `regionOfInterest`: normalized, origin at the lower left, cropped before crop-and-scale.
final class RegionOfInterestTests: XCTestCase {
    /// Red is the column, green the row: where a pixel came from can be read back.
    private func coordinates(width: Int, height: Int) throws -> RGBImage {
        try RGBImage(width: width, height: height,
                     pixels: (0..<height).flatMap { row in (0..<width).flatMap { column in [UInt8(column), UInt8(row), 7] } })
    }

    func testPixelRectanglesFlipYAndRoundEdges() throws {
        let image = try coordinates(width: 40, height: 20)
        XCTAssertTrue(try image.pixelRect(ofNormalizedRegion: 0, 0, 1, 1) == (0, 0, 40, 20))
        // The lower-left quarter is rows 10..<20 (rows count from the top).
        XCTAssertTrue(try image.pixelRect(ofNormalizedRegion: 0, 0, 0.5, 0.5) == (0, 10, 20, 10))
        // The top-right quarter.
        XCTAssertTrue(try image.pixelRect(ofNormalizedRegion: 0.5, 0.5, 0.5, 0.5) == (20, 0, 20, 10))
        // Edges round to the nearest pixel boundary: x 0.26 × 40 = 10.4 -> 10, right 0.26 + 0.3 = 0.56 × 40 = 22.4 -> 22;
        // top 1 - (0.1 + 0.33) = 0.57 × 20 = 11.4 -> 11, bottom 0.9 × 20 = 18.
        XCTAssertTrue(try image.pixelRect(ofNormalizedRegion: 0.26, 0.1, 0.3, 0.33) == (10, 11, 12, 7))
        // A region thinner than a pixel still keeps one.
        XCTAssertTrue(try image.pixelRect(ofNormalizedRegion: 0.999, 0, 0.001, 0.001) == (39, 19, 1, 1))
    }

    func testCroppedRegionHoldsTheRightPixels() throws {
        let image = try coordinates(width: 40, height: 20)
        let crop = try image.cropped(toNormalizedRegion: 0.25, 0.5, 0.5, 0.25)  // columns 10..<30, rows 5..<10
        XCTAssertEqual([crop.width, crop.height], [20, 5])
        XCTAssertEqual(crop.pixel(x: 0, y: 0)?.red, 10)
        XCTAssertEqual(crop.pixel(x: 0, y: 0)?.green, 5)
        XCTAssertEqual(crop.pixel(x: 19, y: 4)?.red, 29)
        XCTAssertEqual(crop.pixel(x: 19, y: 4)?.green, 9)
    }

    func testBadRegionsAreRefused() throws {
        let image = try coordinates(width: 40, height: 20)
        for (x, y, w, h) in [(0.0, 0.0, 0.0, 1.0), (-0.1, 0.0, 0.5, 0.5), (0.6, 0.0, 0.5, 0.5), (0.0, 0.0, .nan, 1.0), (0.0, 0.9, 1.0, 0.2)] {
            XCTAssertThrowsError(try image.cropped(toNormalizedRegion: x, y, w, h)) { error in
                XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument, "\(x) \(y) \(w) \(h)")
            }
        }
    }

    /// The crop-and-scale option applies inside the region: a centre crop of the
    /// region is exactly the centre crop of the cropped image.
    func testClassificationRequestPreparesTheRegionThenCropsAndScales() throws {
        let request = try ClassificationRequest(model: TestImages.tinyModel())  // 16×16 input
        let image = try coordinates(width: 64, height: 48)
        request.regionOfInterest = CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5)  // lower right: columns 32..<64, rows 24..<48
        let region = try image.cropped(x: 32, y: 24, width: 32, height: 24)
        for option in ImageCropAndScaleOption.allCases {
            request.imageCropAndScaleOption = option
            XCTAssertEqual(try request.preparedImage(for: image), try option.apply(to: region, width: 16, height: 16), "\(option)")
        }
        // scaleFill of a region exactly 16×16 is the region itself.
        request.imageCropAndScaleOption = .scaleFill
        request.regionOfInterest = CGRect(x: 0.25, y: 0.5, width: 0.25, height: 1.0 / 3)  // columns 16..<32, rows 8..<24
        let prepared = try request.preparedImage(for: image)
        XCTAssertEqual(prepared, try image.cropped(x: 16, y: 8, width: 16, height: 16))
        XCTAssertEqual(prepared.pixel(x: 0, y: 0)?.red, 16)
        XCTAssertEqual(prepared.pixel(x: 0, y: 0)?.green, 8)
        // The default region is the whole image.
        XCTAssertEqual(try ClassificationRequest(model: TestImages.tinyModel()).preparedImage(for: image),
                       try ImageCropAndScaleOption.centerCrop.apply(to: image, width: 16, height: 16))
    }

    /// `fovea classify --roi`: the same top class as classifying the cropped picture.
    func testClassifyCommandTakesARegion() throws {
        let model = TestData.model("squeezenet1.1.onnx")
        let photo = TestData.photo("coffee.png")
        let withROI = try TestData.runFovea(["classify", "--model", model, "--labels", "imagenet", "--top", "1", "--json", "--roi", "0.25,0.2,0.5,0.6", photo])
        XCTAssertEqual(withROI.status, 0, withROI.stderr)
        let directory = try TestData.temporaryDirectory()
        let cropped = directory.appendingPathComponent("cropped.png").path
        let image = try ImageRequestHandler(contentsOfFile: photo).image
        try ImageEncoder.encode(try image.cropped(toNormalizedRegion: 0.25, 0.2, 0.5, 0.6), forPath: cropped).write(to: URL(fileURLWithPath: cropped))
        let plain = try TestData.runFovea(["classify", "--model", model, "--labels", "imagenet", "--top", "1", "--json", cropped])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        func top(_ json: String) throws -> (String, Double) {
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            let results = try XCTUnwrap(object["results"] as? [[String: Any]])
            let first = try XCTUnwrap((results.first?["observations"] as? [[String: Any]])?.first)
            return (try XCTUnwrap(first["identifier"] as? String), try XCTUnwrap(first["confidence"] as? Double))
        }
        let (roiLabel, roiConfidence) = try top(withROI.stdout), (cropLabel, cropConfidence) = try top(plain.stdout)
        XCTAssertEqual(roiLabel, cropLabel)
        XCTAssertEqual(roiConfidence, cropConfidence, accuracy: 1e-6)
        let bad = try TestData.runFovea(["classify", "--model", model, "--roi", "0.5,0.5,0.8,0.2", photo])
        XCTAssertEqual(bad.status, 64, bad.stderr)
    }
}
