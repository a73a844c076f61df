import FoveaCore

/// LayerNormalization (opset 17), InstanceNormalization and GroupNormalization (opset 18, 21).
extension ONNXOpTranslator {
    static func layerNormalization(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        try ctx.expectInputCount(2...3)
        try requireFloatStash(a)
        return same(ctx, .layerNormalization(axis: try a.int("axis", default: -1), epsilon: try a.float("epsilon", default: 1e-5)))
    }

    static func instanceNormalization(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        try ctx.expectInputCount(3...3)
        return same(ctx, .instanceNormalization(epsilon: try ctx.attributes.float("epsilon", default: 1e-5)))
    }

    /// Opset 18 gives scale and bias per group; opset 21 per channel (and adds `stash_type`).
    static func groupNormalization(_ ctx: ONNXNodeContext) throws -> TranslatedNode {
        let a = ctx.attributes
        try ctx.expectInputCount(3...3)
        guard let groups = try a.int("num_groups") else { throw missing("num_groups") }
        guard groups >= 1 else {
            throw FoveaError(.invalidAttribute, "attribute 'num_groups' is \(groups); expected >= 1")
        }
        if ctx.opset >= 21 { try requireFloatStash(a) }
        return same(ctx, .groupNormalization(groups: groups, epsilon: try a.float("epsilon", default: 1e-5), perChannel: ctx.opset >= 21))
    }

    /// `stash_type` is the precision of the mean and variance; Fovea computes them
    /// in float (or better) and accepts only 1 (float32).
    private static func requireFloatStash(_ a: ONNXAttributes) throws {
        let stash = try a.int("stash_type", default: 1)
        guard stash == 1 else {
            throw FoveaError(.unsupported, "attribute 'stash_type' is \(stash); Fovea computes the statistics in float32 only (expected 1)")
        }
    }
}
