import Foundation
import XCTest
@testable import Fovea

/// Issue 15, part 5: what Vision and Core ML users reach for — URL initializers,
/// `request.results`, typed backend names.
final class VisionParityAPITests: XCTestCase {
    private let squeezeNet = URL(fileURLWithPath: TestData.model("squeezenet1.1.onnx"))

    // MARK: URL initializers

    func testModelAndHandlerAndLabelsLoadFromFileURLs() throws {
        let model = try Model(contentsOf: squeezeNet).describing { $0.classLabels = try ClassLabels(contentsOf: URL(fileURLWithPath: TestData.model("labels1000.txt"))) }
        XCTAssertEqual(model.path, squeezeNet.path)
        XCTAssertEqual(model.graph.nodes.count, try Model(contentsOf: squeezeNet.path).graph.nodes.count)
        var request = try ClassificationRequest(model: model)
        request.maximumObservations = 1
        let photo = URL(fileURLWithPath: TestData.photo("red_panda.jpg"))
        for handler in [try ImageRequestHandler(url: photo), try ImageRequestHandler(contentsOf: photo)] {
            XCTAssertEqual(handler.source, photo.path)
            XCTAssertEqual(try handler.perform(request).first?.identifier.hasPrefix("lesser panda"), true)
        }
    }

    func testNonFileURLsAndMissingFilesAreTypedErrors() throws {
        let remote = try XCTUnwrap(URL(string: "https://example.com/squeezenet1.1.onnx"))
        XCTAssertThrowsError(try Model(contentsOf: remote)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
            XCTAssertTrue("\(error)".contains("only file URLs"), "\(error)")
            XCTAssertTrue("\(error)".contains("https://example.com/squeezenet1.1.onnx"), "\(error)")
        }
        XCTAssertThrowsError(try ImageRequestHandler(contentsOf: remote)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
        }
        let missing = URL(fileURLWithPath: "/nonexistent/model.onnx")
        XCTAssertThrowsError(try Model(contentsOf: missing)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .io)
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/model.onnx"), "\(error)")
        }
    }

    func testURLHandlerHonoursItsPixelLimit() throws {
        let photo = URL(fileURLWithPath: TestData.photo("red_panda.jpg"))
        XCTAssertThrowsError(try ImageRequestHandler(url: photo, limits: ImageDecodingLimits(maxPixelCount: 1000))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .limitExceeded, "\(error)")
        }
    }
}
