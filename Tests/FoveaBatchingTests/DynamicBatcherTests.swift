import Foundation
import FoveaBatching
import XCTest

/// The batcher's contract: every caller gets its own result, batches respect
/// their limits and compatibility, errors reach every caller of a batch,
/// shutdown drains the queue. Runs under ThreadSanitizer in scripts/ci/test.sh.
final class DynamicBatcherTests: XCTestCase {
    /// Records batch sizes from the worker thread.
    private final class Sizes: @unchecked Sendable {
        private let lock = NSLock()
        private var sizes: [Int] = []
        func append(_ size: Int) { lock.withLock { sizes.append(size) } }
        var all: [Int] { lock.withLock { sizes } }
    }

    /// A deterministic, input-dependent result (so a result handed to the wrong caller shows).
    private static func work(_ x: Int) -> Int { x &* 2_654_435_761 &+ 17 }

    func testSixteenConcurrentClientsTwoThousandRequestsEachGetTheirOwnResult() async throws {
        let sizes = Sizes()
        let batcher = DynamicBatcher<Int, Int>(
            configuration: .init(maxBatchSize: 8, maxQueueDelay: .microseconds(500)),
            compatible: { _, _ in true },
            run: { inputs in inputs.map(Self.work) },
            report: { sizes.append($0.size) })
        let results = try await withThrowingTaskGroup(of: [(Int, Int)].self) { group in
            for client in 0..<16 {
                group.addTask {
                    var answers: [(Int, Int)] = []
                    for request in 0..<125 {
                        let input = client * 1000 + request
                        answers.append((input, try await batcher.submit(input)))
                    }
                    return answers
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        XCTAssertEqual(results.count, 2000)
        XCTAssertEqual(Set(results.map(\.0)).count, 2000, "every request answered once")
        for (input, output) in results { XCTAssertEqual(output, Self.work(input)) }
        batcher.shutdown()
        XCTAssertEqual(sizes.all.reduce(0, +), 2000)
        XCTAssertLessThanOrEqual(sizes.all.max() ?? 0, 8)
    }

    func testAFullBatchRunsWithoutWaitingForTheDelay() async throws {
        let sizes = Sizes()
        // A delay far longer than the test: only a full batch can start the run.
        let batcher = DynamicBatcher<Int, Int>(
            configuration: .init(maxBatchSize: 4, maxQueueDelay: .seconds(3600)),
            compatible: { _, _ in true }, run: { $0.map { $0 + 1 } }, report: { sizes.append($0.size) })
        let outputs = try await withThrowingTaskGroup(of: Int.self) { group in
            for x in 0..<4 { group.addTask { try await batcher.submit(x) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(outputs.sorted(), [1, 2, 3, 4])
        XCTAssertEqual(sizes.all, [4])
        batcher.shutdown()
    }

    func testBatchSizeOneRunsEachInputAlone() async throws {
        let sizes = Sizes()
        let batcher = DynamicBatcher<Int, Int>(
            configuration: .init(maxBatchSize: 1, maxQueueDelay: .milliseconds(50)),
            compatible: { _, _ in true }, run: { $0 }, report: { sizes.append($0.size) })
        let outputs = try await withThrowingTaskGroup(of: Int.self) { group in
            for x in 0..<10 { group.addTask { try await batcher.submit(x) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(outputs.sorted(), Array(0..<10))
        batcher.shutdown()
        XCTAssertEqual(sizes.all, Array(repeating: 1, count: 10))
    }

    func testIncompatibleInputsNeverShareABatch() async throws {
        let batches = Batches()
        let batcher = DynamicBatcher<Int, Int>(
            configuration: .init(maxBatchSize: 2, maxQueueDelay: .seconds(3600)),
            compatible: { $0 % 2 == $1 % 2 }, run: { batches.append($0); return $0 })
        _ = try await withThrowingTaskGroup(of: Int.self) { group in
            for x in [1, 2, 3, 4] { group.addTask { try await batcher.submit(x) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        batcher.shutdown()
        XCTAssertEqual(batches.all.map { Set($0) }.sorted { $0.min()! < $1.min()! }, [[1, 3], [2, 4]])
    }

    private final class Batches: @unchecked Sendable {
        private let lock = NSLock()
        private var batches: [[Int]] = []
        func append(_ batch: [Int]) { lock.withLock { batches.append(batch) } }
        var all: [[Int]] { lock.withLock { batches } }
    }

    struct Failure: Error, Equatable {}

    func testARunErrorReachesEveryCallerOfTheBatch() async throws {
        let batcher = DynamicBatcher<Int, Int>(
            configuration: .init(maxBatchSize: 3, maxQueueDelay: .seconds(3600)),
            compatible: { _, _ in true }, run: { _ in throw Failure() })
        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for x in 0..<3 { group.addTask { do { _ = try await batcher.submit(x); return nil } catch { return error } } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(errors.count, 3)
        XCTAssertTrue(errors.allSatisfy { $0 is Failure })
        batcher.shutdown()
    }

    func testAWrongNumberOfResultsIsAnErrorNotAMixUp() async throws {
        let batcher = DynamicBatcher<Int, Int>(configuration: .init(maxBatchSize: 1), compatible: { _, _ in true }, run: { _ in [] })
        do {
            _ = try await batcher.submit(1)
            XCTFail("expected an error")
        } catch let error as DynamicBatcherError {
            XCTAssertEqual(error, .wrongResultCount(0, batchSize: 1))
        }
        batcher.shutdown()
    }

    func testShutdownRunsWhatIsQueuedThenRefusesNewInputs() async throws {
        let batcher = DynamicBatcher<Int, Int>(
            configuration: .init(maxBatchSize: 4, maxQueueDelay: .seconds(3600)),
            compatible: { _, _ in true }, run: { $0.map { $0 * 10 } })
        // One input, waiting for companions that never come: shutdown must still run it.
        let pending = Task { try await batcher.submit(7) }
        while batcher.queuedCount == 0 { await Task.yield() }
        batcher.shutdown()
        let value = try await pending.value
        XCTAssertEqual(value, 70)
        do {
            _ = try await batcher.submit(1)
            XCTFail("expected shutDown")
        } catch let error as DynamicBatcherError {
            XCTAssertEqual(error, .shutDown)
        }
    }

    func testAnInputQueuedPastTheTimeoutFails() async throws {
        let release = DispatchSemaphore(value: 0)
        let batcher = DynamicBatcher<Int, Int>(
            configuration: .init(maxBatchSize: 1, maxQueueDelay: .zero, timeout: .milliseconds(20)),
            compatible: { _, _ in true },
            run: { inputs in
                if inputs == [1] { release.wait() }  // the first run blocks the worker
                return inputs
            })
        let first = Task { try await batcher.submit(1) }
        while batcher.queuedCount > 0 || !batcher.isRunning { await Task.yield() }
        let second = Task { try await batcher.submit(2) }
        while batcher.queuedCount == 0 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(60))  // the second input's timeout passes while it waits
        release.signal()
        let firstValue = try await first.value
        XCTAssertEqual(firstValue, 1)
        do {
            _ = try await second.value
            XCTFail("expected timedOut")
        } catch let error as DynamicBatcherError {
            XCTAssertEqual(error, .timedOut(after: .milliseconds(20)))
        }
        batcher.shutdown()
    }
}
