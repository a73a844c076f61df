import FoveaCore

/// ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceL2, ReduceSumSquare and ArgMax.
///
/// The axes of a reduction are an attribute until they become an optional
/// input (ReduceSum at opset 13, the others at 18), which must then be a
/// constant. Empty or absent axes reduce every axis, unless
/// `noop_with_empty_axes` (from the same opset) asks for no reduction.
extension ONNXOpTranslator {
    static let reductions: [String: Reduction] = Dictionary(uniqueKeysWithValues: Reduction.allCases.map { ($0.typeName, $0) })

    static func reduce(_ ctx: ONNXNodeContext, _ reduction: Reduction) throws -> TranslatedNode {
        let a = ctx.attributes
        let axesAreInput = ctx.opset >= (reduction == .sum ? 13 : 18)
        let keepDims = try a.bool("keepdims", default: true)
        let axes: [Int]
        var noop = false
        if axesAreInput {
            try ctx.expectInputCount(1...2)
            axes = try ctx.constantIntegers(1, "axes") ?? []
            noop = try a.bool("noop_with_empty_axes", default: false)
        } else {
            try ctx.expectInputCount(1...1)
            axes = try a.ints("axes") ?? []
        }
        let data = try ctx.requiredInput(0, "data")
        let canonical: [Int]? = axes.isEmpty ? (noop ? [] : nil) : axes
        return TranslatedNode(op: .reduce(ReduceAttributes(reduction, axes: canonical, keepDims: keepDims)), inputs: [data])
    }

    static func argMax(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        try ctx.expectInputCount(1...1)
        let selectLast = ctx.opset >= 12 ? try a.bool("select_last_index", default: false) : false
        return same(ctx, .argMax(axis: try a.int("axis", default: 0), keepDims: try a.bool("keepdims", default: true),
                                 selectLastIndex: selectLast))
    }
}
