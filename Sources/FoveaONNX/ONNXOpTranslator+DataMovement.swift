import FoveaCore

/// Slice, Split, Gather, Expand, Tile, Where, Not, Cast,
/// DepthToSpace, SpaceToDepth, and ConstantOfShape and Range, which need
/// constant inputs and become constants themselves.
extension ONNXOpTranslator {
    /// Opset < 10: `starts`, `ends`, `axes` attributes; from 10: constant inputs, plus `steps`.
    static func slice(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let data = try ctx.requiredInput(0, "data")
        if ctx.opset < 10 {
            try ctx.expectInputCount(1...1)
            guard let starts = try ctx.attributes.ints("starts") else { throw missing("starts") }
            guard let ends = try ctx.attributes.ints("ends") else { throw missing("ends") }
            return TranslatedNode(op: .slice(starts: starts, ends: ends, axes: try ctx.attributes.ints("axes"), steps: nil), inputs: [data])
        }
        try ctx.expectInputCount(3...5)
        _ = try ctx.requiredInput(1, "starts")
        _ = try ctx.requiredInput(2, "ends")
        if !ctx.parametersAreConstant(1..<ctx.inputs.count) {
            return TranslatedNode(op: .withComputedParameters(.slice), inputs: ctx.inputs)
        }
        let op = Op.slice(starts: try ctx.constantIntegers(1, "starts") ?? [], ends: try ctx.constantIntegers(2, "ends") ?? [],
                          axes: try ctx.constantIntegers(3, "axes"), steps: try ctx.constantIntegers(4, "steps"))
        return TranslatedNode(op: op, inputs: [data])
    }

    /// The part sizes: attribute `split` before opset 13, a constant input from 13;
    /// from 18 without sizes, `num_outputs` must be given and match the outputs.
    static func split(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        let axis = try a.int("axis", default: 0)
        let input = try ctx.requiredInput(0, "input")
        let sizes: [Int]?
        if ctx.opset < 13 {
            try ctx.expectInputCount(1...1)
            sizes = try a.ints("split")
        } else {
            try ctx.expectInputCount(1...2)
            sizes = try ctx.constantIntegers(1, "split")
        }
        if ctx.opset >= 18 {
            let parts = try a.int("num_outputs")
            if sizes == nil, parts == nil {
                throw FoveaError(.invalidModel, "needs the input 'split' or the attribute 'num_outputs'")
            }
            if let parts, sizes != nil {
                throw FoveaError(.invalidAttribute, "attribute 'num_outputs' is \(parts) but the input 'split' is also given; expected one of them")
            }
            if let parts, parts != ctx.outputs.count {
                throw FoveaError(.invalidAttribute, "attribute 'num_outputs' is \(parts) but the node has \(ctx.outputs.count) outputs")
            }
        }
        return TranslatedNode(op: .split(axis: axis, sizes: sizes), inputs: [input])
    }

    static func expand(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        try ctx.expectInputCount(2...2)
        let input = try ctx.requiredInput(0, "input")
        let shape = try ctx.requiredInput(1, "shape")
        guard ctx.parametersAreConstant(1..<2) else {
            return TranslatedNode(op: .withComputedParameters(.expand), inputs: [input, shape])
        }
        return TranslatedNode(op: .expand(shape: try ctx.constantIntegers(1, "shape") ?? []), inputs: [input])
    }

    static func tile(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        try ctx.expectInputCount(2...2)
        let input = try ctx.requiredInput(0, "input")
        _ = try ctx.requiredInput(1, "repeats")
        return TranslatedNode(op: .tile(repeats: try ctx.constantIntegers(1, "repeats") ?? []), inputs: [input])
    }

    /// `to` is an ONNX data type code; each maps to the Fovea type tensors of that type load as.
    static func cast(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        guard let code = try a.int("to") else { throw missing("to") }
        // saturate (opset 19) only concerns float8 targets, which are refused below.
        if ctx.opset >= 19 { _ = try a.int("saturate") }
        guard let target = ONNXDataType.foveaType(Int32(truncatingIfNeeded: code)) else {
            throw FoveaError(.unsupported, "attribute 'to' is \(ONNXDataType.name(Int32(truncatingIfNeeded: code))); Fovea casts to \(ONNXDataType.supportedNames)")
        }
        return same(ctx, .cast(to: target))
    }

    /// Opset 11 added `mode` (DCR, the earlier behaviour, or CRD).
    static func depthToSpace(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        guard let block = try a.int("blocksize") else { throw missing("blocksize") }
        let mode = ctx.opset >= 11 ? try a.string("mode") ?? "DCR" : "DCR"
        guard mode == "DCR" || mode == "CRD" else {
            throw FoveaError(.invalidAttribute, "attribute 'mode' is '\(mode)'; expected DCR or CRD")
        }
        guard block >= 1 else { throw FoveaError(.invalidAttribute, "attribute 'blocksize' is \(block); expected >= 1") }
        return same(ctx, .depthToSpace(blockSize: block, columnRowDepth: mode == "CRD"))
    }

    /// `reduction` is from opset 16 (none, add, mul); 18 adds max and min.
    static func scatterND(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        try ctx.expectInputCount(3...3)
        let name = ctx.opset >= 16 ? try ctx.attributes.string("reduction") ?? "none" : "none"
        let allowed: [ScatterReduction] = ctx.opset >= 18 ? ScatterReduction.allCases : [.none, .add, .mul]
        guard let reduction = ScatterReduction(rawValue: name), allowed.contains(reduction) else {
            throw FoveaError(.invalidAttribute, "attribute 'reduction' is '\(name)'; expected \(allowed.map(\.rawValue).joined(separator: ", "))")
        }
        return same(ctx, .scatterND(reduction: reduction))
    }

    static func spaceToDepth(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        guard let block = try ctx.attributes.int("blocksize") else { throw missing("blocksize") }
        guard block >= 1 else { throw FoveaError(.invalidAttribute, "attribute 'blocksize' is \(block); expected >= 1") }
        return same(ctx, .spaceToDepth(blockSize: block))
    }

    /// A constant of the shape given by the constant input, filled with the
    /// one-element `value` attribute (float 0 by default), of `value`'s type.
    static func constantOfShape(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        try ctx.expectInputCount(1...1)
        let shapeInput = try ctx.requiredInput(0, "input")
        let fill = try constantOfShapeValue(ctx)
        guard ctx.parametersAreConstant(0..<1) else {
            return TranslatedNode(op: .withComputedParameters(.constantOfShape(value: fill)), inputs: [shapeInput])
        }
        let shape = try ctx.constantIntegers(0, "input") ?? []
        guard shape.allSatisfy({ $0 >= 0 }), let count = checkedProduct(shape), count <= maximumFoldedElements else {
            throw FoveaError(.invalidModel, "input 'input' is \(shape); expected non-negative dimensions with at most \(maximumFoldedElements) elements")
        }
        let storage: Tensor.Storage
        switch fill.storage {
        case .float32(let v): storage = .float32([Float](repeating: v[0], count: count))
        case .int64(let v): storage = .int64([Int64](repeating: v[0], count: count))
        case .bool(let v): storage = .bool([Bool](repeating: v[0], count: count))
        case .uint8(let v): storage = .uint8([UInt8](repeating: v[0], count: count))
        case .int8(let v): storage = .int8([Int8](repeating: v[0], count: count))
        case .int32(let v): storage = .int32([Int32](repeating: v[0], count: count))
        }
        return TranslatedNode(op: .identity, inputs: [], constant: try Tensor(shape: shape, storage: storage))
    }

    /// ConstantOfShape's one-element `value` attribute (float 0 by default).
    private static func constantOfShapeValue(_ ctx: ONNXNodeContext) throws -> Tensor {
        guard let proto = try ctx.attributes.tensor("value") else { return Tensor(shape: [1], repeating: 0) }
        let fill = try ONNXTensorDecoder.decode(proto)
        guard fill.count == 1 else {
            throw FoveaError(.invalidAttribute, "attribute 'value' has \(fill.count) elements; expected 1")
        }
        return fill
    }

    /// `start, start + delta, ...` below `limit` (above it for a negative delta), of the inputs' type.
    static func range(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        try ctx.expectInputCount(3...3)
        // Bounds computed from shapes (Swin-T's window arithmetic) are folded at plan time.
        if !ctx.parametersAreConstant(0..<3) {
            for (index, role) in ["start", "limit", "delta"].enumerated() { _ = try ctx.requiredInput(index, role) }
            return TranslatedNode(op: .withComputedParameters(.range), inputs: ctx.inputs)
        }
        let bounds = try ["start", "limit", "delta"].enumerated().map { index, role -> Tensor in
            _ = try ctx.requiredInput(index, role)
            guard let tensor = try ctx.constantInput(index, role), tensor.count == 1 else {
                throw FoveaError(.invalidModel, "input '\(role)' must be a scalar")
            }
            return tensor
        }
        guard Set(bounds.map(\.dataType)).count == 1 else {
            throw FoveaError(.invalidModel, "start, limit and delta have data types \(bounds.map(\.dataType)); expected one type")
        }
        if bounds[0].dataType == .int64 {
            let values = bounds.compactMap { $0.int64s?.first }
            let (start, limit, delta) = (values[0], values[1], values[2])
            guard delta != 0 else { throw FoveaError(.invalidModel, "input 'delta' is 0") }
            let count = Swift.max(0, Int((Double(limit - start) / Double(delta)).rounded(.up)))
            guard count <= maximumFoldedElements else { throw FoveaError(.invalidModel, "Range has \(count) elements; at most \(maximumFoldedElements) are folded") }
            return TranslatedNode(op: .identity, inputs: [], constant: try Tensor(shape: [count], int64s: (0..<count).map { start + Int64($0) * delta }))
        }
        let values = try bounds.map { try $0.requireFloats($0.dataType == .bool ? "bool bounds" : "bounds")[0] }
        let (start, limit, delta) = (values[0], values[1], values[2])
        guard delta != 0, delta.isFinite, start.isFinite, limit.isFinite else {
            throw FoveaError(.invalidModel, "Range needs finite bounds and a non-zero delta; found \(start), \(limit), \(delta)")
        }
        let count = Swift.max(0, Int(((limit - start) / delta).rounded(.up)))
        guard count <= maximumFoldedElements else { throw FoveaError(.invalidModel, "Range has \(count) elements; at most \(maximumFoldedElements) are folded") }
        return TranslatedNode(op: .identity, inputs: [], constant: try Tensor(shape: [count], floats: (0..<count).map { start + Float($0) * delta }))
    }

    /// The most elements a constant made at load time may have, so that a
    /// file's declared sizes cannot make the loader allocate without bound.
    static let maximumFoldedElements = 1 << 26
}
