import CFoveaKernels
import Dispatch
import FoveaCore
import XCTest

/// Run-time ISA selection, per-call thread counts and argument checking, seen from Swift.
final class KernelDispatchTests: XCTestCase {
    override func tearDown() {
        fovea_kernels_set_isa("auto")
        super.tearDown()
    }

    func testUnknownAndUnsupportedISAsAreRefusedWithoutChangingAnything() throws {
        XCTAssertEqual(fovea_kernels_set_isa("scalar"), FOVEA_STATUS_OK)
        XCTAssertEqual(fovea_kernels_set_isa("sse9"), FOVEA_STATUS_UNKNOWN_ISA)
        #if arch(x86_64)
        // A known level that never runs on x86.
        XCTAssertEqual(fovea_kernels_set_isa("neon"), FOVEA_STATUS_UNSUPPORTED_ISA)
        #endif
        XCTAssertEqual(fovea_kernels_set_isa(""), FOVEA_STATUS_UNKNOWN_ISA)
        XCTAssertEqual(fovea_kernels_set_isa("AVX2"), FOVEA_STATUS_UNKNOWN_ISA)
        for isa in allKernelISAs where !supportedKernelISAs.contains(isa) {
            XCTAssertEqual(fovea_kernels_set_isa(isa), FOVEA_STATUS_UNSUPPORTED_ISA)
        }
        XCTAssertEqual(activeKernelISA, "scalar")
        XCTAssertThrowsError(try withKernelISA("sse9") { () }) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
            XCTAssertTrue("\(error)".contains("unknown ISA"), "\(error)")
        }
    }

    func testConcurrentCallsWithTheirOwnThreadCountsAgree() throws {
        // Each call takes its pool and thread count (a run's RunContext.kernelThreadPool), not a process-wide
        // setting: calls with different counts, also at the same time, give the bits of a one-thread call.
        XCTAssertGreaterThanOrEqual(fovea_kernels_num_threads(), 1) // OpenMP's default, for reports only
        let attributes = PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1],
                                        pads: [0, 0, 0, 0], ceilMode: true)
        let shape = [2, 16, 37, 37]
        let params = try poolParameters(attributes, inputShape: shape)
        var rng = SeededGenerator(seed: 0x7EAD)
        let x = (0..<shape.elementCount).map { _ in Float.random(in: -1...1, using: &rng) }
        let counts = [0, 1, 2, 3, 8]
        for isMax in [true, false] {
            let one = try runPoolKernel(max: isMax, params, x, threads: 1)
            let globalOne = try runGlobalPoolKernel(max: isMax, shape: shape, x, threads: 1)
            let results = ResultSlots(count: counts.count)
            defer { results.slots.deallocate() }
            DispatchQueue.concurrentPerform(iterations: counts.count) { i in
                // Each iteration writes its own slot only.
                results.slots[i] = try? (runPoolKernel(max: isMax, params, x, threads: counts[i]),
                                         runGlobalPoolKernel(max: isMax, shape: shape, x, threads: counts[i]))
            }
            for (i, threads) in counts.enumerated() {
                XCTAssertEqual(results.slots[i]?.0.map(\.bitPattern), one.map(\.bitPattern), "\(threads) threads, max \(isMax)")
                XCTAssertEqual(results.slots[i]?.1.map(\.bitPattern), globalOne.map(\.bitPattern), "global, \(threads) threads")
            }
        }
    }

    func testBadPoolingParametersThrowInsteadOfCrashing() throws {
        let good = try poolParameters(PoolAttributes(kernelShape: [2, 2], strides: [2, 2], dilations: [1, 1], pads: [0, 0, 0, 0]),
                                      inputShape: [1, 1, 4, 4])
        let x = [Float](repeating: 1, count: 16)
        XCTAssertEqual(try runPoolKernel(max: true, good, x), [1, 1, 1, 1])

        var zeroStride = good
        zeroStride.stride_width = 0
        XCTAssertThrowsError(try runPoolKernel(max: true, zeroStride, x)) { error in
            XCTAssertTrue("\(error)".contains("stride"), "\(error)")
        }
        // Windows past the input are not an error: -FLT_MAX for max, 0 for average, as the reference.
        var paddingOnly = good
        paddingOnly.output_width = 4
        XCTAssertEqual(try runPoolKernel(max: false, paddingOnly, x), [1, 1, 0, 0, 1, 1, 0, 0])
        let lowest = -Float.greatestFiniteMagnitude
        XCTAssertEqual(try runPoolKernel(max: true, paddingOnly, x), [1, 1, lowest, lowest, 1, 1, lowest, lowest])
        var huge = good
        huge.batch = 1 << 40
        huge.channels = 1 << 40
        XCTAssertThrowsError(try runPoolKernel(max: true, huge, []))

        var params = good
        XCTAssertEqual(fovea_maxpool2d_f32(&params, nil, nil, nil), FOVEA_STATUS_NULL_POINTER)
        XCTAssertEqual(fovea_avgpool2d_f32(nil, nil, nil, nil), FOVEA_STATUS_NULL_POINTER)
        XCTAssertEqual(fovea_global_avgpool_f32(1, 1, 0, x, nil, nil), FOVEA_STATUS_INVALID_PARAMETER)
        XCTAssertThrowsError(try runGlobalPoolKernel(max: true, shape: [1, 2, 0, 3], []))
    }

    func testStatusDescriptionsAreOneLine() {
        for raw in FOVEA_STATUS_OK.rawValue...FOVEA_STATUS_UNSUPPORTED_ISA.rawValue {
            let text = String(cString: fovea_status_description(fovea_status(rawValue: raw)))
            XCTAssertFalse(text.isEmpty)
            XCTAssertFalse(text.contains("\n"))
        }
    }
}

/// One result slot per concurrent call; each call writes only its own.
private struct ResultSlots: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<([Float], [Float])?>
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }
}
