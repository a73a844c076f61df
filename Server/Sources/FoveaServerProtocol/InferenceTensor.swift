import Foundation

/// One named tensor of an inference request or response, as the protocol
/// carries it: datatype, shape and row-major elements.
public struct InferenceTensor: Sendable, Equatable {
    /// The elements, by datatype.
    public enum Elements: Sendable, Equatable {
        case fp32([Float])
        case int64([Int64])
        case bool([Bool])
        /// BYTES: one byte string per element (an encoded photo, a label).
        case bytes([Data])

        /// The number of elements.
        public var count: Int {
            switch self {
            case .fp32(let values): return values.count
            case .int64(let values): return values.count
            case .bool(let values): return values.count
            case .bytes(let values): return values.count
            }
        }

        /// The protocol datatype of these elements.
        public var datatype: InferenceDatatype {
            switch self {
            case .fp32: return .fp32
            case .int64: return .int64
            case .bool: return .bool
            case .bytes: return .bytes
            }
        }
    }

    public var name: String
    public var shape: [Int]
    public var elements: Elements

    public var datatype: InferenceDatatype { elements.datatype }

    /// Checks that the shape is valid and holds exactly the elements given.
    public init(name: String, shape: [Int], elements: Elements) throws {
        guard shape.allSatisfy({ $0 >= 0 }) else {
            throw InferenceError.invalid("input '\(name)': shape \(shape) has a negative dimension")
        }
        let (count, overflow) = shape.reduce((1, false)) { partial, dimension in
            let product = partial.0.multipliedReportingOverflow(by: dimension)
            return (product.partialValue, partial.1 || product.overflow)
        }
        guard !overflow, count == elements.count else {
            throw InferenceError.invalid("tensor '\(name)': shape \(shape) holds \(overflow ? "too many" : String(count)) elements but \(elements.count) were given")
        }
        self.name = name
        self.shape = shape
        self.elements = elements
    }
}
