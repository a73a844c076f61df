import FoveaCore

extension ONNXOpTranslator {
    /// Opset 13 added `axis` (per-axis scales); 19 added `saturate` (float8 only);
    /// 21 added `block_size` (blocked quantization, refused) and `output_dtype`.
    static func quantizeLinear(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        let axis = ctx.opset >= 13 ? try a.int("axis", default: 1) : 1
        if ctx.opset >= 19 { _ = try a.int("saturate") }
        if ctx.opset >= 21 { try refuseBlocks(a) }
        var outputType: DataType = .uint8
        if let zeroPoint = ctx.input(2) {
            guard let constant = ctx.constants[zeroPoint] else {
                throw FoveaError(.unsupported, "input 'y_zero_point' of QuantizeLinear must be a constant (initializer or Constant); its type sets the output's")
            }
            outputType = constant.dataType
        }
        if ctx.opset >= 21, let code = try a.int("output_dtype"), code != 0 {
            guard let type = ONNXDataType.foveaType(Int32(truncatingIfNeeded: code)), type.quantizedRange != nil,
                  ctx.input(2) == nil || type == outputType else {
                throw FoveaError(.unsupported, "attribute 'output_dtype' is \(ONNXDataType.name(Int32(truncatingIfNeeded: code))); Fovea quantizes to UINT8 or INT8, the zero point's type")
            }
            outputType = type
        }
        guard outputType.quantizedRange != nil else {
            throw FoveaError(.unsupported, "y_zero_point has data type \(outputType); Fovea quantizes to UINT8 or INT8")
        }
        return same(ctx, .quantizeLinear(QuantizeLinearAttributes(axis: axis, outputType: outputType)))
    }

    static func dequantizeLinear(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        let axis = ctx.opset >= 13 ? try a.int("axis", default: 1) : 1
        if ctx.opset >= 21 { try refuseBlocks(a) }
        return same(ctx, .dequantizeLinear(axis: axis))
    }

    private static func refuseBlocks(_ a: ONNXAttributes) throws {
        let blockSize = try a.int("block_size", default: 0)
        guard blockSize == 0 else {
            throw FoveaError(.unsupported, "attribute 'block_size' is \(blockSize): blocked quantization is not supported (per-tensor and per-axis are)")
        }
    }
}
