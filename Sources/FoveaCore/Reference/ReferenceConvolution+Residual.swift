extension ReferenceConvolution {
    /// A Conv with a fused residual (``ConvAttributes/addsResidual``): the
    /// convolution with its bias, plus input 3, then the fused activation, in
    /// the order the unfused Conv → Add → activation nodes compute them.
    static func runAddingResidual(_ args: ReferenceInputs, _ attributes: ConvAttributes, outputShape: [Int]) throws -> Tensor {
        var plain = attributes
        plain.activation = nil
        plain.addsResidual = false
        var values = try run(args, plain, outputShape: outputShape).requireFloats("Conv output")
        let residual = try args.tensor(3)
        guard residual.shape == outputShape else {
            throw FoveaError(.shapeMismatch, "the residual input is \(residual.shape.shapeDescription); expected the output's shape \(outputShape.shapeDescription)")
        }
        let r = try residual.requireFloats("residual")
        for i in values.indices { values[i] += r[i] }
        if let activation = attributes.activation { values = values.map(activation.apply) }
        return Tensor(uncheckedShape: outputShape, floats: values)
    }
}
