import Foundation
import FoveaCore

/// Reads and writes NumPy `.npy` files (format versions 1–3, C order,
/// little-endian `float32`, `int64` and `bool`): how scripts hand tensors to
/// `fovea run` and read its outputs.
public enum NumpyFile {
    private static let magic: [UInt8] = [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59] // "\x93NUMPY"

    /// Reads the `.npy` file at `path`.
    public static func read(contentsOf path: String) throws -> Tensor {
        let data = try FileContents.read(path, expected: "a NumPy .npy file")
        return try FoveaError.at(.init(file: path)) { try decode(data) }
    }

    /// Decodes `.npy` bytes.
    public static func decode(_ data: Data) throws -> Tensor {
        let bytes = [UInt8](data)
        guard bytes.count >= 10, Array(bytes[0..<6]) == magic else {
            throw FoveaError(.invalidArgument, "not a .npy file (no \\x93NUMPY magic)")
        }
        let major = bytes[6]
        let headerLength: Int
        let headerStart: Int
        switch major {
        case 1:
            headerLength = Int(bytes[8]) | Int(bytes[9]) << 8
            headerStart = 10
        case 2, 3:
            guard bytes.count >= 12 else { throw FoveaError(.invalidArgument, "truncated .npy header") }
            headerLength = (0..<4).reduce(0) { $0 | Int(bytes[8 + $1]) << (8 * $1) }
            headerStart = 12
        default:
            throw FoveaError(.unsupported, ".npy format version \(major) is not supported")
        }
        guard headerStart + headerLength <= bytes.count,
              let header = String(bytes: bytes[headerStart..<headerStart + headerLength], encoding: major == 3 ? .utf8 : .isoLatin1) else {
            throw FoveaError(.invalidArgument, "truncated .npy header")
        }
        let (descr, fortranOrder, shape) = try parseHeader(header)
        guard !fortranOrder else {
            throw FoveaError(.unsupported, ".npy array is in Fortran order; save it in C order (np.ascontiguousarray)")
        }
        let body = bytes[(headerStart + headerLength)...]
        let count = shape.elementCount
        switch descr {
        case "<f4", "=f4":
            guard body.count >= count * 4 else { throw truncated(count * 4, body.count) }
            let floats = body.withUnsafeBytes { raw in
                (0..<count).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
            }
            return try Tensor(shape: shape, floats: floats)
        case "<i8", "=i8":
            guard body.count >= count * 8 else { throw truncated(count * 8, body.count) }
            let values = body.withUnsafeBytes { raw in
                (0..<count).map { Int64(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 8, as: Int64.self)) }
            }
            return try Tensor(shape: shape, int64s: values)
        case "|b1":
            guard body.count >= count else { throw truncated(count, body.count) }
            return try Tensor(shape: shape, storage: .bool(body.prefix(count).map { $0 != 0 }))
        case "|u1":
            guard body.count >= count else { throw truncated(count, body.count) }
            return try Tensor(shape: shape, storage: .uint8(Array(body.prefix(count))))
        case "|i1":
            guard body.count >= count else { throw truncated(count, body.count) }
            return try Tensor(shape: shape, storage: .int8(body.prefix(count).map { Int8(bitPattern: $0) }))
        case "<i4", "=i4":
            guard body.count >= count * 4 else { throw truncated(count * 4, body.count) }
            let values = body.withUnsafeBytes { raw in
                (0..<count).map { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self)) }
            }
            return try Tensor(shape: shape, storage: .int32(values))
        default:
            throw FoveaError(.unsupported, ".npy dtype '\(descr)' is not supported (use float32 '<f4', int64 '<i8', int32 '<i4', uint8 '|u1', int8 '|i1' or bool)")
        }
    }

    private static func truncated(_ expected: Int, _ found: Int) -> FoveaError {
        FoveaError(.invalidArgument, "truncated .npy data: expected \(expected) bytes, found \(found)")
    }

    /// Parses `{'descr': '<f4', 'fortran_order': False, 'shape': (1, 3), }`.
    private static func parseHeader(_ header: String) throws -> (String, Bool, [Int]) {
        func value(of key: String) throws -> Substring {
            guard let keyRange = header.range(of: "'\(key)'"),
                  let colon = header[keyRange.upperBound...].firstIndex(of: ":") else {
                throw FoveaError(.invalidArgument, ".npy header has no '\(key)'")
            }
            return header[header.index(after: colon)...].drop(while: { $0 == " " })
        }
        let descrValue = try value(of: "descr")
        guard descrValue.first == "'", let end = descrValue.dropFirst().firstIndex(of: "'") else {
            throw FoveaError(.invalidArgument, ".npy header has a malformed 'descr'")
        }
        let descr = String(descrValue[descrValue.index(after: descrValue.startIndex)..<end])
        let fortran = try value(of: "fortran_order").hasPrefix("True")
        let shapeValue = try value(of: "shape")
        guard shapeValue.first == "(", let close = shapeValue.firstIndex(of: ")") else {
            throw FoveaError(.invalidArgument, ".npy header has a malformed 'shape'")
        }
        let shape = try shapeValue[shapeValue.index(after: shapeValue.startIndex)..<close]
            .split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
            .map { text -> Int in
                guard let n = Int(text), n >= 0 else { throw FoveaError(.invalidArgument, ".npy shape has a bad dimension '\(text)'") }
                return n
            }
        return (descr, fortran, shape)
    }

    /// Encodes `tensor` as `.npy` (format version 1.0).
    public static func encode(_ tensor: Tensor) -> Data {
        let descr: String
        var body = Data()
        switch tensor.storage {
        case .float32(let v):
            descr = "<f4"
            body.reserveCapacity(v.count * 4)
            for x in v { withUnsafeBytes(of: x.bitPattern.littleEndian) { body.append(contentsOf: $0) } }
        case .int64(let v):
            descr = "<i8"
            for x in v { withUnsafeBytes(of: x.littleEndian) { body.append(contentsOf: $0) } }
        case .bool(let v):
            descr = "|b1"
            body.append(contentsOf: v.map { $0 ? 1 : 0 })
        case .uint8(let v):
            descr = "|u1"
            body.append(contentsOf: v)
        case .int8(let v):
            descr = "|i1"
            body.append(contentsOf: v.map { UInt8(bitPattern: $0) })
        case .int32(let v):
            descr = "<i4"
            for x in v { withUnsafeBytes(of: x.littleEndian) { body.append(contentsOf: $0) } }
        }
        let shapeText = tensor.shape.count == 1 ? "(\(tensor.shape[0]),)" : "(" + tensor.shape.map(String.init).joined(separator: ", ") + ")"
        var header = "{'descr': '\(descr)', 'fortran_order': False, 'shape': \(shapeText), }"
        // Pad so that the data starts on a 64-byte boundary, header ending in '\n'.
        let unpadded = magic.count + 2 + 2 + header.utf8.count + 1
        header += String(repeating: " ", count: (64 - unpadded % 64) % 64) + "\n"
        var data = Data(magic)
        data.append(contentsOf: [1, 0])
        let length = UInt16(header.utf8.count)
        data.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8)])
        data.append(contentsOf: Array(header.utf8))
        data.append(body)
        return data
    }

    /// Writes `tensor` to `path` as `.npy`.
    public static func write(_ tensor: Tensor, to path: String) throws {
        do {
            try encode(tensor).write(to: URL(fileURLWithPath: path))
        } catch {
            throw FoveaError(.io, "cannot write file: \(error.localizedDescription)", location: .init(file: path))
        }
    }
}
