import FoveaCore

// PENDING: declines every node until this family is written (the planner then uses the reference backend).
enum SIMDBinary: SIMDOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool { false }
    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        throw FoveaError(.unsupported, "the simd backend cannot run \(node.op.typeName) yet")
    }
}
