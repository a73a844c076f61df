import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// BatchNormalization left as a node on the kernels backend: bit-identical
/// to the reference (the same scale and shift, the same two roundings) over
/// ranks 2–5, batches, NaN and infinities, 1 and 2 threads, in place; and the
/// nodes it declines.
final class KernelsNormalizationTests: XCTestCase {
    private func parameters(_ channels: Int, _ generator: inout SeededGenerator) throws -> [Tensor] {
        let gamma = LayerCheck.randomTensor([channels], in: -2...2, using: &generator)
        let beta = LayerCheck.randomTensor([channels], in: -1...1, using: &generator)
        let mean = LayerCheck.randomTensor([channels], in: -1...1, using: &generator)
        let variance = LayerCheck.randomTensor([channels], in: 0...3, using: &generator)
        return [gamma, beta, mean, variance]
    }

    func testMatchesTheReferenceBitForBit() throws {
        var generator = SeededGenerator(seed: 52)
        let shapes = [[2, 5], [1, 3, 7], [1, 16, 13, 13], [3, 32, 9, 11], [2, 4, 3, 5, 6], [1, 1, 1, 1]]
        for (trial, shape) in shapes.enumerated() {
            let x = trial % 2 == 0 ? LayerCheck.randomTensorWithSpecials(shape, using: &generator)
                : LayerCheck.randomTensor(shape, using: &generator)
            let inputs = [x] + (try parameters(shape[1], &generator))
            for threads in [1, 2] {
                let algorithm = try KernelsTestSupport.check(.batchNormalization(epsilon: 1e-5), inputs, constants: [1, 2, 3, 4],
                                                             tolerance: .exact, threads: threads, "BatchNormalization \(shape)")
                XCTAssertEqual(algorithm, "batchnorm channel affine")
            }
        }
    }

    func testDeclinesParametersGivenAtRunTimeOrOfTheWrongLength() throws {
        var generator = SeededGenerator(seed: 3)
        let x = TensorType(.float32, [1, 4, 5, 5])
        let channel = TensorType(.float32, [4])
        // Run-time parameters: the reference runs them.
        XCTAssertFalse(KernelsTestSupport.supports(.batchNormalization(epsilon: 1e-5), [x, channel, channel, channel, channel]))
        // Constant parameters of the wrong length are refused at planning.
        let wrong = try parameters(3, &generator)
        let context = NodeContext(node: Node(name: "bn", op: .batchNormalization(epsilon: 1e-5), inputs: ["x", "s", "b", "m", "v"], outputs: ["y"]),
                                  inputTypes: [x] + wrong.map { TensorType(.float32, $0.shape) }, outputTypes: [x],
                                  constantInputs: [1: wrong[0], 2: wrong[1], 3: wrong[2], 4: wrong[3]])
        XCTAssertFalse(KernelsTestSupport.backend.supports(context))
    }
}
