import XCTest
@testable import Fovea

/// The pipelined classifier's choice of inference threads beside its decoding thread.
final class PipelineThreadSplitTests: XCTestCase {
    func testSlowPreparationGivesTheDecoderACore() {
        var split = PipelineThreadSplit(threads: 2, samples: 4)
        // The first batch builds the plan: never measured, however slow.
        split.record(preparationSeconds: [0.001], inferenceSeconds: 0.5)
        XCTAssertEqual(split.inferenceThreads, 2)
        for _ in 0..<3 { split.record(preparationSeconds: [0.004], inferenceSeconds: 0.0035) }
        XCTAssertFalse(split.isSettled)
        XCTAssertEqual(split.inferenceThreads, 2)
        split.record(preparationSeconds: [0.004], inferenceSeconds: 0.0035)
        XCTAssertTrue(split.isSettled)
        XCTAssertEqual(split.inferenceThreads, 1)
    }

    func testFastPreparationKeepsEveryThread() {
        var split = PipelineThreadSplit(threads: 4, samples: 4)
        split.record(preparationSeconds: [0.004], inferenceSeconds: 0.2)
        for _ in 0..<4 { split.record(preparationSeconds: [0.004], inferenceSeconds: 0.044) }
        XCTAssertTrue(split.isSettled)
        XCTAssertEqual(split.inferenceThreads, 4)
        // Settled: later batches do not change it.
        for _ in 0..<10 { split.record(preparationSeconds: [0.1], inferenceSeconds: 0.001) }
        XCTAssertEqual(split.inferenceThreads, 4)
    }

    func testBatchesCountEveryImage() {
        var split = PipelineThreadSplit(threads: 2, samples: 8)
        split.record(preparationSeconds: [0.004, 0.004, 0.004, 0.004], inferenceSeconds: 1)
        // Two batches of four: eight images, 32 ms of preparation against 20 ms of inference.
        split.record(preparationSeconds: [0.004, 0.004, 0.004, 0.004], inferenceSeconds: 0.010)
        XCTAssertEqual(split.inferenceThreads, 2)
        split.record(preparationSeconds: [0.004, 0.004, 0.004, 0.004], inferenceSeconds: 0.010)
        XCTAssertEqual(split.inferenceThreads, 1)
    }

    func testOneThreadHasNothingToSplit() {
        var split = PipelineThreadSplit(threads: 1)
        XCTAssertTrue(split.isSettled)
        for _ in 0..<8 { split.record(preparationSeconds: [1], inferenceSeconds: 0.001) }
        XCTAssertEqual(split.inferenceThreads, 1)
    }
}
