/// A dense, row-major tensor: a shape and its elements.
///
/// `Tensor` is a value type with copy-on-write storage (Swift arrays), so it is
/// cheap to pass around and safe to share across threads.
public struct Tensor: Sendable, Equatable {
    /// The elements, tagged with their type.
    public enum Storage: Sendable, Equatable {
        /// 32-bit floats, row-major.
        case float32([Float])
        /// 64-bit integers, row-major.
        case int64([Int64])
        /// Booleans, row-major.
        case bool([Bool])
        /// Unsigned 8-bit integers, row-major.
        case uint8([UInt8])
        /// Signed 8-bit integers, row-major.
        case int8([Int8])
        /// Signed 32-bit integers, row-major.
        case int32([Int32])
    }

    /// The extent of each axis; `[]` is a scalar.
    public let shape: [Int]
    /// The elements in row-major order; their count is `shape.elementCount`.
    public let storage: Storage

    /// Creates a tensor, checking that the element count matches the shape.
    public init(shape: [Int], storage: Storage) throws {
        guard shape.allSatisfy({ $0 >= 0 }) else {
            throw FoveaError(.shapeMismatch, "shape \(shape) has a negative dimension")
        }
        let count: Int
        switch storage {
        case .float32(let v): count = v.count
        case .int64(let v): count = v.count
        case .bool(let v): count = v.count
        case .uint8(let v): count = v.count
        case .int8(let v): count = v.count
        case .int32(let v): count = v.count
        }
        guard count == shape.elementCount else {
            throw FoveaError(.shapeMismatch, "shape \(shape.shapeDescription) needs \(shape.elementCount) elements, found \(count)")
        }
        self.shape = shape
        self.storage = storage
    }

    /// Creates a float tensor, checking that the element count matches the shape.
    public init(shape: [Int], floats: [Float]) throws {
        try self.init(shape: shape, storage: .float32(floats))
    }

    /// Creates an int64 tensor, checking that the element count matches the shape.
    public init(shape: [Int], int64s: [Int64]) throws {
        try self.init(shape: shape, storage: .int64(int64s))
    }

    /// A float tensor of `shape` filled with `value`.
    public init(shape: [Int], repeating value: Float) {
        self.shape = shape
        self.storage = .float32([Float](repeating: value, count: shape.elementCount))
    }

    /// For callers that have already established `count == shape.elementCount`.
    init(uncheckedShape shape: [Int], storage: Storage) {
        self.shape = shape
        self.storage = storage
    }

    /// The element type, read from ``storage``.
    public var dataType: DataType {
        switch storage {
        case .float32: return .float32
        case .int64: return .int64
        case .bool: return .bool
        case .uint8: return .uint8
        case .int8: return .int8
        case .int32: return .int32
        }
    }

    /// The number of axes: 0 for a scalar.
    public var rank: Int { shape.count }
    /// The number of elements: the product of ``shape`` (1 for a scalar).
    public var count: Int { shape.elementCount }

    /// The elements if this is a float tensor.
    public var floats: [Float]? {
        if case .float32(let v) = storage { return v }
        return nil
    }

    /// The elements if this is an int64 tensor.
    public var int64s: [Int64]? {
        if case .int64(let v) = storage { return v }
        return nil
    }

    /// The elements if this is a bool tensor.
    public var bools: [Bool]? {
        if case .bool(let v) = storage { return v }
        return nil
    }

    /// The elements if this is a uint8 tensor.
    public var uint8s: [UInt8]? {
        if case .uint8(let v) = storage { return v }
        return nil
    }

    /// The elements if this is an int8 tensor.
    public var int8s: [Int8]? {
        if case .int8(let v) = storage { return v }
        return nil
    }

    /// The elements if this is an int32 tensor.
    public var int32s: [Int32]? {
        if case .int32(let v) = storage { return v }
        return nil
    }

    /// The elements of an integer tensor (uint8, int8, int32 or int64) widened to `Int`,
    /// or `nil` for float and bool tensors.
    public var quantizedIntegers: [Int]? {
        switch storage {
        case .uint8(let v): return v.map { Int($0) }
        case .int8(let v): return v.map { Int($0) }
        case .int32(let v): return v.map { Int($0) }
        case .int64(let v): return v.map { Int($0) }
        case .float32, .bool: return nil
        }
    }

    /// The same elements under another shape with the same element count.
    public func reshaped(_ newShape: [Int]) throws -> Tensor {
        guard newShape.elementCount == count else {
            throw FoveaError(.shapeMismatch, "cannot reshape \(shape.shapeDescription) (\(count) elements) to \(newShape.shapeDescription)")
        }
        return Tensor(uncheckedShape: newShape, storage: storage)
    }

    /// The float elements, or a typed error naming `role` if this is not a float tensor.
    public func requireFloats(_ role: String = "input") throws -> [Float] {
        guard let v = floats else {
            throw FoveaError(.unsupported, "\(role) has data type \(dataType); expected float32")
        }
        return v
    }

    /// The elements as integers (int64 tensors, or float tensors holding whole numbers).
    public func integerValues(_ role: String = "input") throws -> [Int] {
        switch storage {
        case .int64(let v): return v.map { Int($0) }
        case .float32(let v):
            guard v.allSatisfy({ $0 == $0.rounded() && abs($0) < 1e15 }) else {
                throw FoveaError(.invalidArgument, "\(role) must hold integers")
            }
            return v.map { Int($0) }
        case .bool(let v): return v.map { $0 ? 1 : 0 }
        case .uint8(let v): return v.map { Int($0) }
        case .int8(let v): return v.map { Int($0) }
        case .int32(let v): return v.map { Int($0) }
        }
    }
}
