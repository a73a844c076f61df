import Foundation
import FoveaCore

/// Turns an ONNX `TensorProto` (an initializer, a `Constant`'s value, a test-data
/// file) into a `Tensor`.
///
/// FLOAT, DOUBLE and FLOAT16 load as float32; INT64 and INT32 as int64; UINT8
/// and INT8 as themselves; BOOL as bool. Elements come from `raw_data` (little-endian, packed) when it is present,
/// otherwise from the typed field ONNX uses for that type (`float_data`,
/// `double_data`, `int64_data`, or `int32_data`, which also carries the bits of
/// BOOL, FLOAT16, UINT8 and INT8).
enum ONNXTensorDecoder {
    static func decode(_ proto: Onnx_TensorProto) throws -> Tensor {
        let label = proto.name.isEmpty ? "tensor" : "tensor '\(proto.name)'"
        if proto.dataLocation == .external {
            throw FoveaError(.unsupported, "external data is not supported; \(label) is stored in a separate file (\(externalLocation(proto))); save the model with all tensors inside the .onnx file")
        }
        guard proto.dataType != 0 else {
            throw FoveaError(.invalidModel, "\(label) has no data type")
        }
        let typeName = ONNXDataType.name(proto.dataType)
        guard ONNXDataType.foveaType(proto.dataType) != nil else {
            throw FoveaError(.unsupported, "\(label) has data type \(typeName); Fovea reads \(ONNXDataType.supportedNames)")
        }
        let shape = try self.shape(proto.dims, label: label)
        let count = shape.elementCount
        let what = "\(label) (\(typeName), shape \(shape.shapeDescription))"

        let storage: Tensor.Storage
        if proto.hasRawData {
            storage = try decodeRaw(proto.rawData, dataType: proto.dataType, count: count, what: what)
        } else {
            storage = try decodeTyped(proto, count: count, what: what)
        }
        return try Tensor(shape: shape, storage: storage)
    }

    /// Checks the dims before any allocation: non-negative, and few enough
    /// elements that their byte count (at most 8 bytes each) cannot overflow.
    private static func shape(_ dims: [Int64], label: String) throws -> [Int] {
        var count = 1
        for dim in dims {
            guard dim >= 0 else {
                throw FoveaError(.invalidModel, "\(label) has a negative dimension in \(dims)")
            }
            let (product, overflow) = count.multipliedReportingOverflow(by: Int(truncatingIfNeeded: dim))
            guard !overflow, product <= Int.max / 8 else {
                throw FoveaError(.invalidModel, "\(label) has dims \(dims), which is too many elements")
            }
            count = product
        }
        return dims.map { Int($0) }
    }

    private static func externalLocation(_ proto: Onnx_TensorProto) -> String {
        let location = proto.externalData.first { $0.key == "location" }?.value
        return location.map { "location '\($0)'" } ?? "no location given"
    }

    // MARK: raw_data

    private static func decodeRaw(_ data: Data, dataType: Int32, count: Int, what: String) throws -> Tensor.Storage {
        func check(elementSize: Int) throws {
            guard data.count == count * elementSize else {
                throw FoveaError(.invalidModel, "\(what) has \(data.count) bytes of raw_data; expected \(count * elementSize) (\(count) × \(elementSize) bytes)")
            }
        }
        switch Onnx_TensorProto.DataType(rawValue: Int(dataType)) {
        case .float:
            try check(elementSize: 4)
            var values: [Float] = copyElements(data, count: count)
            #if _endian(big)
            values = values.map { Float(bitPattern: $0.bitPattern.byteSwapped) }
            #endif
            return .float32(values)
        case .double:
            try check(elementSize: 8)
            var values: [Double] = copyElements(data, count: count)
            #if _endian(big)
            values = values.map { Double(bitPattern: $0.bitPattern.byteSwapped) }
            #endif
            return .float32(values.map { Float($0) })
        case .float16:
            try check(elementSize: 2)
            let bits: [UInt16] = copyElements(data, count: count)
            return .float32(bits.map { Float(halfBits: UInt16(littleEndian: $0)) })
        case .int64:
            try check(elementSize: 8)
            var values: [Int64] = copyElements(data, count: count)
            #if _endian(big)
            values = values.map { $0.byteSwapped }
            #endif
            return .int64(values)
        case .int32:
            try check(elementSize: 4)
            let values: [Int32] = copyElements(data, count: count)
            return .int64(values.map { Int64(Int32(littleEndian: $0)) })
        case .bool:
            try check(elementSize: 1)
            return .bool(data.map { $0 != 0 })
        case .uint8:
            try check(elementSize: 1)
            return .uint8([UInt8](data))
        case .int8:
            try check(elementSize: 1)
            return .int8(data.map { Int8(bitPattern: $0) })
        default:
            throw FoveaError(.unsupported, "\(what): data type is not supported")
        }
    }

    /// The first `count` elements of `data` as `T`, copied byte for byte (host order).
    private static func copyElements<T>(_ data: Data, count: Int) -> [T] {
        [T](unsafeUninitializedCapacity: count) { buffer, initialized in
            data.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: source.prefix(count * MemoryLayout<T>.stride)))
            }
            initialized = count
        }
    }

    // MARK: typed fields

    private static func decodeTyped(_ proto: Onnx_TensorProto, count: Int, what: String) throws -> Tensor.Storage {
        func check(_ found: Int, _ field: String) throws {
            guard found == count else {
                throw FoveaError(.invalidModel, "\(what) has \(found) values in \(field); expected \(count)")
            }
        }
        switch Onnx_TensorProto.DataType(rawValue: Int(proto.dataType)) {
        case .float:
            try check(proto.floatData.count, "float_data")
            return .float32(proto.floatData)
        case .double:
            try check(proto.doubleData.count, "double_data")
            return .float32(proto.doubleData.map { Float($0) })
        case .float16:
            try check(proto.int32Data.count, "int32_data")
            return .float32(proto.int32Data.map { Float(halfBits: UInt16(truncatingIfNeeded: $0)) })
        case .int64:
            try check(proto.int64Data.count, "int64_data")
            return .int64(proto.int64Data)
        case .int32:
            try check(proto.int32Data.count, "int32_data")
            return .int64(proto.int32Data.map { Int64($0) })
        case .bool:
            try check(proto.int32Data.count, "int32_data")
            return .bool(proto.int32Data.map { $0 != 0 })
        case .uint8:
            try check(proto.int32Data.count, "int32_data")
            if let outside = proto.int32Data.first(where: { UInt8(exactly: $0) == nil }) {
                throw FoveaError(.invalidModel, "\(what) has \(outside) in int32_data; UINT8 values are 0...255")
            }
            return .uint8(proto.int32Data.map { UInt8($0) })
        case .int8:
            try check(proto.int32Data.count, "int32_data")
            if let outside = proto.int32Data.first(where: { Int8(exactly: $0) == nil }) {
                throw FoveaError(.invalidModel, "\(what) has \(outside) in int32_data; INT8 values are -128...127")
            }
            return .int8(proto.int32Data.map { Int8($0) })
        default:
            throw FoveaError(.unsupported, "\(what): data type is not supported")
        }
    }
}
