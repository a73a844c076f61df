import Foundation
import FoveaCore
import XCTest
@_spi(Internals) import Fovea

/// Requests are classes (reference semantics, as Vision's): every reference
/// sees one set of settings and one `results`; two requests are independent;
/// and a perform reads the settings once, when it starts.
final class RequestSemanticsTests: XCTestCase {
    private func tinyRequest() throws -> ClassificationRequest {
        try ClassificationRequest(model: TestImages.tinyModel(labels: ["a", "b", "c", "d", "e", "f"]))
    }

    func testEveryReferenceToARequestSharesItsSettingsAndResults() throws {
        let request = try tinyRequest()
        let alias = request
        alias.maximumObservations = 2
        alias.imageCropAndScaleOption = .scaleFit
        XCTAssertEqual(request.maximumObservations, 2)
        XCTAssertEqual(request.imageCropAndScaleOption, .scaleFit)
        let handler = ImageRequestHandler(image: try TestImages.gradient(width: 40, height: 30, seed: 3))
        let returned = try handler.performAndWait([alias])
        XCTAssertEqual(returned[0].count, 2)
        XCTAssertEqual(request.results, returned[0], "a perform of one reference fills in the other's results")
    }

    func testTwoRequestsOfOneModelAreIndependent() throws {
        let first = try tinyRequest()
        let second = try ClassificationRequest(model: first.model)
        first.maximumObservations = 1
        first.minimumConfidence = 0.5
        XCTAssertNil(second.maximumObservations)
        XCTAssertEqual(second.minimumConfidence, 0)
        let handler = ImageRequestHandler(image: try TestImages.gradient(width: 40, height: 30, seed: 5))
        XCTAssertEqual(try handler.performAndWait(second).count, 6)
        XCTAssertNil(first.results, "performing one request leaves the other's results alone")
        XCTAssertEqual(second.results?.count, 6)
    }

    func testAPerformUsesTheSettingsItStartedWith() async throws {
        // The gated model holds its second layer until the test opens it
        // (CancellationTests): the settings change while the perform is under way.
        let gate = CancellationTests.Gate(blockingNode: "relu1")
        let request = try ClassificationRequest(model: try CancellationTests.model(gate: gate))
        request.maximumObservations = 3
        let calls = Locked(0)
        request.completionHandler = { _, _ in calls.update { $0 += 1 } }
        let handler = ImageRequestHandler(image: try RGBImage(width: 2, height: 2, red: 200, green: 10, blue: 10))
        let running = Task { try await handler.perform(request) }
        while !gate.isHolding { try await Task.sleep(for: .milliseconds(1)) }
        request.maximumObservations = 1
        request.completionHandler = nil
        gate.open()
        let observations = try await running.value
        XCTAssertEqual(observations.count, 3, "the perform kept the maximum it started with")
        XCTAssertEqual(request.results?.count, 3)
        XCTAssertEqual(calls.value, 1, "the completion handler it started with was called")
        // The next perform reads the new settings (opened beforehand: the gate holds every run of relu1).
        gate.open()
        let next = try await handler.perform(request)
        XCTAssertEqual(next.count, 1)
        XCTAssertEqual(calls.value, 1, "no completion handler any more")
    }
}
