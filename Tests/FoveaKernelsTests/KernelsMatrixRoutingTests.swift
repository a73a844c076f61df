import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernels

/// Which fully connected layers the kernels backend takes: a classifier
/// head's few rows, not a transformer MLP's hundreds of tokens (those run
/// row by row here, several times slower than the simd backend's packed GEMM).
final class KernelsMatrixRoutingTests: XCTestCase {
    func testTakesFewRowsAndDeclinesMany() throws {
        var generator = SeededGenerator(seed: 3)
        let b = LayerCheck.randomTensor([24, 40], using: &generator)
        for rows in [1, 8, KernelsMatrix.maximumRows] {
            let a = LayerCheck.randomTensor([rows, 24], using: &generator)
            try KernelsTestSupport.check(.matMul, [a, b], constants: [1], tolerance: nil, "matmul \(rows) rows")
        }
        let many = TensorType(.float32, [KernelsMatrix.maximumRows + 1, 24])
        let context = try LayerCheck.nodeContext(.matMul, [Tensor(shape: many.shape, repeating: 0), b], constants: [1])
        XCTAssertFalse(KernelsBackend().supports(context))
    }
}
