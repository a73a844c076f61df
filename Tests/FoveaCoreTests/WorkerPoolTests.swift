import Atomics
import Foundation
import XCTest
@testable import FoveaCore

/// `RunContext.parallelFor` on Fovea's spinning worker pool: every index exactly
/// once, chunking independent of the threads that ran it, safe when nested and
/// when called from several threads at once (also run under ThreadSanitizer).
final class WorkerPoolTests: XCTestCase {
    /// Counts how often each index was visited.
    private final class Visits: @unchecked Sendable {
        // @unchecked: each slot is an atomic.
        let counts: [ManagedAtomic<Int>]
        init(_ n: Int) { counts = (0..<n).map { _ in ManagedAtomic(0) } }
        func visit(_ range: Range<Int>) { for i in range { counts[i].wrappingIncrement(ordering: .relaxed) } }
        var all: [Int] { counts.map { $0.load(ordering: .relaxed) } }
    }

    func testEveryIndexRunsExactlyOnce() {
        for threads in [1, 2, 3, 8] {
            for count in [0, 1, 2, 3, 7, 64, 1000] {
                let visits = Visits(count)
                RunContext(threads: threads).parallelFor(count) { visits.visit($0) }
                XCTAssertEqual(visits.all, [Int](repeating: 1, count: count), "threads \(threads), count \(count)")
            }
        }
    }

    func testChunksDependOnlyOnCountAndThreads() {
        final class Ranges: @unchecked Sendable {
            // @unchecked: guarded by lock.
            let lock = NSLock()
            var ranges: [Range<Int>] = []
            func add(_ r: Range<Int>) { lock.withLock { ranges.append(r) } }
        }
        for _ in 0..<20 {
            let seen = Ranges()
            RunContext(threads: 3).parallelFor(10) { seen.add($0) }
            XCTAssertEqual(seen.ranges.sorted { $0.lowerBound < $1.lowerBound }, [0..<3, 3..<6, 6..<10])
        }
    }

    /// `runShares`, the parallel-for the C kernels' pool calls: every share once, also from
    /// inside a share (which runs its shares on its own thread) and from several callers at once.
    func testSharesForCKernelsRunOnceEach() {
        for shares in [0, 1, 2, 3, 8] {
            let visits = Visits(shares)
            RunContext.runShares(shares) { visits.visit($0..<($0 + 1)) }
            XCTAssertEqual(visits.all, [Int](repeating: 1, count: shares), "\(shares) shares")
        }
        let nested = Visits(4 * 3)
        DispatchQueue.concurrentPerform(iterations: 3) { caller in
            RunContext.runShares(2) { outer in
                RunContext.runShares(2) { inner in
                    let index = caller * 4 + outer * 2 + inner
                    nested.visit(index..<(index + 1))
                }
            }
        }
        XCTAssertEqual(nested.all, [Int](repeating: 1, count: 12))
    }

    func testNestedAndConcurrentCallsComplete() {
        let outer = 16, inner = 100
        let visits = Visits(outer * inner)
        DispatchQueue.concurrentPerform(iterations: 4) { caller in
            RunContext(threads: 2).parallelFor(outer / 4) { range in
                for o in range {
                    let row = caller * (outer / 4) + o
                    RunContext(threads: 2).parallelFor(inner) { visits.visit((row * inner + $0.lowerBound)..<(row * inner + $0.upperBound)) }
                }
            }
        }
        XCTAssertEqual(visits.all, [Int](repeating: 1, count: outer * inner))
    }
}
