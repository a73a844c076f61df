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
        guard shapes[1...].allSatisfy({ $0.elementCount == channels }) else {
            throw FoveaError(.shapeMismatch, "BatchNormalization parameters must have \(channels) elements (one per channel)")
        }
        var folded: Coefficients?
        let parameters = (1...4).compactMap { node.constant($0)?.floats }
        if parameters.count == 4 {
            guard parameters.allSatisfy({ $0.count == channels }) else {
                throw FoveaError(.shapeMismatch, "BatchNormalization constant parameters do not match their types")
            }
            folded = Coefficients(scale: parameters[0], bias: parameters[1], mean: parameters[2],
                                  variance: parameters[3], epsilon: epsilon, channels: channels)
        }
        return BatchNormalizationStep(shape: shapes[0], epsilon: epsilon, folded: folded)
    }

    /// Per-channel multiplier and offset.
    struct Coefficients: Sendable {
        let factor: [Float]
        let shift: [Float]

        init(scale: [Float], bias: [Float], mean: [Float], variance: [Float], epsilon: Float, channels: Int) {
            var factor = [Float](repeating: 0, count: channels), shift = factor
            factor.withUnsafeMutableBufferPointer { f in
                shift.withUnsafeMutableBufferPointer { s in
                    guard let f = f.baseAddress, let s = s.baseAddress else { return }
                    fold(scale: scale, bias: bias, mean: mean, variance: variance, epsilon: epsilon,
                         channels: channels, factor: f, shift: s)
                }
            }
            self.factor = factor
            self.shift = shift
        }
    }

    /// `factor = scale / sqrt(var + epsilon)`, `shift = bias - mean * factor`,
    /// computed exactly as the reference does, so the result matches it.
    static func fold(scale: UnsafePointer<Float>, bias: UnsafePointer<Float>, mean: UnsafePointer<Float>,
                     variance: UnsafePointer<Float>, epsilon: Float, channels: Int,
                     factor: UnsafeMutablePointer<Float>, shift: UnsafeMutablePointer<Float>) {
        for c in 0..<channels {
            factor[c] = scale[c] / (variance[c] + epsilon).squareRoot()
            shift[c] = bias[c] - mean[c] * factor[c]
        }
    }

    struct BatchNormalizationStep: PreparedStep {
        let shape: [Int]
        let epsilon: Float
        let folded: Coefficients?
        var algorithm: String { folded == nil ? "vector" : "vector folded" }
        var writesStridedOutput: Bool { true }
        /// Each vector of X is loaded before the same elements are stored.
        var overwritableInput: Int? { 0 }

        var channels: Int { shape[1] }

        /// Run-time parameters are folded into the workspace: factors, then shifts.
        func workspaceBytes(threads: Int) -> Int {
            folded == nil ? SIMDStepSupport.workspaceBytes(slices: 2, floats: channels) : 0
        }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let op = "BatchNormalization"
            let x = try buffers.input(0, op)
            guard x.count > 0 else { return }
            let channels = self.channels
            if let folded {
                folded.factor.withUnsafeBufferPointer { factor in
                    folded.shift.withUnsafeBufferPointer { shift in
                        guard let factor = factor.baseAddress, let shift = shift.baseAddress else { return }
                        normalize(x, buffers.outputs[0], factor: factor, shift: shift, context: context)
                    }
                }
            } else {
                let p = try (scale: buffers.input(1, op), bias: buffers.input(2, op),
                             mean: buffers.input(3, op), variance: buffers.input(4, op))
                let factor = try buffers.floatWorkspace(op)
                let shift = factor + SIMDStepSupport.alignedFloats(channels)
                fold(scale: p.scale.floats, bias: p.bias.floats, mean: p.mean.floats, variance: p.variance.floats,
                     epsilon: epsilon, channels: channels, factor: factor, shift: shift)
                normalize(x, buffers.outputs[0], factor: factor, shift: shift, context: context)
            }
        }

        /// `y = x * factor[c] + shift[c]`, plane by plane.
        private func normalize(_ x: TensorView, _ y: TensorView, factor: UnsafePointer<Float>, shift: UnsafePointer<Float>,
                               context: RunContext) {
            let channels = self.channels
            let planeSize = shape.dropFirst(2).reduce(1, *)
            let source = SIMDStepSupport.SharedInput(x), out = SIMDStepSupport.SharedOutput(y)
            let coefficients = (factor: SIMDStepSupport.SharedInput(base: factor), shift: SIMDStepSupport.SharedInput(base: shift))
            SIMDStepSupport.parallelFor(context, count: shape[0] * channels, work: x.count) { range in
                for plane in range {
                    let n = plane / channels, c = plane % channels
                    let a = coefficients.factor.base[c], b = coefficients.shift.base[c]
                    SIMDStepSupport.map(source.base + plane * planeSize, out.image(n) + c * planeSize, count: planeSize) { v in
                        v * a + b
                    }
                }
            }
        }
    }
}
