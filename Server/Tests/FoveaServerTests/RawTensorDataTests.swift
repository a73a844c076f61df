import Foundation
import FoveaServer
import XCTest

final class RawTensorDataTests: XCTestCase {
    func testEveryDatatypeRoundTrips() throws {
        let cases: [InferenceTensor.Elements] = [
            .fp32([0, -1.5, .pi, .leastNonzeroMagnitude, .greatestFiniteMagnitude]),
            .int64([0, -1, .max, .min]),
            .bool([true, false, true]),
            .bytes([Data(), Data("hello".utf8), Data([0, 255, 7])]),
        ]
        for elements in cases {
            let raw = RawTensorData.encode(elements)
            XCTAssertEqual(try RawTensorData.decode(raw, datatype: elements.datatype, count: elements.count, name: "x"), elements)
        }
    }

    func testTheLayoutIsLittleEndianWithLengthPrefixedBytes() {
        XCTAssertEqual(Array(RawTensorData.encode(.fp32([1]))), [0, 0, 0x80, 0x3f])
        XCTAssertEqual(Array(RawTensorData.encode(.bytes([Data("ab".utf8)]))), [2, 0, 0, 0, 0x61, 0x62])
    }

    func testSizesThatDoNotMatchTheShapeAreErrors() {
        XCTAssertThrowsError(try RawTensorData.decode(Data(count: 7), datatype: .fp32, count: 2, name: "x")) { error in
            XCTAssertEqual((error as? InferenceError)?.message, "input 'x': 7 bytes of FP32 data, but its shape needs 8")
        }
        // A length that runs past the end, a truncated length, too few elements.
        XCTAssertThrowsError(try RawTensorData.decode(Data([9, 0, 0, 0, 1]), datatype: .bytes, count: 1, name: "x"))
        XCTAssertThrowsError(try RawTensorData.decode(Data([1, 0]), datatype: .bytes, count: 1, name: "x"))
        XCTAssertThrowsError(try RawTensorData.decode(Data([0, 0, 0, 0]), datatype: .bytes, count: 2, name: "x"))
        XCTAssertThrowsError(try RawTensorData.decode(Data(count: 2), datatype: .fp16, count: 1, name: "x")) { error in
            XCTAssertEqual((error as? InferenceError)?.kind, .invalidArgument)
        }
    }

    func testATensorMustHoldExactlyItsShapesElements() {
        XCTAssertThrowsError(try InferenceTensor(name: "x", shape: [2, 2], elements: .fp32([1, 2, 3])))
        XCTAssertThrowsError(try InferenceTensor(name: "x", shape: [-1], elements: .fp32([])))
        XCTAssertThrowsError(try InferenceTensor(name: "x", shape: [Int.max, 4], elements: .fp32([])))
        XCTAssertNoThrow(try InferenceTensor(name: "x", shape: [0, 5], elements: .fp32([])))
    }
}
