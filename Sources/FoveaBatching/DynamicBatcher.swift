import Foundation

/// Triton-style dynamic batching: callers submit one input each; a worker
/// thread takes the oldest waiting input, gathers more compatible ones until it
/// has `maxBatchSize` or the oldest has waited `maxQueueDelay`, runs them as one
/// batch, and hands each caller its own result.
///
/// Inference runs on the batcher's own thread, never on Swift's cooperative
/// pool, so a long batch does not stall the HTTP and gRPC tasks. With
/// `maxBatchSize` 1 it is a plain queue: one input per run, in arrival order.
/// Call ``shutdown()`` when done: it stops the worker thread.
///
/// `fovea-serve` batches each model's requests with it; it has no
/// dependencies, so its concurrency tests run under ThreadSanitizer with the
/// root package's.
public final class DynamicBatcher<Input: Sendable, Output: Sendable>: @unchecked Sendable {
    // @unchecked: `queue`, `stopping` and `running` are only touched while holding `condition`.

    /// Limits of one batch and of one wait.
    public struct Configuration: Sendable, Equatable {
        /// The most inputs run together; 1 turns batching off.
        public var maxBatchSize: Int
        /// How long the oldest input may wait for others to join its batch.
        public var maxQueueDelay: Duration
        /// An input still queued this long after it arrived fails with `.timeout`; `nil`: no limit.
        public var timeout: Duration?

        /// Creates a configuration; `maxBatchSize` below 1 counts as 1.
        public init(maxBatchSize: Int = 8, maxQueueDelay: Duration = .milliseconds(2), timeout: Duration? = nil) {
            self.maxBatchSize = max(1, maxBatchSize)
            self.maxQueueDelay = maxQueueDelay
            self.timeout = timeout
        }
    }

    /// What one run looked like, for metrics.
    public struct BatchReport: Sendable {
        /// How many inputs ran together.
        public var size: Int
        /// Each input's time in the queue, from submit to the start of its run.
        public var queueTimes: [Duration]
        /// How long `run` took for the whole batch.
        public var computeTime: Duration
    }

    private struct Job {
        let input: Input
        let arrival: ContinuousClock.Instant
        let continuation: CheckedContinuation<Output, any Error>
    }

    /// The batch size, queue delay and timeout this batcher was created with.
    public let configuration: Configuration
    private let compatible: @Sendable (Input, Input) -> Bool
    private let run: @Sendable ([Input]) throws -> [Output]
    private let report: @Sendable (BatchReport) -> Void
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var stopping = false
    private var running = false
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - compatible: whether two inputs may share a batch (same shapes).
    ///   - run: runs a batch; returns one output per input, in order.
    ///   - report: called after every run, on the worker thread, before the callers get their results.
    public init(configuration: Configuration, compatible: @escaping @Sendable (Input, Input) -> Bool,
                run: @escaping @Sendable ([Input]) throws -> [Output],
                report: @escaping @Sendable (BatchReport) -> Void = { _ in }) {
        self.configuration = configuration
        self.compatible = compatible
        self.run = run
        self.report = report
        // The worker holds the batcher until shutdown() ends its loop.
        let thread = Thread { [self] in self.workLoop() }
        thread.name = "fovea-batcher"
        thread.start()
    }

    /// Inputs waiting for a run.
    public var queuedCount: Int { condition.withLock { queue.count } }

    /// Whether a batch is running now.
    public var isRunning: Bool { condition.withLock { running } }

    /// Queues `input` and returns its output once its batch has run.
    ///
    /// - Throws: ``DynamicBatcherError/shutDown`` after ``shutdown()``,
    ///   ``DynamicBatcherError/timedOut(after:)`` when the input waited longer
    ///   than ``Configuration/timeout``, or what `run` threw.
    public func submit(_ input: Input) async throws -> Output {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            if stopping {
                condition.unlock()
                continuation.resume(throwing: DynamicBatcherError.shutDown)
                return
            }
            queue.append(Job(input: input, arrival: .now, continuation: continuation))
            condition.signal()
            condition.unlock()
        }
    }

    /// Runs what is queued, then stops the worker; later submits fail with ``DynamicBatcherError/shutDown``.
    public func shutdown() {
        condition.lock()
        let wasStopping = stopping
        stopping = true
        condition.signal()
        condition.unlock()
        if !wasStopping { finished.wait() }
    }

    private func workLoop() {
        while let batch = nextBatch() {
            let start = ContinuousClock.now
            let result = Result { try run(batch.map(\.input)) }
            let computeTime = ContinuousClock.now - start
            condition.withLock { running = false }
            // Reported before the callers resume, so that a caller sees its own run counted.
            report(BatchReport(size: batch.count, queueTimes: batch.map { start - $0.arrival }, computeTime: computeTime))
            switch result {
            case .success(let outputs) where outputs.count == batch.count:
                for (job, output) in zip(batch, outputs) { job.continuation.resume(returning: output) }
            case .success(let outputs):
                let error = DynamicBatcherError.wrongResultCount(outputs.count, batchSize: batch.count)
                batch.forEach { $0.continuation.resume(throwing: error) }
            case .failure(let error):
                batch.forEach { $0.continuation.resume(throwing: error) }
            }
        }
        finished.signal()
    }

    /// Waits for the next batch; `nil` once stopping with nothing left to run.
    private func nextBatch() -> [Job]? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            while queue.isEmpty && !stopping { condition.wait() }
            if queue.isEmpty { return nil }
            failExpiredJobs()
            guard let first = queue.first else { continue }
            // Wait for companions until the batch is full or the oldest input's delay is up.
            let deadline = first.arrival + configuration.maxQueueDelay
            while !stopping && compatibleCount(with: first) < configuration.maxBatchSize && ContinuousClock.now < deadline {
                _ = condition.wait(until: Date(timeIntervalSinceNow: Self.seconds(deadline - ContinuousClock.now)))
            }
            var batch: [Job] = []
            var remaining: [Job] = []
            for job in queue {
                if batch.count < configuration.maxBatchSize && compatible(first.input, job.input) {
                    batch.append(job)
                } else {
                    remaining.append(job)
                }
            }
            queue = remaining
            running = true
            return batch
        }
    }

    private func compatibleCount(with first: Job) -> Int {
        var count = 0
        for job in queue where compatible(first.input, job.input) {
            count += 1
            if count >= configuration.maxBatchSize { break }
        }
        return count
    }

    /// Fails (and removes) every queued job older than the timeout. Holds `condition`.
    private func failExpiredJobs() {
        guard let timeout = configuration.timeout else { return }
        let now = ContinuousClock.now
        queue.removeAll { job in
            guard now - job.arrival > timeout else { return false }
            job.continuation.resume(throwing: DynamicBatcherError.timedOut(after: timeout))
            return true
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

/// Why a ``DynamicBatcher`` gave no result.
public enum DynamicBatcherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Submitted after ``DynamicBatcher/shutdown()``.
    case shutDown
    /// Still queued after the configured timeout.
    case timedOut(after: Duration)
    /// `run` returned a different number of results than it was given inputs.
    case wrongResultCount(Int, batchSize: Int)

    public var description: String {
        switch self {
        case .shutDown: return "the server is shutting down"
        case .timedOut(let timeout):
            let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
            return "the request waited more than \(milliseconds) ms in the queue"
        case .wrongResultCount(let count, let size): return "the model returned \(count) results for a batch of \(size)"
        }
    }
}
