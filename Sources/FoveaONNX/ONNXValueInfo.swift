import FoveaCore

/// Declared types of graph inputs and outputs.
enum ONNXValueInfo {
    /// `role` is `graph input` or `graph output`, for messages. An output whose
    /// type is not declared is float32 of unknown shape (shape inference decides);
    /// an input must declare its type.
    static func valueInfo(_ proto: Onnx_ValueInfoProto, role: String) throws -> ValueInfo {
        guard !proto.name.isEmpty else {
            throw FoveaError(.invalidModel, "a \(role) has no name")
        }
        let label = "\(role) '\(proto.name)'"
        guard proto.hasType else {
            guard role == "graph output" else {
                throw FoveaError(.invalidModel, "\(label) has no type")
            }
            return ValueInfo(name: proto.name, dataType: .float32, dimensions: nil)
        }
        guard case .tensorType(let tensorType)? = proto.type.value else {
            throw FoveaError(.unsupported, "\(label) is not a tensor (sequence, map, optional and sparse types are not supported)")
        }
        guard tensorType.elemType != 0 else {
            throw FoveaError(.invalidModel, "\(label) has no element type")
        }
        guard let dataType = ONNXDataType.foveaType(tensorType.elemType) else {
            throw FoveaError(.unsupported, "\(label) has element type \(ONNXDataType.name(tensorType.elemType)); Fovea reads \(ONNXDataType.supportedNames)")
        }
        guard tensorType.hasShape else {
            return ValueInfo(name: proto.name, dataType: dataType, dimensions: nil)
        }
        let dimensions = try tensorType.shape.dim.map { dim -> TensorDimension in
            switch dim.value {
            case .dimValue(let n)?:
                guard n >= 0 else {
                    throw FoveaError(.invalidModel, "\(label) has a negative dimension \(n)")
                }
                return .known(Int(n))
            case .dimParam(let name)?:
                return .symbolic(name)
            case nil:
                return .symbolic("")
            }
        }
        return ValueInfo(name: proto.name, dataType: dataType, dimensions: dimensions)
    }
}
