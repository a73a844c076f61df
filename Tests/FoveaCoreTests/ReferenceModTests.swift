import XCTest
@testable import FoveaCore

/// Mod on the reference backend: Python's sign rule on int64 (Swin's window
/// arithmetic on shapes, `(w - W % w) % w`), C's fmod on both types.
final class ReferenceModTests: XCTestCase {
    private let dividends = Tensor(uncheckedShape: [4], storage: .int64([7, -7, 7, -7]))
    private let divisors = Tensor(uncheckedShape: [4], storage: .int64([3, 3, -3, -3]))

    func testIntegerRemainderTakesTheDivisorsSign() throws {
        XCTAssertEqual(try evaluate1(.mod(fmod: false), dividends, divisors).int64s, [1, 2, -2, -1])
        XCTAssertEqual(try evaluate1(.mod(fmod: true), dividends, divisors).int64s, [1, -1, 1, -1])
        // Swin-T's padding: (7 - 56 % 7) % 7 = 0, with a scalar divisor broadcast.
        let scalar = Tensor(uncheckedShape: [], storage: .int64([7]))
        XCTAssertEqual(try evaluate1(.mod(fmod: false), Tensor(uncheckedShape: [2], storage: .int64([56, 58])), scalar).int64s, [0, 2])
        // Int64.min % -1 would trap in Swift: it is 0.
        XCTAssertEqual(try evaluate1(.mod(fmod: true), Tensor(uncheckedShape: [1], storage: .int64([.min])),
                                     Tensor(uncheckedShape: [1], storage: .int64([-1]))).int64s, [0])
    }

    func testFloatFmodAndItsErrors() throws {
        let a = try floats([4], [5.5, -5.5, 5.5, -5.5]), b = try floats([4], [2, 2, -2, -2])
        XCTAssertEqual(try evaluate1(.mod(fmod: true), a, b).floats, [1.5, -1.5, 1.5, -1.5])
        assertFoveaError(.invalidAttribute, "attribute 'fmod' is 0 with float32 inputs") { try evaluate1(.mod(fmod: false), a, b) }
        assertFoveaError(.unsupported, "A has data type float32 and B int64") { try evaluate1(.mod(fmod: true), a, self.divisors) }
        assertFoveaError(.invalidArgument, "integer modulo by zero") {
            try evaluate1(.mod(fmod: false), self.dividends, Tensor(uncheckedShape: [1], storage: .int64([0])))
        }
    }
}
