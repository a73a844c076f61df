import FoveaCore

/// Conv, MaxPool and AveragePool: the operators with spatial window attributes.
extension ONNXOpTranslator {
    static func conv(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        same(ctx, .conv(try convAttributes(ctx, weightIndex: 1)))
    }

    /// Conv's attributes, shared by QLinearConv and ConvInteger, whose weight is input `weightIndex`.
    static func convAttributes(_ ctx: ONNXNodeContext, weightIndex: Int) throws -> ConvAttributes {
        let a = ctx.attributes
        let weight = try ctx.requiredInput(weightIndex, "W")
        let weightShape = ctx.constants[weight]?.shape ?? ctx.declaredShapes[weight]
        let kernel: [Int]
        if let given = try a.ints("kernel_shape") {
            try checkKernel(given)
            if let weightShape, weightShape.count != given.count + 2 || Array(weightShape.dropFirst(2)) != given {
                throw FoveaError(.invalidAttribute, "attribute 'kernel_shape' is \(given); expected \(Array(weightShape.dropFirst(2))) from the shape \(weightShape.shapeDescription) of weight '\(weight)'")
            }
            kernel = given
        } else {
            // ONNX lets the kernel shape default to the weight's spatial dims.
            guard let weightShape, weightShape.count >= 3 else {
                throw FoveaError(.invalidAttribute, "attribute 'kernel_shape' is missing and the shape of weight '\(weight)' is not known at load time (expected a constant weight of rank >= 3)")
            }
            kernel = Array(weightShape.dropFirst(2))
            try checkKernel(kernel)
        }
        let window = try windowAttributes(a, spatialRank: kernel.count, readsDilations: true)
        let group = try a.int("group", default: 1)
        guard group >= 1 else {
            throw FoveaError(.invalidAttribute, "attribute 'group' is \(group); expected >= 1")
        }
        return ConvAttributes(
            kernelShape: kernel, strides: window.strides, dilations: window.dilations,
            pads: window.pads, autoPad: window.autoPad, group: group
        )
    }

    static func maxPool(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        // storage_order (opset 8) only changes how the optional Indices output
        // flattens positions; Fovea computes row-major indices.
        if ctx.opset >= 8 {
            let order = try a.int("storage_order", default: 0)
            guard order == 0 else {
                throw FoveaError(.unsupported, "attribute 'storage_order' is \(order); Fovea supports only 0 (row-major Indices)")
            }
        }
        let attributes = try poolAttributes(ctx, dilationsSince: 10, countIncludePad: false)
        return same(ctx, .maxPool(attributes))
    }

    static func averagePool(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let attributes = try poolAttributes(ctx, dilationsSince: 19, countIncludePad: true)
        return same(ctx, .averagePool(attributes))
    }

    // MARK: -

    /// `ceil_mode` exists from opset 10; `dilations` from `dilationsSince`.
    private static func poolAttributes(_ ctx: ONNXNodeContext, dilationsSince: Int, countIncludePad: Bool) throws -> PoolAttributes {
        let a = ctx.attributes
        guard let kernel = try a.ints("kernel_shape") else { throw missing("kernel_shape") }
        try checkKernel(kernel)
        let window = try windowAttributes(a, spatialRank: kernel.count, readsDilations: ctx.opset >= dilationsSince)
        let ceilMode = try ctx.opset >= 10 ? a.bool("ceil_mode", default: false) : false
        let includePad = try countIncludePad ? a.bool("count_include_pad", default: false) : false
        return PoolAttributes(
            kernelShape: kernel, strides: window.strides, dilations: window.dilations,
            pads: window.pads, autoPad: window.autoPad, ceilMode: ceilMode, countIncludePad: includePad
        )
    }

    private static func checkKernel(_ kernel: [Int]) throws {
        guard !kernel.isEmpty, kernel.allSatisfy({ $0 >= 1 }) else {
            throw FoveaError(.invalidAttribute, "attribute 'kernel_shape' is \(kernel); expected one value >= 1 per spatial axis")
        }
    }

    private struct Window {
        var strides: [Int]
        var dilations: [Int]
        var pads: [Int]
        var autoPad: AutoPad
    }

    /// strides, dilations, pads and auto_pad over `spatialRank` axes, with ONNX's defaults.
    private static func windowAttributes(_ a: ONNXAttributes, spatialRank k: Int, readsDilations: Bool) throws -> Window {
        func perAxis(_ name: String, count: Int, default value: Int, minimum: Int) throws -> [Int] {
            guard let values = try a.ints(name) else { return [Int](repeating: value, count: count) }
            guard values.count == count else {
                throw FoveaError(.invalidAttribute, "attribute '\(name)' has \(values.count) values \(values); expected \(count) (for \(k) spatial axes)")
            }
            guard values.allSatisfy({ $0 >= minimum }) else {
                throw FoveaError(.invalidAttribute, "attribute '\(name)' is \(values); expected values >= \(minimum)")
            }
            return values
        }
        let strides = try perAxis("strides", count: k, default: 1, minimum: 1)
        let dilations = try readsDilations ? perAxis("dilations", count: k, default: 1, minimum: 1) : [Int](repeating: 1, count: k)
        let pads = try perAxis("pads", count: 2 * k, default: 0, minimum: 0)
        let autoPadName = try a.string("auto_pad") ?? "NOTSET"
        guard let autoPad = AutoPad(rawValue: autoPadName) else {
            throw FoveaError(.invalidAttribute, "attribute 'auto_pad' is '\(autoPadName)'; expected NOTSET, SAME_UPPER, SAME_LOWER or VALID")
        }
        return Window(strides: strides, dilations: dilations, pads: pads, autoPad: autoPad)
    }
}
