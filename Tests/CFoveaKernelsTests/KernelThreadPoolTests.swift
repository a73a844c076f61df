import CFoveaKernels
import FoveaCore
import FoveaKernelsBackend
import XCTest

/// `RunContext.kernelThreadPool`, the pool the C kernels run on: its C-callable
/// `parallelize` runs every share of [0, n) once on Fovea's worker pool, told n,
/// and carries the run's thread count.
final class KernelThreadPoolTests: XCTestCase {
    func testParallelizeRunsEveryShareOnceToldN() throws {
        for threads in [1, 2, 4] {
            let pool = RunContext(threads: threads).kernelThreadPool
            XCTAssertEqual(pool.threads, threads)
            let parallelize = try XCTUnwrap(pool.parallelize)
            for shares in [1, 2, 3, 16] {
                // Slots 0 ..< 16 count each share's runs, slot 16 holds the expected n, slot 17 counts a wrong n.
                var record = [Int32](repeating: 0, count: 18)
                record[16] = Int32(shares)
                record.withUnsafeMutableBufferPointer { slots in
                    parallelize(pool.context, shares, { context, i, n in
                        let slots = context!.assumingMemoryBound(to: Int32.self)
                        if n == Int(slots[16]) && i < n { slots[i] += 1 } else { slots[17] += 1 }
                    }, slots.baseAddress)
                }
                let expected = (0..<16).map { Int32($0 < shares ? 1 : 0) } + [Int32(shares), 0]
                XCTAssertEqual(record, expected, "\(threads) threads, \(shares) shares")
            }
        }
    }
}
