import FoveaCore

/// Resize (opset 11 on) in nearest and linear modes. Scales and sizes must be
/// constants; cubic mode, tf_crop_and_resize, antialiasing and aspect-ratio
/// policies other than stretch are refused with a typed error.
extension ONNXOpTranslator {
    static func resize(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        try ctx.expectInputCount(ctx.opset >= 13 ? 1...4 : 3...4)
        let x = try ctx.requiredInput(0, "X")

        let modeName = try a.string("mode") ?? "nearest"
        guard let mode = ResizeAttributes.Mode(rawValue: modeName) else {
            throw modeName == "cubic"
                ? FoveaError(.unsupported, "attribute 'mode' is 'cubic'; Fovea resizes in nearest and linear modes only")
                : FoveaError(.invalidAttribute, "attribute 'mode' is '\(modeName)'; expected nearest, linear or cubic")
        }
        let coordinateName = try a.string("coordinate_transformation_mode") ?? "half_pixel"
        guard let coordinates = ResizeAttributes.CoordinateTransformation(rawValue: coordinateName) else {
            let known = ResizeAttributes.CoordinateTransformation.allCases.map(\.rawValue).joined(separator: ", ")
            throw FoveaError(.unsupported, "attribute 'coordinate_transformation_mode' is '\(coordinateName)'; Fovea supports \(known)")
        }
        let roundingName = try a.string("nearest_mode") ?? "round_prefer_floor"
        guard let rounding = ResizeAttributes.NearestRounding(rawValue: roundingName) else {
            throw FoveaError(.invalidAttribute, "attribute 'nearest_mode' is '\(roundingName)'; expected round_prefer_floor, round_prefer_ceil, floor or ceil")
        }
        // Only cubic mode and tf_crop_and_resize read these, and both are refused above.
        _ = try a.float("cubic_coeff_a")
        _ = try a.float("extrapolation_value")
        if try a.bool("exclude_outside", default: false) {
            throw FoveaError(.unsupported, "attribute 'exclude_outside' is 1; Fovea resizes with exclude_outside = 0 only")
        }
        var axes: [Int]? = nil
        if ctx.opset >= 18 {
            if try a.bool("antialias", default: false) {
                throw FoveaError(.unsupported, "attribute 'antialias' is 1; Fovea resizes without antialiasing only")
            }
            let policy = try a.string("keep_aspect_ratio_policy") ?? "stretch"
            guard policy == "stretch" else {
                throw FoveaError(.unsupported, "attribute 'keep_aspect_ratio_policy' is '\(policy)'; Fovea supports stretch only")
            }
            axes = try a.ints("axes")
        }

        // roi only matters for tf_crop_and_resize; an empty scales tensor means "use sizes".
        let scales = try ctx.constantInput(2, "scales").flatMap { $0.count == 0 ? nil : try $0.requireFloats("input 'scales'") }
        let sizes = try ctx.constantIntegers(3, "sizes").flatMap { $0.isEmpty ? nil : $0 }
        guard (scales == nil) != (sizes == nil) else {
            throw FoveaError(.invalidModel, "needs exactly one of the inputs 'scales' and 'sizes'; found \(scales == nil ? "neither" : "both")")
        }
        let attributes = ResizeAttributes(mode: mode, coordinates: coordinates, nearestRounding: rounding, scales: scales, sizes: sizes, axes: axes)
        return TranslatedNode(op: .resize(attributes), inputs: [x])
    }

    /// Upsample (opsets 7 to 9, deprecated by Resize): scales as an attribute
    /// (7, 8) or a constant input (9); nearest picks `floor(x / scale)`, linear
    /// interpolates at `x / scale` (Resize's asymmetric coordinates).
    static func upsample(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        let x = try ctx.requiredInput(0, "X")
        let scales: [Float]
        if ctx.opset < 9 {
            try ctx.expectInputCount(1...1)
            guard let given = try a.floats("scales") else { throw missing("scales") }
            scales = given
        } else {
            try ctx.expectInputCount(2...2)
            _ = try ctx.requiredInput(1, "scales")
            scales = try ctx.constantInput(1, "scales")?.requireFloats("input 'scales'") ?? []
        }
        guard scales.allSatisfy({ $0 >= 1 }) else {
            throw FoveaError(.invalidAttribute, "'scales' is \(scales); Upsample expects values >= 1")
        }
        let modeName = try a.string("mode") ?? "nearest"
        let mode: ResizeAttributes.Mode
        switch modeName {
        case "nearest": mode = .nearest
        case "linear", "bilinear": mode = .linear
        default: throw FoveaError(.invalidAttribute, "attribute 'mode' is '\(modeName)'; expected nearest or linear")
        }
        let attributes = ResizeAttributes(mode: mode, coordinates: .asymmetric, nearestRounding: .floor, scales: scales)
        return TranslatedNode(op: .resize(attributes), inputs: [x])
    }
}
