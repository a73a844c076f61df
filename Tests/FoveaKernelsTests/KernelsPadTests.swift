import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// Constant Pad on the kernels backend equals the reference bit for bit:
/// no padding (Swin's usual case), padding on some axes, a value, negative
/// pads that crop, a crop past the whole input, `axes`; and what it declines.
final class KernelsPadTests: XCTestCase {
    func testPadsMatchTheReference() throws {
        var generator = SeededGenerator(seed: 41)
        let cases: [([Int], [Int], Float, [Int]?)] = [
            ([1, 56, 56, 96], [0, 0, 0, 0, 0, 0, 0, 0], 0, nil), ([1, 5, 5, 8], [0, 0, 0, 0, 0, 2, 2, 0], 0, nil),
            ([2, 3, 4], [1, 0, 2, 0, 3, 1], 1.5, nil), ([4, 9], [-1, 2, 0, -3], -2, nil), ([3, 4], [0, -2, 0, 1], 7, nil),
            ([2, 3, 5], [1, 2], 0.25, [-1]), ([6], [2, 3], 0, nil), ([2, 2, 2], [0, 0, 0, 0, 0, 0], 3, nil),
        ]
        for (shape, pads, value, axes) in cases {
            let x = LayerCheck.randomTensorWithSpecials(shape, using: &generator)
            let algorithm = try KernelsTestSupport.check(.pad(pads: pads, value: value, axes: axes), [x],
                                                         tolerance: Tolerance(absolute: 0, relative: 0),
                                                         "pad \(shape) by \(pads) value \(value)")
            XCTAssertEqual(algorithm, "pad rows")
        }
    }

    func testDeclinesOtherTypesAndBadPads() {
        XCTAssertFalse(KernelsTestSupport.supports(.pad(pads: [0, 1, 0, 1], value: 0, axes: nil), [TensorType(.int64, [3, 4])]))
        XCTAssertFalse(KernelsTestSupport.supports(.pad(pads: [0, 1], value: 0, axes: nil), [TensorType(.float32, [3, 4])]))
    }
}
