import XCTest
@testable import FoveaCore

/// The math and activation functions added for exported classifiers (Erf,
/// Gelu, Mish, Selu, Celu, Neg, Floor, Ceil) and the broadcasting Pow, Max
/// and Min. Expected values from Python's `math` module (erf, tanh, exp, log1p).
final class ReferenceMathTests: XCTestCase {
    private let x = Tensor(uncheckedShape: [7], floats: [-3, -1, -0.5, 0, 0.5, 1, 3])

    private func unary(_ f: UnaryFunction) throws -> Tensor { try evaluate1(.unary(f), x) }

    func testTranscendentalFunctions() throws {
        assertClose(try unary(.erf), [7], [-0.9999779, -0.8427008, -0.5204999, 0, 0.5204999, 0.8427008, 0.9999779])
        assertClose(try unary(.gelu(tanhApproximation: false)), [7], [-0.0040497, -0.1586553, -0.1542688, 0, 0.3457312, 0.8413447, 2.9959503])
        assertClose(try unary(.gelu(tanhApproximation: true)), [7], [-0.0036374, -0.158808, -0.154286, 0, 0.345714, 0.841192, 2.9963626])
        assertClose(try unary(.mish), [7], [-0.1456475, -0.3034015, -0.2207438, 0, 0.3752452, 0.8650984, 2.986535])
        assertClose(try unary(.selu(alpha: 1.67326319217681884765625, gamma: 1.05070102214813232421875)), [7],
                    [-1.6705687, -1.1113307, -0.6917582, 0, 0.5253505, 1.050701, 3.1521031])
        assertClose(try unary(.celu(alpha: 2)), [7], [-1.5537397, -0.7869387, -0.4423984, 0, 0.5, 1, 3])
        assertClose(try unary(.softplus), [7], [0.0485874, 0.3132617, 0.474077, 0.6931472, 0.974077, 1.3132617, 3.0485874])
    }

    func testRoundingAndSign() throws {
        assertClose(try unary(.neg), [7], [3, 1, 0.5, 0, -0.5, -1, -3])
        assertClose(try unary(.floor), [7], [-3, -1, -1, 0, 0, 1, 3])
        assertClose(try unary(.ceil), [7], [-3, -1, 0, 0, 1, 1, 3])
    }

    func testExtremesOfTheActivations() throws {
        let big = Tensor(uncheckedShape: [4], floats: [-100, 100, .infinity, -.infinity])
        // Mish and both Gelus tend to x above and to 0 below, infinities included (not NaN).
        for f in [UnaryFunction.mish, .gelu(tanhApproximation: false), .gelu(tanhApproximation: true)] {
            assertClose(try evaluate1(.unary(f), big).floats ?? [], [0, 100, .infinity, 0])
        }
        XCTAssertTrue(try evaluate1(.unary(.erf), Tensor(uncheckedShape: [1], floats: [.nan])).floats?[0].isNaN ?? false)
    }

    func testPowBroadcasts() throws {
        let base = Tensor(uncheckedShape: [2, 2], floats: [1, 2, 3, 4])
        assertClose(try evaluate1(.pow, base, Tensor(uncheckedShape: [], floats: [2])), [2, 2], [1, 4, 9, 16])
        assertClose(try evaluate1(.pow, base, Tensor(uncheckedShape: [2], floats: [0.5, 3])), [2, 2], [1, 8, Float(3).squareRoot(), 64])
        assertClose(try evaluate1(.pow, Tensor(uncheckedShape: [1], floats: [2]), base), [2, 2], [2, 4, 8, 16])
        assertFoveaError(.shapeMismatch, "cannot be broadcast") {
            try evaluate1(.pow, base, Tensor(uncheckedShape: [3], floats: [1, 2, 3]))
        }
    }

    func testMaxAndMinOfSeveralInputs() throws {
        let a = Tensor(uncheckedShape: [3], floats: [1, 5, .nan])
        let b = Tensor(uncheckedShape: [3], floats: [4, 2, 0])
        let c = Tensor(uncheckedShape: [2, 1], floats: [3, -1])
        let largest = try evaluate(.maximum, [a, b, c])[0]
        XCTAssertEqual(largest.shape, [2, 3])
        let values = try XCTUnwrap(largest.floats)
        XCTAssertEqual(Array(values[0..<2]), [4, 5])
        XCTAssertEqual(Array(values[3..<5]), [4, 5])
        XCTAssertTrue(values[2].isNaN && values[5].isNaN, "a NaN operand gives NaN")
        assertClose(try evaluate(.minimum, [b, c])[0], [2, 3], [3, 2, 0, -1, -1, -1])
        assertClose(try evaluate(.maximum, [b])[0], [3], [4, 2, 0])
        assertFoveaError(.unsupported, "data_1 has data type int64; Max computes on float32 only") {
            try evaluate(.maximum, [b, Tensor(uncheckedShape: [3], storage: .int64([1, 2, 3]))])
        }
    }
}
