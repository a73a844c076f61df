extension StepBuffers {
    /// For a Conv with a fused residual (``ConvAttributes/addsResidual``):
    /// makes output 0 hold input 3, so that the step can run its GEMM with
    /// C += W·X onto it. Nothing is copied when the planner placed the output
    /// over the residual's memory, which it does whenever the residual is
    /// read for the last time there.
    public func startFromResidual(_ op: String) throws {
        let residual = try input(3, op), y = outputs[0]
        guard residual.shape == y.shape, residual.dataType == .float32, y.dataType == .float32 else {
            throw FoveaError(.shapeMismatch, "\(op): the residual input is \(residual.shape.shapeDescription); expected the output's shape \(y.shape.shapeDescription)")
        }
        if residual.base == y.base && (residual.batchStride == y.batchStride || y.batch <= 1) { return }
        let perImage = y.imageCount
        for n in 0..<y.batch { y.image(n).update(from: residual.image(n), count: perImage) }
    }
}
