import Atomics
import Foundation

/// Worker threads that keep spinning for a short while after each job, so the
/// forty-odd parallel steps of one graph run do not each pay to wake a
/// sleeping thread (about 10 µs each, measured with `concurrentPerform`), as
/// onnxruntime's and XNNPACK's pools do. Idle workers go to sleep after
/// ``spinIterations`` checks.
///
/// One job runs at a time; a caller that finds the pool busy (two plans run
/// concurrently, or a step nested in another) runs its chunks itself.
final class WorkerPool: @unchecked Sendable {
    // @unchecked: `current` and `spareJobs` are guarded by `lock`; everything else is atomic or immutable.

    /// One worker per core besides the caller's.
    static let shared = WorkerPool(workerCount: max(0, ProcessInfo.processInfo.activeProcessorCount - 1))

    /// About 50–100 µs of polling before a worker sleeps.
    private static let spinIterations = 20_000

    let workerCount: Int
    private let busy = ManagedAtomic<Bool>(false)
    private let generation = ManagedAtomic<Int>(0)
    private let sleepers = ManagedAtomic<Int>(0)
    /// Bumped by ``park()``: spinning workers that see it change go to sleep at once.
    private let parkings = ManagedAtomic<Int>(0)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var current: Job?

    /// Jobs no thread holds, ready for the next run (guarded by `lock`).
    private var spareJobs: [Job] = []

    /// One call of ``run(chunks:_:)``. Jobs are recycled, so a run allocates
    /// nothing, but only once no thread holds one: `holders` counts the caller
    /// and every worker that took the job, so a worker that picks up a finished
    /// job late still finds its spent counters and claims nothing.
    private final class Job: @unchecked Sendable {
        // @unchecked: `chunks`, `helpers` and `body`'s contents are written only
        // while no other thread holds the job (before it is published under the
        // pool's lock); `holders` is guarded by that lock; the rest is atomic.
        var chunks = 0
        var helpers = 0
        /// The run's closure while the job runs.
        let body = UnsafeMutablePointer<(Int) -> Void>.allocate(capacity: 1)
        let nextChunk = ManagedAtomic<Int>(0)
        let joined = ManagedAtomic<Int>(0)
        let pending = ManagedAtomic<Int>(0)
        var holders = 0

        deinit { body.deallocate() }

        func reset(chunks: Int, helpers: Int) {
            self.chunks = chunks
            self.helpers = helpers
            nextChunk.store(0, ordering: .relaxed)
            joined.store(0, ordering: .relaxed)
            pending.store(chunks, ordering: .relaxed)
        }

        /// Runs chunks until none is left.
        func work() {
            while true {
                let chunk = nextChunk.loadThenWrappingIncrement(ordering: .relaxed)
                guard chunk < chunks else { return }
                body.pointee(chunk)
                pending.wrappingDecrement(ordering: .releasing)
            }
        }
    }

    /// Drops one hold on `job`; the last one makes it spare. Call under `lock`.
    private func release(_ job: Job) {
        job.holders -= 1
        if job.holders == 0 { spareJobs.append(job) }
    }

    private init(workerCount: Int) {
        self.workerCount = workerCount
        for index in 0..<workerCount {
            let thread = Thread { [unowned self] in self.workerLoop() }
            thread.name = "fovea-worker-\(index)"
            thread.start()
        }
    }

    /// Calls `body(0) ... body(chunks - 1)`, on the caller and up to
    /// `chunks - 1` workers, and returns when all are done.
    func run(chunks: Int, _ body: (Int) -> Void) {
        let helpers = min(workerCount, chunks - 1)
        guard helpers > 0, busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            for chunk in 0..<chunks { body(chunk) }
            return
        }
        withoutActuallyEscaping(body) { body in
            let job = lock.withLock { spareJobs.popLast() } ?? Job()
            job.reset(chunks: chunks, helpers: helpers)
            // The job points at the closure rather than holding it, so nothing
            // keeps it alive past this block (workers may keep the job itself).
            job.body.initialize(to: body)
            lock.withLock {
                job.holders = 1
                current = job
            }
            generation.wrappingIncrement(ordering: .sequentiallyConsistent)
            let sleeping = sleepers.load(ordering: .sequentiallyConsistent)
            for _ in 0..<min(sleeping, helpers) { wakeUp.signal() }
            job.work()
            while job.pending.load(ordering: .acquiring) > 0 {}
            // Every chunk has run: no thread calls the closure again.
            job.body.deinitialize(count: 1)
            lock.withLock {
                current = nil
                release(job)
            }
        }
        busy.store(false, ordering: .releasing)
    }

    /// Sends spinning workers to sleep now rather than after their spin:
    /// for a step that hands the cores to another thread pool (OpenBLAS's).
    func park() {
        parkings.wrappingIncrement(ordering: .relaxed)
    }

    private func workerLoop() {
        var seen = generation.load(ordering: .acquiring)
        while true {
            var spins = 0
            var parked = parkings.load(ordering: .relaxed)
            var latest = generation.load(ordering: .acquiring)
            while latest == seen {
                spins += 1
                if spins >= Self.spinIterations || parkings.load(ordering: .relaxed) != parked {
                    // Announce the sleep before the last check, so a job published
                    // after this check sees the sleeper and signals.
                    sleepers.wrappingIncrement(ordering: .sequentiallyConsistent)
                    if generation.load(ordering: .sequentiallyConsistent) == seen { wakeUp.wait() }
                    sleepers.wrappingDecrement(ordering: .sequentiallyConsistent)
                    spins = 0
                    parked = parkings.load(ordering: .relaxed)
                }
                latest = generation.load(ordering: .acquiring)
            }
            seen = latest
            let taken = lock.withLock { () -> Job? in
                current?.holders += 1
                return current
            }
            guard let job = taken else { continue }
            // Only as many workers as the run's thread count allows.
            if job.joined.loadThenWrappingIncrement(ordering: .relaxed) < job.helpers { job.work() }
            lock.withLock { release(job) }
        }
    }
}
