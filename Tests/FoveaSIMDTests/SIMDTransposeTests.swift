import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaPortableBackend

/// Transpose on the simd backend equals the reference bit for bit: the
/// transformers' permutations (NCHW ↔ NHWC, heads, Swin's windows), random
/// ones with size-1 axes, the default (reversed) permutation, 1 and 2 threads;
/// and what it declines.
final class SIMDTransposeTests: XCTestCase {
    func testPermutationsMatchTheReference() throws {
        var generator = SeededGenerator(seed: 31)
        var cases: [([Int], [Int]?)] = [([1, 96, 14, 14], [0, 2, 3, 1]), ([1, 14, 14, 96], [0, 3, 1, 2]),
                                        ([1, 197, 3, 12, 16], [2, 0, 3, 1, 4]), ([1, 4, 7, 4, 7, 8], [0, 1, 3, 2, 4, 5]),
                                        ([33, 17], [1, 0]), ([5, 6, 7], nil), ([9], [0]), ([], [])]
        for _ in 0..<30 {
            let rank = Int.random(in: 1...5, using: &generator)
            let shape = (0..<rank).map { _ in Int.random(in: 0..<4, using: &generator) == 0 ? 1 : Int.random(in: 2...9, using: &generator) }
            cases.append((shape, Array(0..<rank).shuffled(using: &generator)))
        }
        for (shape, perm) in cases {
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &generator)
            for threads in [1, 2] {
                let algorithm = try SIMDTestSupport.check(.transpose(perm: perm), [x], tolerance: .exact, threads: threads,
                                                          "transpose \(shape) by \(perm.map { "\($0)" } ?? "default")")
                XCTAssertEqual(algorithm, "transpose")
            }
        }
    }

    func testDeclinesOtherTypesAndBadPermutations() {
        XCTAssertFalse(SIMDTestSupport.supports(.transpose(perm: [1, 0]), [TensorType(.int64, [3, 4])]))
        XCTAssertFalse(SIMDTestSupport.supports(.transpose(perm: [0, 0]), [TensorType(.float32, [3, 4])]))
        XCTAssertFalse(SIMDTestSupport.supports(.transpose(perm: [0, 1, 2]), [TensorType(.float32, [3, 4])]))
    }
}
