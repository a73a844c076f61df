import Foundation
import XCTest
import FoveaKernelsBackend
@_spi(Internals) @testable import Fovea

/// Issue 15, part 5: what Vision and Core ML users reach for — URL initializers,
/// `request.results`, typed backend names.
final class VisionParityAPITests: XCTestCase {
    private let squeezeNet = URL(fileURLWithPath: TestData.model("squeezenet1.1.onnx"))

    // MARK: URL initializers

    func testModelAndHandlerAndLabelsLoadFromFileURLs() throws {
        let model = try Model(contentsOf: squeezeNet).describing { $0.classLabels = try ClassLabels(contentsOf: URL(fileURLWithPath: TestData.model("labels1000.txt"))) }
        XCTAssertEqual(model.path, squeezeNet.path)
        XCTAssertEqual(model.graph.nodes.count, try Model(contentsOfFile: squeezeNet.path).graph.nodes.count)
        let request = try ClassificationRequest(model: model)
        request.maximumObservations = 1
        let photo = URL(fileURLWithPath: TestData.photo("red_panda.jpg"))
        for handler in [try ImageRequestHandler(contentsOf: photo), try ImageRequestHandler(contentsOfFile: photo.path)] {
            XCTAssertEqual(handler.source, photo.path)
            XCTAssertEqual(try handler.performAndWait(request).first?.identifier.hasPrefix("lesser panda"), true)
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
        XCTAssertThrowsError(try ImageRequestHandler(contentsOf: photo, limits: ImageDecodingLimits(maxPixelCount: 1000))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .limitExceeded, "\(error)")
        }
    }

    // MARK: request.results

    func testResultsAfterPerformingSeveralRequests() throws {
        let model = try Model(contentsOf: squeezeNet).describing { $0.classLabels = try .imageNet1k }
        let top1 = try ClassificationRequest(model: model)
        top1.maximumObservations = 1
        let top3 = try ClassificationRequest(model: model)
        top3.maximumObservations = 3
        XCTAssertNil(top1.results, "no results before the first perform")
        let handler = try ImageRequestHandler(contentsOfFile: TestData.photo("coffee.png"))
        let returned = try handler.performAndWait([top1, top3])
        XCTAssertEqual(top1.results, returned[0])
        XCTAssertEqual(top3.results, returned[1])
        XCTAssertEqual(top1.results?.map(\.identifier), ["espresso"])
        XCTAssertEqual(top3.results?.count, 3)
        // The next perform replaces them.
        _ = try ImageRequestHandler(contentsOfFile: TestData.photo("red_panda.jpg")).performAndWait(top1)
        XCTAssertEqual(top1.results?.first?.identifier.hasPrefix("lesser panda"), true)
        XCTAssertEqual(top3.results?.count, 3, "another request's results are its own")
    }

    func testResultsAfterAnAsyncPerform() async throws {
        let request = try ClassificationRequest(model: try Model(contentsOf: squeezeNet))
        request.maximumObservations = 2
        let handler = try ImageRequestHandler(contentsOfFile: TestData.photo("red_panda.jpg"))
        let returned = try await handler.perform([request])
        XCTAssertEqual(request.results, returned[0])
        XCTAssertEqual(request.results?.first?.identifier, "class 387")
    }

    func testEveryRequestGetsResultsEvenWhenAnotherFails() throws {
        let model = try Model(contentsOf: squeezeNet)
        let ok = try ClassificationRequest(model: model)
        // A description that feeds SqueezeNet 2×2 pictures: its first convolution has no output.
        let failing = try ClassificationRequest(model: model.describing { $0.imageInput?.width = 2; $0.imageInput?.height = 2 })
        let handler = try ImageRequestHandler(contentsOfFile: TestData.photo("red_panda.jpg"))
        XCTAssertThrowsError(try handler.performAndWait([failing, ok])) { error in
            XCTAssertTrue(error is FoveaError, "\(error)")
        }
        XCTAssertNil(failing.results, "a failed perform has no results")
        XCTAssertEqual(ok.results?.first?.identifier, "class 387", "the request after the failed one still ran")
        XCTAssertEqual(ok.results?.count, 1000)
    }

    // MARK: typed backend names

    func testTypedBackendNamesSelectTheSameBackendsAsStrings() throws {
        XCTAssertEqual([BackendName.kernels, .simd, .blas, .reference].map(\.rawValue), ["kernels", "simd", "blas", "reference"])
        // The C kernels first where they have vector code for this CPU, else the portable backend.
        let fastest: [BackendName] = KernelsBackend.vectorISA != nil ? [.kernels, .simd] : [.simd, .kernels]
        XCTAssertEqual(BackendRegistry.standard.backendNames, fastest + [.blas, .reference])
        XCTAssertEqual(BackendRegistry.standard.names, BackendRegistry.standard.backendNames.map(\.rawValue))
        let typed = ModelConfiguration(backends: [.simd], threads: 1)
        XCTAssertEqual(typed.backends, ["simd"])
        XCTAssertEqual(typed.backendNames, [.simd])
        var strings = ModelConfiguration(backends: ["reference"])
        XCTAssertEqual(strings.backendNames, [BackendName("reference")])
        strings.backendNames = [.blas, "simd"]
        XCTAssertEqual(strings.backends, ["blas", "simd"])
        let model = try Model(contentsOf: squeezeNet, configuration: typed)
        let used = Set(try model.plan().assignments.map(\.backend))
        XCTAssertEqual(used, ["simd"], "every SqueezeNet node runs on the one backend asked for")
    }

    func testAnUnknownTypedNameIsTheSameErrorAsAnUnknownString() throws {
        XCTAssertThrowsError(try BackendRegistry.standard.backends(named: [BackendName("gpu")])) { error in
            XCTAssertEqual("\(error)", "unknown backend 'gpu' (available: kernels, simd, blas, reference)")
        }
        XCTAssertThrowsError(try Model(contentsOf: squeezeNet, configuration: ModelConfiguration(backends: ["gpu" as BackendName]))) { error in
            XCTAssertTrue("\(error)".contains("unknown backend 'gpu'"), "\(error)")
        }
    }
}
