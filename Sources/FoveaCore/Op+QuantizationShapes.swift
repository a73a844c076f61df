extension Op {
    /// Output types of the quantized operators, checking each scale and zero
    /// point's type and shape as ONNX defines them.
    func quantizationTypes(_ args: InferenceInputs) throws -> [TensorType] {
        switch self {
        case .quantizeLinear(let attributes):
            let x = try args.float(0, "x")
            guard attributes.outputType.quantizedRange != nil else {
                throw FoveaError(.unsupported, "output type \(attributes.outputType); QuantizeLinear produces uint8 or int8")
            }
            try Self.checkQuantization(args, scale: 1, zeroPoint: 2, of: x, axis: attributes.axis, zeroPointType: attributes.outputType)
            return [TensorType(attributes.outputType, x.shape)]
        case .dequantizeLinear(let axis):
            let x = try args.required(0, "x")
            guard x.dataType.isQuantizedInteger || x.dataType == .int64 else {
                throw FoveaError(.unsupported, "x has data type \(x.dataType); DequantizeLinear reads uint8, int8 or int32")
            }
            try Self.checkQuantization(args, scale: 1, zeroPoint: 2, of: x, axis: axis, zeroPointType: x.dataType)
            return [TensorType(.float32, x.shape)]
        case .dynamicQuantizeLinear:
            let x = try args.float(0, "x")
            return [TensorType(.uint8, x.shape), TensorType(.float32, []), TensorType(.uint8, [])]
        case .qLinearConv(let attributes):
            let x = try Self.eightBit(args, 0, "x"), w = try Self.eightBit(args, 3, "w")
            let y = try Self.convolutionType(Self.asFloat(args, [0, 3]), attributes)
            try Self.checkScalar(args, 1, "x_scale", .float32)
            try Self.checkScalar(args, 2, "x_zero_point", x.dataType)
            try Self.checkPerChannel(args, 4, "w_scale", .float32, count: y.shape[1])
            try Self.checkPerChannel(args, 5, "w_zero_point", w.dataType, count: y.shape[1])
            try Self.checkScalar(args, 6, "y_scale", .float32)
            let outputType = try Self.eightBit(args, 7, "y_zero_point").dataType
            try Self.checkScalar(args, 7, "y_zero_point", outputType)
            try Self.checkBias(args, 8, count: y.shape[1])
            return [TensorType(outputType, y.shape)]
        case .qLinearMatMul:
            let a = try Self.eightBit(args, 0, "a"), b = try Self.eightBit(args, 3, "b")
            let y = try Self.matMulType(Self.asFloat(args, [0, 3]))
            try Self.checkScalar(args, 1, "a_scale", .float32)
            try Self.checkScalar(args, 2, "a_zero_point", a.dataType)
            let columns = b.shape.count >= 2 ? b.shape[b.shape.count - 1] : 1
            try Self.checkPerChannel(args, 4, "b_scale", .float32, count: columns)
            try Self.checkPerChannel(args, 5, "b_zero_point", b.dataType, count: columns)
            try Self.checkScalar(args, 6, "y_scale", .float32)
            let outputType = try Self.eightBit(args, 7, "y_zero_point").dataType
            try Self.checkScalar(args, 7, "y_zero_point", outputType)
            return [TensorType(outputType, y.shape)]
        case .convInteger(let attributes):
            let x = try Self.eightBit(args, 0, "x"), w = try Self.eightBit(args, 1, "w")
            let y = try Self.convolutionType(Self.asFloat(args, [0, 1]), attributes)
            if args.optional(2) != nil { try Self.checkScalar(args, 2, "x_zero_point", x.dataType) }
            if args.optional(3) != nil { try Self.checkPerChannel(args, 3, "w_zero_point", w.dataType, count: y.shape[1]) }
            return [TensorType(.int32, y.shape)]
        case .matMulInteger:
            let a = try Self.eightBit(args, 0, "A"), b = try Self.eightBit(args, 1, "B")
            let y = try Self.matMulType(Self.asFloat(args, [0, 1]))
            let rows = a.shape.count >= 2 ? a.shape[a.shape.count - 2] : 1
            let columns = b.shape.count >= 2 ? b.shape[b.shape.count - 1] : 1
            if args.optional(2) != nil { try Self.checkPerChannel(args, 2, "a_zero_point", a.dataType, count: rows) }
            if args.optional(3) != nil { try Self.checkPerChannel(args, 3, "b_zero_point", b.dataType, count: columns) }
            return [TensorType(.int32, y.shape)]
        case .quantizedConv(let attributes):
            _ = try Self.eightBit(args, 0, "x")
            _ = try Self.eightBit(args, 1, "w")
            let y = try Self.convolutionType(Self.asFloat(args, [0, 1]), attributes.convolution)
            let channels = y.shape[1]
            guard attributes.outputType.quantizedRange != nil,
                  [1, channels].contains(attributes.weightScales.count),
                  attributes.weightZeroPoints.count == attributes.weightScales.count else {
                throw FoveaError(.invalidAttribute, "QuantizedConv needs a uint8 or int8 output and 1 or \(channels) weight scales and zero points; found \(attributes.outputType), \(attributes.weightScales.count) scales, \(attributes.weightZeroPoints.count) zero points")
            }
            try Self.checkBias(args, 2, count: channels)
            return [TensorType(attributes.outputType, y.shape)]
        case .qLinearGlobalAveragePool(let channelsLast):
            let x = try Self.eightBit(args, 0, "X")
            guard x.shape.count >= 3 else {
                throw FoveaError(.shapeMismatch, "X is \(x.shape.shapeDescription); expected rank >= 3 (N×C×spatial)")
            }
            try Self.checkScalar(args, 1, "x_scale", .float32)
            try Self.checkScalar(args, 2, "x_zero_point", x.dataType)
            try Self.checkScalar(args, 3, "y_scale", .float32)
            try Self.checkScalar(args, 4, "y_zero_point", x.dataType)
            let spatial = [Int](repeating: 1, count: x.shape.count - 2)
            let shape = channelsLast ? [x.shape[0]] + spatial + [x.shape[x.shape.count - 1]] : Array(x.shape.prefix(2)) + spatial
            return [TensorType(x.dataType, shape)]
        default:
            throw FoveaError(.unsupported, "\(typeName) is not a quantized operator")
        }
    }

    /// The inputs with those at `indices` retyped as float32, so that the float
    /// operators' shape rules (convolution, matmul) apply to integer operands.
    private static func asFloat(_ args: InferenceInputs, _ indices: [Int]) -> InferenceInputs {
        var types: [TensorType?] = indices.map { args.optional($0).map { TensorType(.float32, $0.shape) } }
        types.append(nil)
        return InferenceInputs(types: types, opName: args.opName)
    }

    private static func eightBit(_ args: InferenceInputs, _ index: Int, _ role: String) throws -> TensorType {
        let type = try args.required(index, role)
        guard type.dataType.quantizedRange != nil else {
            throw FoveaError(.unsupported, "\(role) has data type \(type.dataType); \(args.opName) reads uint8 or int8")
        }
        return type
    }

    private static func checkScalar(_ args: InferenceInputs, _ index: Int, _ role: String, _ dataType: DataType) throws {
        let type = try args.required(index, role)
        guard type.dataType == dataType, type.shape.count <= 1, type.shape.elementCount == 1 else {
            throw FoveaError(.shapeMismatch, "\(role) is \(type); expected one \(dataType) value")
        }
    }

    /// One value, or one per output channel (a 1-D tensor of `count`).
    private static func checkPerChannel(_ args: InferenceInputs, _ index: Int, _ role: String, _ dataType: DataType, count: Int) throws {
        let type = try args.required(index, role)
        guard type.dataType == dataType, type.shape.count <= 1, [1, count].contains(type.shape.elementCount) else {
            throw FoveaError(.shapeMismatch, "\(role) is \(type); expected \(dataType), one value or \(count) (one per output channel)")
        }
    }

    /// An int32 bias (int64 as ONNX INT32 loads) with one value per output channel.
    private static func checkBias(_ args: InferenceInputs, _ index: Int, count: Int) throws {
        guard let b = args.optional(index) else { return }
        guard b.dataType == .int32 || b.dataType == .int64, b.shape == [count] else {
            throw FoveaError(.shapeMismatch, "B is \(b); expected int32 \([count].shapeDescription) (one per output channel)")
        }
    }

    /// QuantizeLinear's and DequantizeLinear's scale and zero point: one value for the
    /// tensor, or a 1-D tensor with one per index of `axis`; the zero point (optional)
    /// of `zeroPointType` and the scale's shape.
    private static func checkQuantization(_ args: InferenceInputs, scale: Int, zeroPoint: Int, of x: TensorType, axis: Int, zeroPointType: DataType) throws {
        let s = try args.float(scale, "scale")
        if s.shape.elementCount != 1 || s.shape.count > 1 {
            guard s.shape.count == 1 else {
                throw FoveaError(.unsupported, "scale is \(s.shape.shapeDescription); expected a scalar or a 1-D tensor (blocked quantization is not supported)")
            }
            let normalized = try normalizedAxis(axis, rank: x.shape.count)
            guard s.shape[0] == x.shape[normalized] else {
                throw FoveaError(.shapeMismatch, "scale has \(s.shape[0]) values; expected \(x.shape[normalized]), one per index of axis \(axis) of x (\(x.shape.shapeDescription))")
            }
        }
        if let z = args.optional(zeroPoint) {
            // ONNX INT32 loads as int64, so an int32 x may come with an int64 zero point.
            let sameType = z.dataType == zeroPointType || (z.dataType == .int64 && zeroPointType == .int32) || (z.dataType == .int32 && zeroPointType == .int64)
            guard sameType, z.shape.elementCount == s.shape.elementCount, z.shape.count <= 1 else {
                throw FoveaError(.shapeMismatch, "zero point is \(z); expected \(zeroPointType) with the scale's shape \(s.shape.shapeDescription)")
            }
        }
    }
}
