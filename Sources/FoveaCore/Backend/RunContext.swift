/// Per-run settings handed to every step: how many threads a step may use.
///
/// Steps split their work with ``parallelFor(_:_:)``; the thread count can
/// change from one run to the next without rebuilding the plan.
public struct RunContext: Sendable {
    /// Intra-op threads; at least 1.
    public let threads: Int

    /// Creates a context for runs with up to `threads` threads (at least 1).
    public init(threads: Int = RunContext.defaultThreadCount) {
        self.threads = Swift.max(1, threads)
    }

    /// The number of active processor cores.
    public static var defaultThreadCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// `threads` clamped to `1 ... ` ``defaultThreadCount``: more threads than
    /// cores only queue behind each other (and each needs its workspace).
    public static func clampedThreadCount(_ threads: Int) -> Int {
        Swift.min(Swift.max(1, threads), defaultThreadCount)
    }

    /// Calls `body` on disjoint chunks covering `0 ..< count`, on up to
    /// ``threads`` threads at once (the caller and Fovea's worker threads), and
    /// returns when all are done. Chunks are contiguous, so a body can keep
    /// per-chunk scratch memory, and they depend only on `count` and
    /// ``threads``, so results do not depend on which thread ran which chunk.
    public func parallelFor(_ count: Int, _ body: @Sendable (Range<Int>) -> Void) {
        parallelChunks(count) { _, range in body(range) }
    }

    /// Sends Fovea's idle worker threads to sleep at once instead of letting
    /// them spin for their next job. A step that hands the cores to another
    /// thread pool (OpenBLAS's own pthreads, in the blas backend) calls it
    /// first, so the pools do not fight; the workers wake again for the next
    /// parallel step. The C kernels need no such call: they run on these
    /// workers (``runShares(_:_:)``).
    public static func parkWorkers() {
        WorkerPool.shared.park()
    }

    /// Calls `body(0) ... body(shares - 1)` on the caller and Fovea's worker
    /// threads, and returns when all are done: the worker pool as a plain
    /// parallel-for, for the trampoline that hands it to C kernels
    /// (`RunContext.kernelThreadPool`). The caller chooses `shares` (at most
    /// its run's ``threads``); when the pool is busy with another run, or the
    /// call comes from inside a share, the caller runs every share itself.
    public static func runShares(_ shares: Int, _ body: (Int) -> Void) {
        guard shares > 0 else { return }
        WorkerPool.shared.run(chunks: shares, body)
    }

    /// ``parallelFor(_:_:)`` that also tells each call its chunk index
    /// (`0 ..< min(threads, count)`), so that it can use its own slice of a
    /// planned workspace, as a ggml kernel uses its thread index.
    public func parallelChunks(_ count: Int, _ body: @Sendable (_ chunk: Int, _ range: Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunks = Swift.min(threads, count)
        if chunks == 1 {
            body(0, 0..<count)
            return
        }
        WorkerPool.shared.run(chunks: chunks) { chunk in
            let start = count * chunk / chunks
            let end = count * (chunk + 1) / chunks
            if start < end { body(chunk, start..<end) }
        }
    }
}

import Foundation
