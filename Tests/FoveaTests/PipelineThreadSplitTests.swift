import XCTest
@_spi(Internals) @testable import Fovea

/// The pipelined classifier's choice of inference threads beside its decoding
/// thread: measured in alternating windows, the faster kept.
final class PipelineThreadSplitTests: XCTestCase {
    /// Records `count` steps of `images` images taking `seconds` each, and
    /// returns the thread counts the steps ran on.
    private func run(_ split: inout PipelineThreadSplit, steps count: Int, images: Int = 1,
                     seconds: (_ threads: Int) -> Double) -> [Int] {
        (0..<count).map { _ in
            let threads = split.inferenceThreads
            split.record(images: images, seconds: seconds(threads))
            return threads
        }
    }

    func testWindowsAlternateAfterThePlanBuildingStep() {
        var split = PipelineThreadSplit(threads: 2, measuredBatches: 2, warmUpBatches: 1, rounds: 2)
        let used = run(&split, steps: 1 + 4 * 3) { _ in 0.01 }
        // The first step builds the plan; then windows of 3 steps: 2, 1, 2, 1.
        XCTAssertEqual(used, [2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 1, 1, 1])
        XCTAssertTrue(split.isSettled)
    }

    func testKeepsOneThreadFewerWhenThatIsFaster() {
        var split = PipelineThreadSplit(threads: 2, measuredBatches: 2, warmUpBatches: 1, rounds: 2)
        // Every thread: 11 ms a step (the decoder holds up the barriers); one fewer: 8 ms.
        _ = run(&split, steps: 1 + 12) { $0 == 2 ? 0.011 : 0.008 }
        XCTAssertTrue(split.isSettled)
        XCTAssertEqual(split.inferenceThreads, 1)
        // Settled: later steps do not change it, however they go.
        XCTAssertEqual(Set(run(&split, steps: 20) { $0 == 2 ? 0.001 : 1 }), [1])
        XCTAssertEqual(split.inferenceThreads, 1)
    }

    func testKeepsEveryThreadWhenThatIsFaster() {
        var split = PipelineThreadSplit(threads: 4, measuredBatches: 2, warmUpBatches: 1, rounds: 2)
        // A large model: three threads beside the decoder are slower than four.
        let used = run(&split, steps: 1 + 12) { $0 == 4 ? 0.100 : 0.130 }
        XCTAssertEqual(Set(used), [3, 4])
        XCTAssertTrue(split.isSettled)
        XCTAssertEqual(split.inferenceThreads, 4)
    }

    func testTheFirstStepAndTheWarmUpStepsAreNotCounted() {
        var split = PipelineThreadSplit(threads: 2, measuredBatches: 2, warmUpBatches: 1, rounds: 2)
        // The plan-building step is slow; so is the first step of each window with
        // one thread fewer (the queue the other left behind is empty). Counted,
        // they would make one thread fewer look slower; not counted, it is faster.
        var step = 0
        _ = run(&split, steps: 1 + 12) { threads in
            defer { step += 1 }
            if step == 0 { return 1 }
            let isWarmUp = (step - 1) % 3 == 0
            return threads == 2 ? 0.011 : (isWarmUp ? 0.5 : 0.008)
        }
        XCTAssertEqual(split.inferenceThreads, 1)
    }

    func testRatesCountImagesNotBatches() {
        var split = PipelineThreadSplit(threads: 2, measuredBatches: 2, warmUpBatches: 1, rounds: 2)
        // Batches of 4 images: every thread takes 40 ms a batch (100 images/s),
        // one fewer 36 ms (111 images/s).
        _ = run(&split, steps: 1 + 12, images: 4) { $0 == 2 ? 0.040 : 0.036 }
        XCTAssertEqual(split.inferenceThreads, 1)
    }

    func testATieKeepsEveryThread() {
        var split = PipelineThreadSplit(threads: 2, measuredBatches: 2, warmUpBatches: 1, rounds: 1)
        _ = run(&split, steps: 1 + 6) { _ in 0.01 }
        XCTAssertTrue(split.isSettled)
        XCTAssertEqual(split.inferenceThreads, 2)
    }

    func testOneThreadHasNothingToSplit() {
        var split = PipelineThreadSplit(threads: 1)
        XCTAssertTrue(split.isSettled)
        XCTAssertEqual(Set(run(&split, steps: 40) { _ in 0.01 }), [1])
    }

    func testFewerImagesThanTheWindowsLeaveItUnsettled() {
        var split = PipelineThreadSplit(threads: 2)
        let used = run(&split, steps: 10) { _ in 0.01 }
        XCTAssertFalse(split.isSettled)
        // Default windows: 2 warm-up and 6 counted steps, every thread first.
        XCTAssertEqual(used, [2, 2, 2, 2, 2, 2, 2, 2, 2, 1])
    }
}
