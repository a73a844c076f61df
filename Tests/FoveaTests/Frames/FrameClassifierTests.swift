import XCTest
import FoveaFrames
@_spi(Internals) @testable import Fovea

/// Drop-while-busy streaming: one classification at a time, a queue of one.
final class FrameClassifierTests: XCTestCase {
    private func results(of classifier: FrameClassifier) async -> [FrameClassification] {
        var collected: [FrameClassification] = []
        for await result in classifier.results { collected.append(result) }
        return collected
    }

    /// Frames offered faster than SqueezeNet runs: the first starts, the newest
    /// waits, the ones in between are dropped and counted; the last is never lost.
    func testFramesOfferedWhileBusyAreDroppedAndCounted() async throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        let classifier = try FrameClassifier(request: ClassificationRequest(model: model))
        let frame = try FrameTestSupport.photo("red_panda.jpg")
        var dispositions: [FrameClassifier.Disposition] = []
        for _ in 0..<30 { dispositions.append(try classifier.offer(frame)) }
        classifier.finish()
        XCTAssertThrowsError(try classifier.offer(frame), "no frames after finish()")
        let classified = await results(of: classifier)
        let counts = classifier.statistics
        XCTAssertEqual(dispositions.first, .started)
        XCTAssertEqual(counts.offered, 30)
        XCTAssertEqual(counts.classified, classified.count)
        XCTAssertEqual(counts.classified + counts.dropped, 30)
        XCTAssertEqual(counts.skipped, 0)
        XCTAssertGreaterThan(counts.dropped, 0, "30 offers in a loop outpace a SqueezeNet run")
        XCTAssertEqual(dispositions.filter { $0 == .waiting(replacedAnother: true) }.count, counts.dropped)
        XCTAssertEqual(classified.map(\.frameNumber), classified.map(\.frameNumber).sorted())
        XCTAssertEqual(classified.first?.frameNumber, 1)
        XCTAssertEqual(classified.last?.frameNumber, 30, "the newest frame is always classified")
        XCTAssertTrue(classified.allSatisfy { $0.error == nil && $0.observations.count == 1000 && $0.latency > 0 && $0.isStable == nil })
        XCTAssertEqual(classified.first?.observations.first?.identifier, "class 387")  // lesser panda; no labels given
        XCTAssertGreaterThan(counts.meanLatency, 0)
    }

    /// Gated on stability, frames are classified only once the scene holds still;
    /// every n-th frame only with classifyEvery.
    func testStableOnlyAndEveryNth() async throws {
        let request = try ClassificationRequest(model: TestImages.tinyModel())
        let photo = try FrameTestSupport.photo("coffee.png")
        // 10 frames panning 10 px per frame, then 25 still.
        let frames = try (0..<35).map { i in
            try FrameTestSupport.window(of: photo, x: 100 + 10 * Double(min(i, 9)), y: 100, width: 96, height: 72, noise: 2, seed: UInt64(i))
        }
        let gated = try FrameClassifier(request: request, stability: SceneStabilityDetector(), gate: .stableOnly)
        for frame in frames { try gated.offer(frame) }
        gated.finish()
        let stable = await results(of: gated)
        XCTAssertFalse(stable.isEmpty)
        // Translations of frames 2...10 are 10 px each: the last 15 must hold at most one (10 < 20), from frame 24 on.
        XCTAssertTrue(stable.allSatisfy { $0.isStable == true && $0.frameNumber >= 24 }, "\(stable.map(\.frameNumber))")
        XCTAssertEqual(gated.statistics.offered, 35)
        XCTAssertEqual(gated.statistics.skipped, 23)
        XCTAssertEqual(gated.statistics.classified + gated.statistics.dropped + gated.statistics.skipped, 35)

        let everyThird = try FrameClassifier(request: request, classifyEvery: 3)
        for frame in frames.prefix(10) { try everyThird.offer(frame) }
        everyThird.finish()
        let thirds = await results(of: everyThird)
        XCTAssertTrue(thirds.allSatisfy { ($0.frameNumber - 1) % 3 == 0 }, "\(thirds.map(\.frameNumber))")
        XCTAssertEqual(everyThird.statistics.skipped, 6)  // frames 1, 4, 7, 10 are candidates
        XCTAssertEqual(thirds.last?.frameNumber, 10)
    }

    func testBadOptionsAreRefused() throws {
        let request = try ClassificationRequest(model: TestImages.tinyModel())
        XCTAssertThrowsError(try FrameClassifier(request: request, classifyEvery: 0))
        XCTAssertThrowsError(try FrameClassifier(request: request, gate: .stableOnly)) { error in
            XCTAssertTrue("\(error)".contains("SceneStabilityDetector"))
        }
    }

    /// Barcodes found in a classified frame come with its result.
    func testBarcodesComeWithTheFrame() async throws {
        let image = try ImageRequestHandler(contentsOfFile: BarcodeTests.directory.appendingPathComponent("qr.png").path).image
        let classifier = try FrameClassifier(request: ClassificationRequest(model: TestImages.tinyModel()), barcodes: DetectBarcodesRequest())
        try classifier.offer(image)
        classifier.finish()
        let classified = await results(of: classifier)
        XCTAssertEqual(classified.first?.barcodes.first?.payloadStringValue, "https://fovea.example/item/42")
    }
}
