import XCTest
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

final class NumpyFileTests: XCTestCase {
    func testRoundTripsEveryDataType() throws {
        let tensors = [
            try Tensor(shape: [2, 3], floats: [1, -2.5, 3, .infinity, 0, 1e-30]),
            try Tensor(shape: [4], int64s: [1, -2, Int64.max, 0]),
            try Tensor(shape: [1, 2], storage: .bool([true, false])),
            try Tensor(shape: [], floats: [7]),
            try Tensor(shape: [0, 3], floats: []),
        ]
        for tensor in tensors {
            let data = NumpyFile.encode(tensor)
            XCTAssertEqual(data.count % 64, tensor.count * tensor.dataType.byteSize % 64, "the data starts on a 64-byte boundary")
            XCTAssertEqual(try NumpyFile.decode(data), tensor)
        }
    }

    func testReadsAHeaderWrittenByNumPy() throws {
        // np.save of np.arange(6, dtype=np.float32).reshape(2, 3): format 1.0, 118-byte header.
        var header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"
        header += String(repeating: " ", count: 118 - header.count - 1) + "\n"
        var data = Data([0x93] + Array("NUMPY".utf8) + [1, 0, 118, 0]) + Data(header.utf8)
        for x: Float in [0, 1, 2, 3, 4, 5] { withUnsafeBytes(of: x.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        XCTAssertEqual(try NumpyFile.decode(data), try Tensor(shape: [2, 3], floats: [0, 1, 2, 3, 4, 5]))
    }

    func testRejectsBadFiles() throws {
        let good = NumpyFile.encode(try Tensor(shape: [2, 2], floats: [1, 2, 3, 4]))
        XCTAssertThrowsError(try NumpyFile.decode(Data()))
        XCTAssertThrowsError(try NumpyFile.decode(Data("not numpy at all".utf8)))
        XCTAssertThrowsError(try NumpyFile.decode(good.prefix(good.count - 1)))
        XCTAssertThrowsError(try NumpyFile.decode(good.prefix(20)))
        let fortran = replacing("False", with: "True ", in: good)
        XCTAssertThrowsError(try NumpyFile.decode(fortran)) { error in
            XCTAssertTrue(String(describing: error).contains("Fortran"))
        }
        let float64 = replacing("<f4", with: "<f8", in: good)
        XCTAssertThrowsError(try NumpyFile.decode(float64)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .unsupported)
        }
    }

    /// Replaces the first occurrence of an ASCII string of the same length (the header is ASCII, the magic is not).
    private func replacing(_ old: String, with new: String, in data: Data) -> Data {
        var bytes = [UInt8](data)
        let pattern = Array(old.utf8)
        guard let start = (0...(bytes.count - pattern.count)).first(where: { Array(bytes[$0..<$0 + pattern.count]) == pattern }) else { return data }
        bytes.replaceSubrange(start..<start + pattern.count, with: Array(new.utf8))
        return Data(bytes)
    }
}
