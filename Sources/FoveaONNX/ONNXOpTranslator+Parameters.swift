import FoveaCore

/// Operators whose parameters moved from attributes to inputs at some opset
/// (Clip, Reshape, Squeeze, Unsqueeze, Pad, Dropout) and Shape. Parameter inputs
/// must be constants; they become attributes of the `Op` and leave the node's inputs.
extension ONNXOpTranslator {
    static func clip(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        if ctx.opset < 11 {
            try ctx.expectInputCount(1...1)
            return same(ctx, .clip(min: try a.float("min"), max: try a.float("max")))
        }
        try ctx.expectInputCount(1...3)
        let input = try ctx.requiredInput(0, "input")
        let op = Op.clip(min: try ctx.constantScalar(1, "min"), max: try ctx.constantScalar(2, "max"))
        return TranslatedNode(op: op, inputs: [input])
    }

    static func reshape(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        try ctx.expectInputCount(1...2)
        let data = try ctx.requiredInput(0, "data")
        let shapeInput = try ctx.requiredInput(1, "shape")
        let allowZero = try ctx.opset >= 14 ? ctx.attributes.bool("allowzero", default: false) : false
        // A shape computed by the graph (Shape → Gather → Concat, for a dynamic
        // batch) stays an input; planning folds it once the input shapes are known.
        guard ctx.constants[shapeInput] != nil else {
            return TranslatedNode(op: .withComputedParameters(.reshape(allowZero: allowZero)), inputs: [data, shapeInput])
        }
        let shape = try ctx.constantIntegers(1, "shape") ?? []
        guard shape.allSatisfy({ $0 >= -1 }), shape.filter({ $0 == -1 }).count <= 1 else {
            throw FoveaError(.invalidAttribute, "input 'shape' is \(shape); expected values >= -1 with at most one -1")
        }
        if allowZero, shape.contains(0), shape.contains(-1) {
            throw FoveaError(.invalidAttribute, "input 'shape' is \(shape); with allowzero = 1 it cannot hold both 0 and -1")
        }
        return TranslatedNode(op: .reshape(shape: shape, allowZero: allowZero), inputs: [data])
    }

    static func squeeze(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        if ctx.opset < 13 {
            try ctx.expectInputCount(1...1)
            return same(ctx, .squeeze(axes: try ctx.attributes.ints("axes")))
        }
        try ctx.expectInputCount(1...2)
        let data = try ctx.requiredInput(0, "data")
        return TranslatedNode(op: .squeeze(axes: try ctx.constantIntegers(1, "axes")), inputs: [data])
    }

    static func unsqueeze(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        if ctx.opset < 13 {
            try ctx.expectInputCount(1...1)
            guard let axes = try ctx.attributes.ints("axes") else { throw missing("axes") }
            return same(ctx, .unsqueeze(axes: axes))
        }
        try ctx.expectInputCount(1...2)
        let data = try ctx.requiredInput(0, "data")
        _ = try ctx.requiredInput(1, "axes")
        return TranslatedNode(op: .unsqueeze(axes: try ctx.constantIntegers(1, "axes") ?? []), inputs: [data])
    }

    static func pad(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        let mode = try a.string("mode") ?? "constant"
        let knownModes = ctx.opset >= 19 ? ["constant", "reflect", "edge", "wrap"] : ["constant", "reflect", "edge"]
        guard knownModes.contains(mode) else {
            throw FoveaError(.invalidAttribute, "attribute 'mode' is '\(mode)'; expected \(knownModes.joined(separator: ", "))")
        }
        if let borderMode = BorderPadMode(rawValue: mode) {
            return try borderPad(ctx, mode: borderMode)
        }
        guard mode == "constant" else {
            throw FoveaError(.unsupported, "attribute 'mode' is '\(mode)'; Fovea supports constant, reflect and edge padding")
        }
        return try constantPad(ctx)
    }

    /// Pad in reflect or edge mode: new cells copy the input, no fill value.
    private static func borderPad(_ ctx: ONNXNodeContext, mode: BorderPadMode) throws -> TranslatedNode {
        let a = ctx.attributes
        let pads: [Int]
        if ctx.opset < 11 {
            try ctx.expectInputCount(1...1)
            guard let given = try a.ints("pads") else { throw missing("pads") }
            pads = given
            _ = try a.float("value", default: 0)
        } else {
            try ctx.expectInputCount(ctx.opset >= 18 ? 1...4 : 1...3)
            _ = try ctx.requiredInput(1, "pads")
            pads = try ctx.constantIntegers(1, "pads") ?? []
            if ctx.opset >= 18, try ctx.constantIntegers(3, "axes") != nil {
                throw FoveaError(.unsupported, "'axes' with mode '\(mode.rawValue)' is not supported; give pads for every axis")
            }
        }
        guard pads.count % 2 == 0 else {
            throw FoveaError(.invalidAttribute, "'pads' has \(pads.count) values \(pads); expected an even count (begins then ends)")
        }
        return TranslatedNode(op: .borderPad(pads: pads, mode: mode), inputs: [try ctx.requiredInput(0, "data")])
    }

    /// Pad in constant mode.
    private static func constantPad(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes

        let pads: [Int]
        let value: Float
        var axes: [Int]? = nil
        var inputs = ctx.inputs
        if ctx.opset < 11 {
            try ctx.expectInputCount(1...1)
            guard let given = try a.ints("pads") else { throw missing("pads") }
            pads = given
            value = try a.float("value", default: 0)
        } else {
            try ctx.expectInputCount(ctx.opset >= 18 ? 1...4 : 1...3)
            inputs = [try ctx.requiredInput(0, "data")]
            let padsInput = try ctx.requiredInput(1, "pads")
            value = try ctx.constantScalar(2, "constant_value") ?? 0
            // Pads (and axes) computed from shapes, as torch.onnx writes Swin-T's
            // padding to a multiple of the window: folded once the shapes are known.
            if !ctx.parametersAreConstant(1..<2) || (ctx.opset >= 18 && !ctx.parametersAreConstant(3..<4)) {
                let axesInput = ctx.opset >= 18 ? ctx.input(3) ?? "" : ""
                return TranslatedNode(op: .withComputedParameters(.pad(value: value)),
                                      inputs: [inputs[0], padsInput] + (axesInput.isEmpty ? [] : [axesInput]))
            }
            pads = try ctx.constantIntegers(1, "pads") ?? []
            if ctx.opset >= 18 {
                axes = try ctx.constantIntegers(3, "axes")
            }
        }
        guard pads.count % 2 == 0 else {
            throw FoveaError(.invalidAttribute, "'pads' has \(pads.count) values \(pads); expected an even count (begins then ends)")
        }
        if let axes, pads.count != 2 * axes.count {
            throw FoveaError(.invalidAttribute, "'pads' has \(pads.count) values; expected \(2 * axes.count) (two per axis in 'axes' \(axes))")
        }
        return TranslatedNode(op: .pad(pads: pads, value: value, axes: axes), inputs: inputs)
    }

    /// Inference-mode Dropout: output 0 is the input; an optional mask output stays output 1.
    static func dropout(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        if ctx.opset < 12 {
            try ctx.expectInputCount(1...1)
            _ = try a.float("ratio")  // only used when training
            return same(ctx, .dropout)
        }
        _ = try a.int("seed")  // only used when training
        try ctx.expectInputCount(1...3)
        let data = try ctx.requiredInput(0, "data")
        _ = try ctx.constantInput(1, "ratio")
        if let trainingMode = try ctx.constantScalar(2, "training_mode"), trainingMode != 0 {
            throw FoveaError(.unsupported, "input 'training_mode' is true; Fovea runs Dropout in inference mode only")
        }
        return TranslatedNode(op: .dropout, inputs: [data])
    }

    static func shape(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        guard ctx.opset >= 15 else { return same(ctx, .shape(start: 0, end: nil)) }
        let a = ctx.attributes
        return same(ctx, .shape(start: try a.int("start", default: 0), end: try a.int("end")))
    }
}
