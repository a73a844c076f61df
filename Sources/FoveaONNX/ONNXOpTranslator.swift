import FoveaCore

/// Translates one ONNX node of the default domain into the canonical `Op`,
/// resolving every opset-dependent form (opsets 7 to 21).
///
/// Each translation reads exactly the attributes its opset defines; any other
/// attribute is then refused by ``ONNXAttributes/rejectUnread(opType:opset:)``.
enum ONNXOpTranslator {
    /// The canonical node, or `nil` if Fovea does not know `ctx.opType` at `ctx.opset`.
    static func translate(_ ctx: ONNXNodeContext) throws -> TranslatedNode? {
        guard ONNXOperatorSupport.isSupported(ctx.opType, opset: ctx.opset) else { return nil }
        guard let translated = try translateKnown(ctx) else { return nil }
        try ctx.attributes.rejectUnread(opType: ctx.opType, opset: ctx.opset)
        let outputs = translated.outputs ?? ctx.outputs
        guard outputs.count <= translated.op.outputArity.upperBound else {
            throw FoveaError(.unsupported, "has \(outputs.count) outputs; Fovea computes at most \(translated.op.outputArity.upperBound) for \(ctx.opType)")
        }
        return translated
    }

    private static func translateKnown(_ ctx: ONNXNodeContext) throws -> TranslatedNode? {
        let a = ctx.attributes
        switch ctx.opType {
        case "Conv": return try conv(ctx)
        case "MaxPool": return try maxPool(ctx)
        case "AveragePool": return try averagePool(ctx)
        case "Relu": return same(ctx, .relu)
        case "Sigmoid": return same(ctx, .sigmoid)
        case "LeakyRelu": return same(ctx, .leakyRelu(alpha: try a.float("alpha", default: 0.01)))
        case "PRelu": return same(ctx, .prelu)
        case "HardSigmoid":
            return same(ctx, .hardSigmoid(alpha: try a.float("alpha", default: 0.2), beta: try a.float("beta", default: 0.5)))
        case "HardSwish": return same(ctx, .hardSwish)
        case "Clip": return try clip(ctx)
        case "GlobalAveragePool": return same(ctx, .globalAveragePool)
        case "GlobalMaxPool": return same(ctx, .globalMaxPool)
        case "Concat":
            guard let axis = try a.int("axis") else { throw missing("axis") }
            return same(ctx, .concat(axis: axis))
        case "Softmax": return same(ctx, .softmax(try softmaxAttributes(ctx)))
        case "LogSoftmax": return same(ctx, .logSoftmax(try softmaxAttributes(ctx)))
        case "Flatten": return same(ctx, .flatten(axis: try a.int("axis", default: 1)))
        case "Reshape": return try reshape(ctx)
        case "Squeeze": return try squeeze(ctx)
        case "Unsqueeze": return try unsqueeze(ctx)
        case "Transpose": return same(ctx, .transpose(perm: try permutation(a)))
        case "Gemm": return same(ctx, .gemm(try gemmAttributes(a)))
        case "MatMul": return same(ctx, .matMul)
        case "Add": return same(ctx, .add)
        case "Sub": return same(ctx, .sub)
        case "Mul": return same(ctx, .mul)
        case "Div": return same(ctx, .div)
        case "Sum": return same(ctx, .sum)
        case "BatchNormalization": return try batchNormalization(ctx)
        case "LRN": return same(ctx, .lrn(try lrnAttributes(a)))
        case "Dropout": return try dropout(ctx)
        case "Identity": return same(ctx, .identity)
        case "Pad": return try pad(ctx)
        case "Shape": return try shape(ctx)
        case "Size": return same(ctx, .size)
        case "ArgMax": return try argMax(ctx)
        case "LayerNormalization": return try layerNormalization(ctx)
        case "InstanceNormalization": return try instanceNormalization(ctx)
        case "GroupNormalization": return try groupNormalization(ctx)
        case "Slice": return try slice(ctx)
        case "Split": return try split(ctx)
        case "Gather": return same(ctx, .gather(axis: try a.int("axis", default: 0)))
        case "Expand": return try expand(ctx)
        case "Tile": return try tile(ctx)
        case "Where": return same(ctx, .select)
        case "Equal": return same(ctx, .compare(.equal))
        case "Less": return same(ctx, .compare(.less))
        case "Greater": return same(ctx, .compare(.greater))
        case "LessOrEqual": return same(ctx, .compare(.lessOrEqual))
        case "GreaterOrEqual": return same(ctx, .compare(.greaterOrEqual))
        case "Not": return same(ctx, .not)
        case "Cast": return try cast(ctx)
        case "DepthToSpace": return try depthToSpace(ctx)
        case "SpaceToDepth": return try spaceToDepth(ctx)
        case "ScatterND": return try scatterND(ctx)
        case "QuantizeLinear": return try quantizeLinear(ctx)
        case "DequantizeLinear": return try dequantizeLinear(ctx)
        case "DynamicQuantizeLinear": return same(ctx, .dynamicQuantizeLinear)
        case "QLinearConv": return same(ctx, .qLinearConv(try convAttributes(ctx, weightIndex: 3)))
        case "QLinearMatMul": return same(ctx, .qLinearMatMul)
        case "ConvInteger": return same(ctx, .convInteger(try convAttributes(ctx, weightIndex: 1)))
        case "MatMulInteger": return same(ctx, .matMulInteger)
        case "ConstantOfShape": return try constantOfShape(ctx)
        case "Range": return try range(ctx)
        case "Resize": return try resize(ctx)
        case "Upsample": return try upsample(ctx)
        default:
            if let reduction = reductions[ctx.opType] { return try reduce(ctx, reduction) }
            return try elementwise(ctx).map { same(ctx, $0) }
        }
    }

    /// A node whose inputs all stay tensors.
    static func same(_ ctx: ONNXNodeContext, _ op: Op) -> TranslatedNode {
        TranslatedNode(op: op, inputs: ctx.inputs)
    }

    static func missing(_ attribute: String) -> FoveaError {
        FoveaError(.invalidAttribute, "required attribute '\(attribute)' is missing")
    }

    // MARK: attribute sets

    private static func softmaxAttributes(_ ctx: ONNXNodeContext) throws -> SoftmaxAttributes {
        // Before opset 13 the input is coerced to 2-D at `axis` (default 1);
        // from 13 the softmax runs along one axis (default -1).
        if ctx.opset < 13 {
            return SoftmaxAttributes(axis: try ctx.attributes.int("axis", default: 1), coercedTo2D: true)
        }
        return SoftmaxAttributes(axis: try ctx.attributes.int("axis", default: -1), coercedTo2D: false)
    }

    private static func permutation(_ a: ONNXAttributes) throws -> [Int]? {
        guard let perm = try a.ints("perm") else { return nil }
        guard perm.sorted() == Array(0..<perm.count) else {
            throw FoveaError(.invalidAttribute, "attribute 'perm' is \(perm); expected a permutation of 0..<\(perm.count)")
        }
        return perm
    }

    private static func gemmAttributes(_ a: ONNXAttributes) throws -> GemmAttributes {
        GemmAttributes(
            alpha: try a.float("alpha", default: 1),
            beta: try a.float("beta", default: 1),
            transA: try a.bool("transA", default: false),
            transB: try a.bool("transB", default: false)
        )
    }

    private static func lrnAttributes(_ a: ONNXAttributes) throws -> LRNAttributes {
        guard let size = try a.int("size") else { throw missing("size") }
        guard size >= 1 else {
            throw FoveaError(.invalidAttribute, "attribute 'size' is \(size); expected >= 1")
        }
        return LRNAttributes(
            alpha: try a.float("alpha", default: 0.0001),
            beta: try a.float("beta", default: 0.75),
            bias: try a.float("bias", default: 1),
            size: size
        )
    }

    // MARK: BatchNormalization

    private static func batchNormalization(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        let epsilon = try a.float("epsilon", default: 1e-5)
        _ = try a.float("momentum")  // only used when training
        if ctx.opset < 9 {
            let spatial = try a.int("spatial", default: 1)
            guard spatial == 1 else {
                throw FoveaError(.unsupported, "attribute 'spatial' is \(spatial); Fovea supports only spatial = 1 (per-channel statistics)")
            }
        }
        if ctx.opset >= 14, try a.bool("training_mode", default: false) {
            throw FoveaError(.unsupported, "attribute 'training_mode' is 1; Fovea runs BatchNormalization in inference mode only (expected 0)")
        }
        guard ctx.outputs.count <= 1 else {
            throw FoveaError(.unsupported, "has \(ctx.outputs.count) outputs; Fovea runs BatchNormalization in inference mode only (expected the single output Y)")
        }
        return same(ctx, .batchNormalization(epsilon: epsilon))
    }
}
