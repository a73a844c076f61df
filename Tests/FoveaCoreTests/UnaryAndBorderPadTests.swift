import XCTest
@testable import FoveaCore

final class UnaryAndBorderPadTests: XCTestCase {
    func testUnaryFunctions() throws {
        let x = try floats([4], [-2, 0, 0.5, 4])
        assertClose(try evaluate1(.unary(.linear(alpha: -1, beta: 2)), x), [4], [4, 2, 1.5, -2])
        assertClose(try evaluate1(.unary(.abs), x), [4], [2, 0, 0.5, 4])
        assertClose(try evaluate1(.unary(.threshold(alpha: 0.25)), x), [4], [0.25, 0.25, 0.5, 4])
        assertClose(try evaluate1(.unary(.thresholdedRelu(alpha: 0.25)), x), [4], [0, 0, 0.5, 4])
        assertClose(try evaluate1(.unary(.tanh), x), [4], [Float(tanh(-2.0)), 0, Float(tanh(0.5)), Float(tanh(4.0))])
        assertClose(try evaluate1(.unary(.exp), x), [4], [Float(exp(-2.0)), 1, Float(exp(0.5)), Float(exp(4.0))], tolerance: 1e-4)
        let p = try floats([3], [1, 4, 0.25])
        assertClose(try evaluate1(.unary(.sqrt), p), [3], [1, 2, 0.5])
        assertClose(try evaluate1(.unary(.rsqrt(epsilon: 0)), p), [3], [1, 0.5, 2])
        assertClose(try evaluate1(.unary(.reciprocal(epsilon: 1)), p), [3], [0.5, 0.2, 0.8])
        assertClose(try evaluate1(.unary(.log(epsilon: 0)), p), [3], [0, Float(log(4.0)), Float(log(0.25))])
        assertClose(try evaluate1(.unary(.power(exponent: 2)), p), [3], [1, 16, 0.0625])
        assertClose(try evaluate1(.unary(.elu(alpha: 2)), x), [4], [2 * Float(exp(-2.0) - 1), 0, 0.5, 4])
        assertClose(try evaluate1(.unary(.softsign), x), [4], [-2.0 / 3, 0, 0.5 / 1.5, 0.8])
        assertClose(try evaluate1(.unary(.softplus), try floats([3], [-100, 0, 100])), [3], [0, Float(log(2.0)), 100])
        XCTAssertEqual(Op.unary(.tanh).typeName, "Tanh")
        XCTAssertThrowsError(try evaluate1(.unary(.exp), try Tensor(shape: [1], int64s: [1])))
    }

    func testBorderPadReflectAndEdge() throws {
        let x = try floats([1, 3], [1, 2, 3])
        assertClose(try evaluate1(.borderPad(pads: [0, 2, 0, 1], mode: .reflect), x), [1, 6], [3, 2, 1, 2, 3, 2])
        assertClose(try evaluate1(.borderPad(pads: [0, 2, 0, 1], mode: .edge), x), [1, 6], [1, 1, 1, 2, 3, 3])
        let square = iota([1, 1, 2, 2])
        assertClose(try evaluate1(.borderPad(pads: [0, 0, 1, 0, 0, 0, 0, 1], mode: .edge), square), [1, 1, 3, 3],
                    [0, 1, 1, 0, 1, 1, 2, 3, 3])
        XCTAssertEqual(Op.borderPad(pads: [0, 0, 0, 0], mode: .edge).typeName, "Pad")
    }

    func testBorderPadRejectsBadPads() throws {
        let x = try floats([1, 3], [1, 2, 3])
        XCTAssertThrowsError(try evaluate1(.borderPad(pads: [0, 3, 0, 0], mode: .reflect), x))
        XCTAssertThrowsError(try evaluate1(.borderPad(pads: [0, -1, 0, 0], mode: .edge), x))
        XCTAssertThrowsError(try evaluate1(.borderPad(pads: [0, 1], mode: .edge), x))
        XCTAssertThrowsError(try evaluate1(.borderPad(pads: [0, 1, 0, 0], mode: .edge), try floats([1, 0], [])))
        assertClose(try evaluate1(.borderPad(pads: [0, 5, 0, 5], mode: .edge), x), [1, 13], [1, 1, 1, 1, 1, 1, 2, 3, 3, 3, 3, 3, 3])
    }
}
