/// LayerNormalization, InstanceNormalization and GroupNormalization: each
/// normalizes blocks of consecutive elements by their own mean and variance
/// (accumulated in Double), then scales and shifts.
enum ReferenceFeatureNormalization {
    /// Mean and `1 / sqrt(variance + epsilon)` (population variance) of each block of `size` elements.
    static func statistics(_ values: [Float], blockSize size: Int, epsilon: Float) -> [(mean: Double, inverseDeviation: Double)] {
        guard size > 0 else { return [] }
        return stride(from: 0, to: values.count, by: size).map { start in
            let block = values[start..<(start + size)]
            let mean = block.reduce(0.0) { $0 + Double($1) } / Double(size)
            let variance = block.reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(size)
            return (mean, 1 / (variance + Double(epsilon)).squareRoot())
        }
    }

    /// Normalizes over the axes from `axis` on; Scale and B broadcast to them.
    /// Returns Y and, as many as `outputTypes` asks for, Mean and InvStdDev.
    static func layer(_ args: ReferenceInputs, axis: Int, epsilon: Float, outputTypes: [TensorType]) throws -> [Tensor] {
        let x = try args.tensor(0)
        let input = try x.requireFloats("X")
        let resolved = try normalizedAxis(axis, rank: x.rank)
        let normalizedShape = Array(x.shape[resolved...])
        let size = normalizedShape.elementCount
        let scale = try expanded(args.tensor(1), to: normalizedShape)
        let bias = try args.optional(2).map { try expanded($0, to: normalizedShape) }
        let stats = statistics(input, blockSize: size, epsilon: epsilon)
        var output = [Float](repeating: 0, count: input.count)
        for (block, s) in stats.enumerated() {
            for i in 0..<size {
                let index = block * size + i
                let normalized = Float((Double(input[index]) - s.mean) * s.inverseDeviation)
                output[index] = normalized * scale[i] + (bias?[i] ?? 0)
            }
        }
        // Mean and InvStdDev keep the leading axes and have 1s for the normalized ones.
        let statisticsShape = Array(x.shape[..<resolved]) + [Int](repeating: 1, count: normalizedShape.count)
        let extra = [stats.map { Float($0.mean) }, stats.map { Float($0.inverseDeviation) }]
        return [Tensor(uncheckedShape: x.shape, floats: output)]
            + extra.prefix(Swift.max(0, outputTypes.count - 1)).map { Tensor(uncheckedShape: statisticsShape, floats: $0) }
    }

    /// Per image and channel over the spatial axes; scale and B per channel.
    static func instance(_ args: ReferenceInputs, epsilon: Float) throws -> Tensor {
        let x = try args.tensor(0)
        let channels = x.shape[1]
        return try grouped(x, groups: channels, epsilon: epsilon,
                           scale: try args.floats(1), bias: try args.floats(2), parametersPerChannel: true)
    }

    /// Per image and group of `groups` consecutive channels; scale and bias per channel or per group.
    static func group(_ args: ReferenceInputs, groups: Int, epsilon: Float, perChannel: Bool) throws -> Tensor {
        try grouped(try args.tensor(0), groups: groups, epsilon: epsilon,
                    scale: try args.floats(1), bias: try args.floats(2), parametersPerChannel: perChannel)
    }

    private static func grouped(_ x: Tensor, groups: Int, epsilon: Float, scale: [Float], bias: [Float],
                                parametersPerChannel: Bool) throws -> Tensor {
        let input = try x.requireFloats("X")
        let channels = x.shape[1], plane = x.shape.dropFirst(2).reduce(1, *)
        let channelsPerGroup = channels / groups
        let size = channelsPerGroup * plane
        let stats = statistics(input, blockSize: size, epsilon: epsilon)
        var output = [Float](repeating: 0, count: input.count)
        for (block, s) in stats.enumerated() {
            for i in 0..<size {
                let index = block * size + i
                let channel = (block % groups) * channelsPerGroup + i / plane
                let p = parametersPerChannel ? channel : block % groups
                output[index] = Float((Double(input[index]) - s.mean) * s.inverseDeviation) * scale[p] + bias[p]
            }
        }
        return Tensor(uncheckedShape: x.shape, floats: output)
    }

    /// `tensor`'s floats broadcast to `shape` (shape inference has checked that it broadcasts).
    private static func expanded(_ tensor: Tensor, to shape: [Int]) throws -> [Float] {
        let values = try tensor.requireFloats("Scale")
        if tensor.shape == shape { return values }
        return ReferenceBinary.broadcast(values, tensor.shape, [Float](repeating: 0, count: shape.elementCount), shape, to: shape) { a, _ in a }
    }
}
