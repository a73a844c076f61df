import FoveaCore

/// LayerNormalization (the Y output only, scale and bias of the normalized
/// size): rows split across threads; each row's mean and variance summed in
/// vector lanes and combined in Double, then one vector pass normalizes,
/// scales and shifts it.
enum SIMDLayerNormalization: SIMDOperatorFamily {
    typealias Vector = SIMDStepSupport.Vector

    static func supports(_ node: NodeContext) -> Bool {
        Rows(node) != nil
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard let rows = Rows(node) else {
            throw FoveaError(.unsupported, "the simd backend runs LayerNormalization with one output and dense scale and bias")
        }
        return Step(rows: rows, hasBias: node.inputType(2) != nil)
    }

    /// The node as rows (shared with the kernels backend, so both accept the same nodes).
    typealias Rows = LayerNormalizationRows

    struct Step: PreparedStep {
        let rows: Rows
        let hasBias: Bool

        var algorithm: String { "layernorm rows" }
        var overwritableInput: Int? { 0 }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = SIMDStepSupport.SharedInput(try buffers.input(0, "LayerNormalization"))
            let scale = SIMDStepSupport.SharedInput(try buffers.input(1, "LayerNormalization"))
            let bias = hasBias ? SIMDStepSupport.SharedInput(try buffers.input(2, "LayerNormalization")) : nil
            let y = SIMDStepSupport.SharedOutput(buffers.outputs[0])
            let (inner, epsilon) = (rows.inner, rows.epsilon)
            SIMDStepSupport.parallelFor(context, count: rows.outer, work: rows.outer * inner * 4) { range in
                for row in range {
                    normalize(x.base + row * inner, count: inner, epsilon: epsilon, scale: scale.base, bias: bias?.base,
                              into: y.base + row * inner)
                }
            }
        }
    }

    /// One row: `y = (x - mean) / sqrt(variance + epsilon) · scale + bias` (y may be x).
    static func normalize(_ x: UnsafePointer<Float>, count: Int, epsilon: Float, scale: UnsafePointer<Float>,
                          bias: UnsafePointer<Float>?, into y: UnsafeMutablePointer<Float>) {
        let width = SIMDStepSupport.width
        let full = count - count % width
        var lanes = Vector()
        for i in stride(from: 0, to: full, by: width) { lanes += SIMDStepSupport.load(x + i) }
        var sum = (0..<width).reduce(0.0) { $0 + Double(lanes[$1]) }
        for i in full..<count { sum += Double(x[i]) }
        let mean = sum / Double(count)
        // The variance around the mean (two passes: no cancellation).
        let meanVector = Vector(repeating: Float(mean))
        var squares = Vector()
        for i in stride(from: 0, to: full, by: width) {
            let d = SIMDStepSupport.load(x + i) - meanVector
            squares += d * d
        }
        var variance = (0..<width).reduce(0.0) { $0 + Double(squares[$1]) }
        for i in full..<count { variance += (Double(x[i]) - mean) * (Double(x[i]) - mean) }
        variance /= Double(count)
        let inverse = Vector(repeating: Float(1 / (variance + Double(epsilon)).squareRoot()))
        let raw = UnsafeMutableRawPointer(y)
        for i in stride(from: 0, to: full, by: width) {
            var v = (SIMDStepSupport.load(x + i) - meanVector) * inverse * SIMDStepSupport.load(scale + i)
            if let bias { v += SIMDStepSupport.load(bias + i) }
            raw.storeBytes(of: v, toByteOffset: i * MemoryLayout<Float>.stride, as: Vector.self)
        }
        let meanScalar = Float(mean), inverseScalar = inverse[0]
        for i in full..<count {
            y[i] = (x[i] - meanScalar) * inverseScalar * scale[i] + (bias?[i] ?? 0)
        }
    }
}
