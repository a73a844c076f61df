import XCTest
import CFoveaKernels
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

final class KernelsBackendTests: XCTestCase {
    func testNameAndISA() {
        XCTAssertEqual(KernelsBackend().name, "kernels")
        XCTAssertTrue(["scalar", "avx2", "avx512", "avx512bf16", "amx"].contains(KernelsBackend.isa))
    }

    /// The vector ISA is the best supported one but scalar, whatever FOVEA_ISA or a forced ISA says.
    func testVectorISAIsTheBestSupportedVectorISA() {
        let vectorISAs: [String] = ["avx512", "avx2"]
        let best = vectorISAs.first { fovea_kernels_isa_supported($0) != 0 }
        XCTAssertEqual(KernelsBackend.vectorISA, best)
        XCTAssertEqual(fovea_kernels_set_isa("scalar"), FOVEA_STATUS_OK)
        defer { fovea_kernels_set_isa("auto") }
        XCTAssertEqual(KernelsBackend.vectorISA, best, "forcing scalar does not change what the hardware has")
    }
}
