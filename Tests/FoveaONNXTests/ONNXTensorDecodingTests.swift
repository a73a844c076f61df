import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// Every TensorProto storage form, through `ONNXTensorFile.decode` (which shares
/// the decoder with initializers and Constant values).
final class ONNXTensorDecodingTests: XCTestCase {
    typealias B = ONNXModelBuilder

    private func proto(_ type: Onnx_TensorProto.DataType, dims: [Int64], name: String = "t") -> Onnx_TensorProto {
        var t = Onnx_TensorProto()
        t.name = name
        t.dims = dims
        t.dataType = Int32(type.rawValue)
        return t
    }

    private func decode(_ proto: Onnx_TensorProto) throws -> Tensor {
        let (name, tensor) = try ONNXTensorFile.decode(data: proto.serializedBytes())
        XCTAssertEqual(name, proto.name)
        return tensor
    }

    func testFloatForms() throws {
        var raw = proto(.float, dims: [2, 2])
        raw.rawData = B.littleEndianBytes([Float(1), -2.5, 0, 3e8].map(\.bitPattern))
        XCTAssertEqual(try decode(raw), try Tensor(shape: [2, 2], floats: [1, -2.5, 0, 3e8]))

        var typed = proto(.float, dims: [3])
        typed.floatData = [0.5, 1.5, -7]
        XCTAssertEqual(try decode(typed), try Tensor(shape: [3], floats: [0.5, 1.5, -7]))
    }

    func testDoubleForms() throws {
        var raw = proto(.double, dims: [2])
        raw.rawData = B.littleEndianBytes([Double(0.25), -1e10].map(\.bitPattern))
        XCTAssertEqual(try decode(raw), try Tensor(shape: [2], floats: [0.25, -1e10]))

        var typed = proto(.double, dims: [1, 2])
        typed.doubleData = [3.5, -0.125]
        XCTAssertEqual(try decode(typed), try Tensor(shape: [1, 2], floats: [3.5, -0.125]))
    }

    func testFloat16Forms() throws {
        // 1.0, -2.0, 65504 (largest half), 2^-24 (smallest subnormal), +infinity.
        let bits: [UInt16] = [0x3c00, 0xc000, 0x7bff, 0x0001, 0x7c00]
        let expected: [Float] = [1, -2, 65504, 0x1p-24, .infinity]
        var raw = proto(.float16, dims: [5])
        raw.rawData = B.littleEndianBytes(bits)
        XCTAssertEqual(try decode(raw), try Tensor(shape: [5], floats: expected))

        var typed = proto(.float16, dims: [5])
        typed.int32Data = bits.map { Int32($0) }
        XCTAssertEqual(try decode(typed), try Tensor(shape: [5], floats: expected))

        let nan = Float(halfBits: 0x7e00)
        XCTAssertTrue(nan.isNaN)
        XCTAssertEqual(Float(halfBits: 0x8000).sign, .minus)
        XCTAssertEqual(Float(halfBits: 0x0400), 0x1p-14)  // smallest normal
    }

    func testIntegerForms() throws {
        var raw64 = proto(.int64, dims: [3])
        raw64.rawData = B.littleEndianBytes([Int64(1), -1, Int64.max])
        XCTAssertEqual(try decode(raw64), try Tensor(shape: [3], int64s: [1, -1, Int64.max]))

        var typed64 = proto(.int64, dims: [2])
        typed64.int64Data = [-5, 6]
        XCTAssertEqual(try decode(typed64), try Tensor(shape: [2], int64s: [-5, 6]))

        var raw32 = proto(.int32, dims: [2])
        raw32.rawData = B.littleEndianBytes([Int32(-7), Int32.max])
        XCTAssertEqual(try decode(raw32), try Tensor(shape: [2], int64s: [-7, Int64(Int32.max)]))

        var typed32 = proto(.int32, dims: [2])
        typed32.int32Data = [9, -9]
        XCTAssertEqual(try decode(typed32), try Tensor(shape: [2], int64s: [9, -9]))
    }

    func testBoolForms() throws {
        var raw = proto(.bool, dims: [3])
        raw.rawData = Data([1, 0, 1])
        XCTAssertEqual(try decode(raw), try Tensor(shape: [3], storage: .bool([true, false, true])))

        var typed = proto(.bool, dims: [2])
        typed.int32Data = [0, 1]
        XCTAssertEqual(try decode(typed), try Tensor(shape: [2], storage: .bool([false, true])))
    }

    func testScalarAndEmpty() throws {
        var scalar = proto(.float, dims: [])
        scalar.floatData = [4]
        XCTAssertEqual(try decode(scalar), try Tensor(shape: [], floats: [4]))

        var empty = proto(.float, dims: [2, 0])
        empty.rawData = Data()
        XCTAssertEqual(try decode(empty), try Tensor(shape: [2, 0], floats: []))
    }

    func testCountMismatch() {
        var raw = proto(.float, dims: [2, 3])
        raw.rawData = Data(count: 20)
        assertFoveaError(.invalidModel, containing: "tensor 't' (FLOAT, shape 2×3) has 20 bytes of raw_data; expected 24 (6 × 4 bytes)") { try self.decode(raw) }

        var typed = proto(.int64, dims: [4])
        typed.int64Data = [1, 2, 3]
        assertFoveaError(.invalidModel, containing: "has 3 values in int64_data; expected 4") { try self.decode(typed) }

        var missing = proto(.float, dims: [1_000_000_000_000])
        missing.floatData = [1]
        assertFoveaError(.invalidModel, containing: "has 1 values in float_data; expected 1000000000000") { try self.decode(missing) }

        var negative = proto(.float, dims: [-1])
        negative.floatData = [1]
        assertFoveaError(.invalidModel, containing: "has a negative dimension") { try self.decode(negative) }

        var overflowing = proto(.float, dims: [Int64.max, Int64.max])
        overflowing.floatData = [1]
        assertFoveaError(.invalidModel, containing: "too many elements") { try self.decode(overflowing) }
    }

    /// Quantized models' 8-bit tensors, from raw_data or int32_data (range-checked).
    func testEightBitTypes() throws {
        var raw = proto(.uint8, dims: [3])
        raw.rawData = Data([0, 128, 255])
        XCTAssertEqual(try decode(raw).uint8s, [0, 128, 255])
        var signed = proto(.int8, dims: [3])
        signed.rawData = Data([0x80, 0x7F, 0xFF])
        XCTAssertEqual(try decode(signed).int8s, [-128, 127, -1])
        var typed = proto(.int8, dims: [2])
        typed.int32Data = [-128, 5]
        XCTAssertEqual(try decode(typed).int8s, [-128, 5])
        var outside = proto(.uint8, dims: [2])
        outside.int32Data = [3, 256]
        assertFoveaError(.invalidModel, containing: "has 256 in int32_data; UINT8 values are 0...255") { try self.decode(outside) }
        var short = proto(.int8, dims: [2])
        short.rawData = Data([1])
        assertFoveaError(.invalidModel, containing: "has 1 bytes of raw_data; expected 2") { try self.decode(short) }
    }

    func testUnsupportedTypes() {
        var uint16 = proto(.uint16, dims: [1])
        uint16.rawData = Data([1, 0])
        assertFoveaError(.unsupported, containing: "tensor 't' has data type UINT16; Fovea reads FLOAT, DOUBLE, FLOAT16, INT64, INT32, UINT8, INT8 or BOOL") { try self.decode(uint16) }
        var string = proto(.string, dims: [1])
        string.stringData = [Data("a".utf8)]
        assertFoveaError(.unsupported, containing: "data type STRING") { try self.decode(string) }
        var unknown = proto(.float, dims: [1])
        unknown.dataType = 99
        assertFoveaError(.unsupported, containing: "data type 99") { try self.decode(unknown) }
        let untyped = proto(.undefined, dims: [1])
        assertFoveaError(.invalidModel, containing: "tensor 't' has no data type") { try self.decode(untyped) }
    }

    func testExternalData() {
        var external = proto(.float, dims: [1000])
        external.dataLocation = .external
        var location = Onnx_StringStringEntryProto()
        location.key = "location"
        location.value = "weights.bin"
        external.externalData = [location]
        assertFoveaError(.unsupported, containing: "external data is not supported; tensor 't' is stored in a separate file (location 'weights.bin')") {
            try self.decode(external)
        }
        // In a model, the message names the file.
        let model = B.singleNode(B.node("Add", ["x", "t"], ["y"]), initializers: [external])
        assertFoveaError(.unsupported, containing: "test.onnx: external data is not supported") { try B.load(model) }
    }

    func testTensorFileReadsFromDisk() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fovea-onnx-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("input_0.pb").path
        try (B.floatTensor("x", dims: [1, 2], [3, 4]).serializedBytes() as Data).write(to: URL(fileURLWithPath: path))

        let (name, tensor) = try ONNXTensorFile.read(contentsOf: path)
        XCTAssertEqual(name, "x")
        XCTAssertEqual(tensor, try Tensor(shape: [1, 2], floats: [3, 4]))

        assertFoveaError(.io, containing: "no such file") { try ONNXTensorFile.read(contentsOf: directory.appendingPathComponent("nope.pb").path) }
        assertFoveaError(.io, containing: "is a directory") { try ONNXTensorFile.read(contentsOf: directory.path) }

        let truncated = directory.appendingPathComponent("truncated.pb").path
        try (B.floatTensor("x", dims: [1, 2], [3, 4]).serializedBytes() as Data).prefix(10).write(to: URL(fileURLWithPath: truncated))
        assertFoveaError(.invalidModel, containing: "truncated.pb: not a valid ONNX tensor (TensorProto): protobuf decoding failed") {
            try ONNXTensorFile.read(contentsOf: truncated)
        }
    }
}
