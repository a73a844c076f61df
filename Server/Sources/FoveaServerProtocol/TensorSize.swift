/// The one place where sizes a client declares (shapes, element counts, byte
/// counts, offsets) become numbers the server computes with: every product is
/// checked for overflow and every declared size is checked against the bytes
/// actually received, before anything is allocated. REST (JSON and binary
/// data) and gRPC (raw and typed contents) both go through here.
public enum TensorSize {
    /// The element count of `shape`: no negative dimension, no overflow.
    public static func elementCount(_ shape: [Int], name: String) throws -> Int {
        guard shape.allSatisfy({ $0 >= 0 }) else {
            throw InferenceError.invalid("input '\(name)': shape \(shape) has a negative dimension")
        }
        var count = 1
        for dimension in shape {
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            guard !overflow else { throw InferenceError.invalid("input '\(name)': shape \(shape) is too large") }
            count = product
        }
        return count
    }

    /// The bytes one element of `datatype` takes in raw form; `nil` for BYTES
    /// (length-prefixed, variable).
    public static func elementBytes(_ datatype: InferenceDatatype) -> Int? {
        switch datatype {
        case .bool, .uint8, .int8: return 1
        case .uint16, .int16, .fp16: return 2
        case .uint32, .int32, .fp32: return 4
        case .uint64, .int64, .fp64: return 8
        case .bytes: return nil
        }
    }

    /// `count × elementSize`, or an error naming the input when it overflows.
    public static func byteCount(_ count: Int, elementSize: Int, name: String) throws -> Int {
        let (bytes, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow, count >= 0 else { throw InferenceError.invalid("input '\(name)': \(count) elements are too many bytes") }
        return bytes
    }

    /// Checks that `received` raw bytes can hold `count` elements of `datatype`:
    /// exactly `count × size` for fixed-size types; for BYTES at least a 4-byte
    /// length per element, so that no element count beyond what was sent is
    /// ever used to reserve memory.
    public static func checkRaw(received: Int, count: Int, datatype: InferenceDatatype, name: String) throws {
        if let size = elementBytes(datatype) {
            let needed = try byteCount(count, elementSize: size, name: name)
            guard received == needed else {
                throw InferenceError.invalid("input '\(name)': \(received) bytes of \(datatype.rawValue) data, but its shape needs \(needed)")
            }
        } else {
            let needed = try byteCount(count, elementSize: 4, name: name)
            guard received >= needed else {
                throw InferenceError.invalid("input '\(name)': \(received) bytes of BYTES data cannot hold \(count) elements (each needs at least a 4-byte length)")
            }
        }
    }

    /// `a + b` for byte totals, clamped at `Int.max` (compared with a limit afterwards).
    public static func sum(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : total
    }

    /// `a × b` for byte totals, clamped at `Int.max`.
    public static func product(_ a: Int, _ b: Int) -> Int {
        let (total, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? .max : total
    }
}
