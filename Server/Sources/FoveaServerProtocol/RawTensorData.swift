import Foundation

/// The protocol's raw tensor bytes, shared by the binary data extension (REST)
/// and `raw_input_contents` / `raw_output_contents` (gRPC): elements in
/// row-major order, little-endian, no padding; BOOL one byte each; BYTES each
/// as a 4-byte little-endian length followed by that many bytes.
public enum RawTensorData {
    /// The raw bytes of `elements`.
    public static func encode(_ elements: InferenceTensor.Elements) -> Data {
        switch elements {
        case .fp32(let values):
            return values.withUnsafeBufferPointer { Data(buffer: $0) }
        case .int64(let values):
            return values.withUnsafeBufferPointer { Data(buffer: $0) }
        case .bool(let values):
            return Data(values.map { $0 ? 1 : 0 })
        case .bytes(let values):
            var data = Data(capacity: values.reduce(0) { $0 + 4 + $1.count })
            for value in values {
                withUnsafeBytes(of: UInt32(value.count).littleEndian) { data.append(contentsOf: $0) }
                data.append(value)
            }
            return data
        }
    }

    /// Elements of `datatype` read from `data`, which must hold exactly `count`
    /// of them; `name` is for the error message.
    public static func decode(_ data: Data, datatype: InferenceDatatype, count: Int, name: String) throws -> InferenceTensor.Elements {
        func checkSize(_ elementSize: Int) throws {
            try TensorSize.checkRaw(received: data.count, count: count, datatype: datatype, name: name)
        }
        switch datatype {
        case .fp32:
            try checkSize(4)
            return .fp32(data.withUnsafeBytes { raw in (0..<count).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) } })
        case .int64:
            try checkSize(8)
            return .int64(data.withUnsafeBytes { raw in (0..<count).map { Int64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self)) } })
        case .bool:
            try checkSize(1)
            return .bool(data.map { $0 != 0 })
        case .bytes:
            return .bytes(try decodeBytes(data, count: count, name: name))
        default:
            throw InferenceError.invalid("input '\(name)': datatype \(datatype.rawValue) is not supported (Fovea takes FP32, INT64, BOOL, and BYTES for photos)")
        }
    }

    /// BYTES elements: length-prefixed strings that must fill `data` exactly.
    private static func decodeBytes(_ data: Data, count: Int, name: String) throws -> [Data] {
        // Before reserving: `count` is the client's number, `data` what it sent.
        try TensorSize.checkRaw(received: data.count, count: count, datatype: .bytes, name: name)
        var elements: [Data] = []
        elements.reserveCapacity(count)
        var offset = data.startIndex
        while offset < data.endIndex {
            guard data.endIndex - offset >= 4 else {
                throw InferenceError.invalid("input '\(name)': BYTES data ends inside an element's 4-byte length")
            }
            let length = Int(data[offset..<offset + 4].withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) })
            offset += 4
            guard data.endIndex - offset >= length else {
                throw InferenceError.invalid("input '\(name)': a BYTES element claims \(length) bytes but only \(data.endIndex - offset) remain")
            }
            elements.append(Data(data[offset..<offset + length]))
            offset += length
        }
        guard elements.count == count else {
            throw InferenceError.invalid("input '\(name)': \(elements.count) BYTES elements, but its shape needs \(count)")
        }
        return elements
    }
}
