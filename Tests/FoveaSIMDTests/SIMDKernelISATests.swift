import CFoveaKernels
import Foundation
import FoveaCore
@testable import FoveaSIMD
import FoveaSIMDISAKernels
import XCTest

/// The SIMD backend takes its ISA from the C kernels library: one detection
/// and one variable (`FOVEA_ISA`) for Swift and C. The AVX-512 and AVX2
/// kernels come from FoveaSIMDISAKernels, registered here as the CLI does.
final class SIMDKernelISATests: XCTestCase {
    override func setUp() {
        super.setUp()
        SIMDISAKernels.register()
    }

    override func tearDown() {
        fovea_kernels_set_isa("auto")
        super.tearDown()
    }

    func testNamesMapToTheKernelsLibrary() {
        XCTAssertEqual(SIMDKernelISA.allCases.map(\.kernelsName), ["avx512", "avx2", "scalar"])
        for isa in SIMDKernelISA.allCases {
            XCTAssertEqual(SIMDKernelISA(kernelsName: isa.kernelsName), isa)
        }
        XCTAssertNil(SIMDKernelISA(kernelsName: "generic"), "the C name of generic is scalar")
        XCTAssertNil(SIMDKernelISA(kernelsName: "AVX2"))
    }

    func testSupportIsTheKernelsLibrarysDetection() {
        XCTAssertTrue(SIMDKernelISA.generic.isSupported)
        for isa in SIMDKernelISA.allCases {
            XCTAssertTrue(isa.isRegistered, "\(isa) after SIMDISAKernels.register()")
        }
        for isa in SIMDKernelISA.allCases where isa != .generic {
            #if os(Linux) && arch(x86_64)
            XCTAssertEqual(isa.isSupported, fovea_kernels_isa_supported(isa.kernelsName) != 0, "\(isa)")
            #else
            XCTAssertFalse(isa.isSupported, "\(isa): the AVX modules get their -target-cpu on Linux only")
            #endif
        }
    }

    func testPreferredIsTheKernelsLibrarysDefaultChoice() {
        let defaultName = String(cString: fovea_kernels_default_isa_name())
        if let isa = SIMDKernelISA(kernelsName: defaultName), isa.isSupported {
            XCTAssertEqual(SIMDKernelISA.preferred, isa)
        }
        XCTAssertTrue(SIMDKernelISA.preferred.isSupported)
        // FOVEA_ISA, when it names a supported ISA, rules both.
        if let name = ProcessInfo.processInfo.environment["FOVEA_ISA"], let isa = SIMDKernelISA(kernelsName: name),
           isa.isSupported {
            XCTAssertEqual(SIMDKernelISA.preferred, isa, "FOVEA_ISA=\(name)")
            XCTAssertEqual(defaultName, name, "FOVEA_ISA=\(name)")
        }
        // Forcing the C kernels changes neither default.
        XCTAssertEqual(fovea_kernels_set_isa("scalar"), FOVEA_STATUS_OK)
        XCTAssertEqual(String(cString: fovea_kernels_default_isa_name()), defaultName)
        XCTAssertEqual(try GemmKernelSet.current().isa, SIMDKernelISA.preferred)
    }

    func testForcingAVariantForTheTaskStillWorks() throws {
        for isa in SIMDKernelISA.allCases {
            if isa.isSupported {
                XCTAssertEqual(try SIMDKernelISA.$forced.withValue(isa) { try GemmKernelSet.current().isa }, isa)
            } else {
                XCTAssertThrowsError(try SIMDKernelISA.$forced.withValue(isa) { try GemmKernelSet.current() }) { error in
                    XCTAssertEqual((error as? FoveaError)?.kind, .unsupported)
                }
            }
        }
        XCTAssertEqual(try GemmKernelSet.current().isa, SIMDKernelISA.preferred)
    }

    /// Steps call the kernels registered for their ISA: a counting wrapper
    /// around the AVX2 build is what GemmKernelSet runs once registered.
    func testStepsCallTheRegisteredKernels() throws {
        try XCTSkipUnless(SIMDKernelISA.avx2.isSupported, "no AVX2 here")
        defer { SIMDISAKernels.register() } // the real kernels again for the other tests
        let calls = CallCounter()
        let real = try SIMDKernelISA.$forced.withValue(.avx2) { try GemmKernelSet.current() }
        SIMDKernelISA.avx2.register(SIMDKernelFunctions(
            gemmTiles: { k, a, aps, rp, rows, b, ldb, bps, cp, cols, c, ldc, bias, acc, act, p0, p1 in
                calls.add()
                real.gemmTiles(k, a, aps, rp, rows, b, ldb, bps, cp, cols, c, ldc, bias, acc, KernelActivation(code: act, p0: p0, p1: p1))
            },
            depthwisePlane: { _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _, _ in calls.add() }))
        let set = try SIMDKernelISA.$forced.withValue(.avx2) { try GemmKernelSet.current() }
        XCTAssertEqual(set.isa, .avx2)
        // One 8x32 tile: A = 8 rows of k = 2 ones, B = 32 columns of twos; C = 4 everywhere.
        let k = 2
        let a = [Float](repeating: 1, count: GemmKernelSet.tileRows * k)
        let b = [Float](repeating: 2, count: GemmKernelSet.tileColumns * k)
        var c = [Float](repeating: 0, count: GemmKernelSet.tileRows * GemmKernelSet.tileColumns)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                c.withUnsafeMutableBufferPointer { c in
                    set.gemmTiles(k, a.baseAddress!, a.count, 1, 8, b.baseAddress!, 32, b.count, 1, 32,
                                  c.baseAddress!, 32, nil, false, .none)
                }
            }
        }
        XCTAssertEqual(calls.count, 1)
        XCTAssertEqual(c, [Float](repeating: 4, count: c.count))
    }
}

/// Counts calls from @Sendable closures.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var count: Int { lock.lock(); defer { lock.unlock() }; return value }
    func add() { lock.lock(); value += 1; lock.unlock() }
}
