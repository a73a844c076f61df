import Fovea
import Foundation
import FoveaServerProtocol

extension InferenceDatatype {
    /// The protocol datatype of a Fovea tensor element type.
    public init(_ dataType: DataType) {
        switch dataType {
        case .float32: self = .fp32
        case .int64: self = .int64
        case .bool: self = .bool
        // Quantized models' 8-bit and int32 tensors travel widened to INT64 (exact), the
        // integer elements this server sends (InferenceTensor.Elements).
        case .uint8, .int8, .int32: self = .int64
        }
    }
}

extension InferenceTensor {
    /// A Fovea tensor as a protocol tensor.
    public init(name: String, tensor: Tensor) throws {
        switch tensor.dataType {
        case .float32: try self.init(name: name, shape: tensor.shape, elements: .fp32(tensor.floats ?? []))
        case .int64: try self.init(name: name, shape: tensor.shape, elements: .int64(tensor.int64s ?? []))
        case .bool: try self.init(name: name, shape: tensor.shape, elements: .bool(tensor.bools ?? []))
        case .uint8, .int8, .int32:
            try self.init(name: name, shape: tensor.shape, elements: .int64((tensor.quantizedIntegers ?? []).map(Int64.init)))
        }
    }

    /// The Fovea tensor for a numeric protocol tensor; BYTES has none.
    func foveaTensor() throws -> Tensor {
        switch elements {
        case .fp32(let values): return try Tensor(shape: shape, floats: values)
        case .int64(let values): return try Tensor(shape: shape, int64s: values)
        case .bool(let values): return try Tensor(shape: shape, storage: .bool(values))
        case .bytes: throw InferenceError.invalid("input '\(name)': BYTES is not a numeric tensor")
        }
    }
}
