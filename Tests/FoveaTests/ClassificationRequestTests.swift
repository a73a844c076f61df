import FoveaImage
import XCTest
@_spi(Internals) @testable import Fovea

/// The request API on the real SqueezeNet 1.1 and the four photos.
final class ClassificationRequestTests: XCTestCase {
    /// SqueezeNet 1.1 as its sidecar would describe it: ImageNet mean/std, crop fraction 0.875, labels.
    static func squeezeNet() throws -> Model {
        try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx")).describing {
            $0.classLabels = try ClassLabels(contentsOfFile: TestData.model("labels1000.txt"))
            $0.imageInput?.cropFraction = 0.875
            $0.outputKind = .logits
        }
    }

    private func expectedTop1(_ photoFile: String) throws -> String {
        try XCTUnwrap(TestData.expectedTop5()[photoFile]?["squeezenet1.1"]?.first?.label, photoFile)
    }

    func testFourPhotosGiveTheExpectedTop1WithCentreCropAndFraction0875() throws {
        let model = try Self.squeezeNet()
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = 5
        for file in ["red_panda.jpg", "chelsea_cat.png", "coffee.png", "rocket.jpg"] {
            let handler = try ImageRequestHandler(contentsOfFile: TestData.photo(file))
            XCTAssertEqual(handler.orientation, .up, file)
            let observations = try handler.performAndWait(request)
            XCTAssertEqual(observations.count, 5, file)
            XCTAssertEqual(observations.first?.identifier, try expectedTop1(file), file)
            XCTAssertEqual(observations.map(\.confidence), observations.map(\.confidence).sorted(by: >), file)
        }
    }

    func testThePreparedPictureIsTheShared224Crop() throws {
        // expected_top5.json and the .224.ppm crops were made with shorter side 256 + centre 224.
        let request = try ClassificationRequest(model: try Self.squeezeNet())
        for photo in ["red_panda.jpg", "coffee.png"] {
            let handler = try ImageRequestHandler(contentsOfFile: TestData.photo(photo))
            let prepared = try request.preparedImage(for: handler.image)
            let reference = try ImageDecoder.decode(contentsOf: TestData.photo(photo.split(separator: ".")[0] + ".224.ppm"))
            XCTAssertEqual(prepared.width, 224)
            let maxDifference = zip(prepared.pixels, reference.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(maxDifference, 1, photo)
        }
    }

    func testAllEightEXIFOrientationsGiveTheUprightTop1() throws {
        let model = try Self.squeezeNet()
        let request = try ClassificationRequest(model: model)
        let upright = try ImageDecoder.decode(contentsOf: TestData.photo("rocket.jpg"))
        let expected = try expectedTop1("rocket.jpg")
        for orientation in ImageOrientation.allCases {
            // Store the pixels so that applying `orientation` shows the upright photo.
            let stored = upright.oriented(orientation.inverse)
            let jpeg = TestImages.insertingEXIF(orientation: UInt16(orientation.rawValue), into: try ImageEncoder.jpeg(stored, quality: 95),
                                                littleEndian: orientation.rawValue % 2 == 0)
            XCTAssertEqual(EXIFOrientation.read(from: jpeg), orientation)
            let handler = try ImageRequestHandler(data: jpeg, source: "rocket-\(orientation.name).jpg")
            XCTAssertEqual(handler.orientation, orientation)
            XCTAssertEqual(try handler.image.width, upright.width, "\(orientation)")
            XCTAssertEqual(try handler.image.height, upright.height, "\(orientation)")
            XCTAssertEqual(try handler.performAndWait(request).first?.identifier, expected, "\(orientation)")
        }
    }

    func testExplicitOrientationOverridesEXIF() throws {
        let upright = try ImageDecoder.decode(contentsOf: TestData.photo("red_panda.jpg"))
        let jpeg = TestImages.insertingEXIF(orientation: 6, into: try ImageEncoder.jpeg(upright, quality: 90))
        let handler = try ImageRequestHandler(data: jpeg, orientation: .up)
        XCTAssertEqual(handler.orientation, .up)
        XCTAssertEqual(try handler.image.width, upright.width)
        XCTAssertEqual(try ImageRequestHandler(data: jpeg).image.width, upright.height)
    }

    func testSeveralRequestsOnOneHandlerAndTheAsyncAPI() async throws {
        let model = try Self.squeezeNet()
        let top3 = try ClassificationRequest(model: model)
        top3.maximumObservations = 3
        let fill = try ClassificationRequest(model: model)
        fill.imageCropAndScaleOption = .scaleFill
        fill.maximumObservations = 1
        let sure = try ClassificationRequest(model: model)
        sure.minimumConfidence = 0.5
        let handler = try ImageRequestHandler(contentsOf: URL(fileURLWithPath: TestData.photo("red_panda.jpg")))
        let results = try await handler.perform([top3, fill, sure])
        XCTAssertEqual(results.count, 3)
        XCTAssertEqual(results[0].count, 3)
        XCTAssertEqual(results[1].count, 1)
        XCTAssertEqual(results[2].count, 1, "only the panda is above 50%")
        XCTAssertTrue(results.allSatisfy { $0.first?.identifier.hasPrefix("lesser panda") ?? false })
        let single = try await handler.perform(top3)
        XCTAssertEqual(single, results[0])
    }

    func testBestBelowMinimumConfidenceGivesNoObservations() throws {
        let request = try ClassificationRequest(model: try Self.squeezeNet())
        request.minimumConfidence = 0.9
        // The cat photo's best class is 50%: "not sure".
        XCTAssertEqual(try ImageRequestHandler(contentsOfFile: TestData.photo("chelsea_cat.png")).performAndWait(request), [])
    }
}
