import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernels

final class KernelsBackendTests: XCTestCase {
    func testNameAndISA() {
        XCTAssertEqual(KernelsBackend().name, "kernels")
        XCTAssertTrue(["scalar", "avx2", "avx512"].contains(KernelsBackend.isa))
    }
}
