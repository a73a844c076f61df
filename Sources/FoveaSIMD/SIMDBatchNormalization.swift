import FoveaCore

/// BatchNormalization in inference form as `y = x * a[c] + b[c]` per channel,
/// with `a = scale / sqrt(var + epsilon)` and `b = bias - mean * a` folded at
/// prepare time when the four parameters are constants (they nearly always
/// are), else computed on each run.
enum SIMDBatchNormalization: SIMDOperatorFamily {
    typealias Vector = SIMDStepSupport.Vector

    static func supports(_ node: NodeContext) -> Bool {
        guard case .batchNormalization = node.op, node.inputTypes.count == 5 else { return false }
        return SIMDStepSupport.isPlannedFloatNode(node)
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard case .batchNormalization(let epsilon) = node.op else {
            throw FoveaError(.unsupported, "\(node.op.typeName) is not BatchNormalization")
        }
        let shapes = try SIMDStepSupport.plannedShapes(node)
        guard shapes.count == 5, shapes[0].count >= 2 else {
            throw FoveaError(.shapeMismatch, "BatchNormalization needs X of rank >= 2 and four parameters")
        }
        let channels = shapes[0][1]
        var folded: Coefficients?
        let parameters = (1...4).compactMap { node.constant($0)?.floats }
        if parameters.count == 4 {
            folded = try Coefficients(scale: parameters[0], bias: parameters[1], mean: parameters[2],
                                      variance: parameters[3], epsilon: epsilon, channels: channels)
        }
        return BatchNormalizationStep(shapes: shapes, epsilon: epsilon, folded: folded)
    }

    /// Per-channel multiplier and offset.
    struct Coefficients: Sendable {
        let factor: [Float]
        let shift: [Float]

        /// Computed exactly as the reference does, so the result matches it.
        init(scale: [Float], bias: [Float], mean: [Float], variance: [Float], epsilon: Float, channels: Int) throws {
            guard [scale, bias, mean, variance].allSatisfy({ $0.count == channels }) else {
                throw FoveaError(.shapeMismatch, "BatchNormalization parameters must have \(channels) elements (one per channel)")
            }
            var factor = [Float](repeating: 0, count: channels), shift = factor
            for c in 0..<channels {
                factor[c] = scale[c] / (variance[c] + epsilon).squareRoot()
                shift[c] = bias[c] - mean[c] * factor[c]
            }
            self.factor = factor
            self.shift = shift
        }
    }

    struct BatchNormalizationStep: PreparedStep {
        let shapes: [[Int]]
        let epsilon: Float
        let folded: Coefficients?
        var algorithm: String { folded == nil ? "vector" : "vector folded" }

        func run(_ inputs: [Tensor?], context: RunContext) throws -> [Tensor] {
            let op = "BatchNormalization"
            let x = try SIMDStepSupport.floats(inputs, 0, shape: shapes[0], op: op)
            let channels = shapes[0][1]
            let coefficients: Coefficients
            if let folded {
                coefficients = folded
            } else {
                let p = try (1...4).map { try SIMDStepSupport.floats(inputs, $0, shape: shapes[$0], op: op) }
                coefficients = try Coefficients(scale: p[0], bias: p[1], mean: p[2], variance: p[3],
                                                epsilon: epsilon, channels: channels)
            }
            let planeSize = shapes[0].dropFirst(2).reduce(1, *)
            let planes = shapes[0][0] * channels
            let output = SIMDStepSupport.makeFloats(count: x.count) { out in
                SIMDStepSupport.withInput(x) { source in
                    SIMDStepSupport.parallelFor(context, count: planes, work: x.count) { range in
                        for plane in range {
                            let c = plane % channels
                            let a = coefficients.factor[c], b = coefficients.shift[c]
                            let offset = plane * planeSize
                            SIMDStepSupport.map(source.base + offset, out.base + offset, count: planeSize) { v in
                                v * a + b
                            }
                        }
                    }
                }
            }
            return [try Tensor(shape: shapes[0], floats: output)]
        }
    }
}
