import CFoveaKernels
import Foundation
import FoveaCore
@testable import FoveaSIMD
import XCTest

/// The SIMD backend takes its ISA from the C kernels library: one detection
/// and one variable (`FOVEA_ISA`) for Swift and C.
final class SIMDKernelISATests: XCTestCase {
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
}
