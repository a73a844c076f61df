import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// Which path fully connected layers take on the kernels backend: a
/// classifier head's few rows run as matrix–vector products on the 1×1
/// convolution; more rows (a transformer's tokens) on the packed GEMM.
final class KernelsMatrixRoutingTests: XCTestCase {
    func testFewRowsRunAsMatrixVectorAndManyOnThePackedGemm() throws {
        var generator = SeededGenerator(seed: 3)
        let b = LayerCheck.randomTensor([24, 40], using: &generator)
        for rows in [1, 8, KernelsMatrix.maximumRows, KernelsMatrix.maximumRows + 1, 100] {
            let a = LayerCheck.randomTensor([rows, 24], using: &generator)
            let algorithm = try KernelsTestSupport.check(.matMul, [a, b], constants: [1], tolerance: nil, "matmul \(rows) rows")
            XCTAssertEqual(algorithm.hasPrefix("fully connected"), rows <= KernelsMatrix.maximumRows, algorithm)
        }
    }
}
