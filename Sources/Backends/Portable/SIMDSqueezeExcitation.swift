import FoveaCore

/// A fused squeeze-and-excitation block (``Op/squeezeExcitation(_:)``) in
/// one step: each channel plane's mean, the two small 1×1 convolutions as
/// matrix–vector products (accumulated in Double, with the reference's
/// activations), and the input scaled by the per-channel gate. The means,
/// the reduced vector and the gate live in the step's workspace
/// (N·(2C + R) floats); the output may overwrite the input.
enum SIMDSqueezeExcitation: SIMDOperatorFamily {
    typealias Vector = SIMDStepSupport.Vector

    static func supports(_ node: NodeContext) -> Bool {
        Step(node) != nil
    }

    static func prepare(_ node: NodeContext) throws -> any PreparedStep {
        guard let step = Step(node) else {
            throw FoveaError(.unsupported, "the simd backend runs SqueezeExcitation with constant weights on N×C×H×W")
        }
        return step
    }

    struct Step: PreparedStep {
        let batch: Int, channels: Int, reduced: Int, plane: Int
        let reduceWeights: [Float], reduceBias: [Float]?, expandWeights: [Float], expandBias: [Float]?
        let reduceActivation: FusedActivation?, gateActivation: FusedActivation?

        var algorithm: String { "squeeze-excitation pool+gemv+scale" }
        var overwritableInput: Int? { 0 }

        /// The step for a planned node with constant weights and biases; `nil` for anything else.
        init?(_ node: NodeContext) {
            guard case .squeezeExcitation(let attributes) = node.op, node.outputTypes.count == 1,
                  let x = node.inputType(0), x.dataType == .float32, x.shape.count == 4, node.outputTypes[0] == x,
                  (try? node.op.outputTypes(inputs: node.inputTypes, outputCount: 1)) == [x],
                  let w1 = node.constant(1)?.floats, let w2 = node.constant(3)?.floats,
                  node.inputType(2) == nil || node.constant(2) != nil, node.inputType(4) == nil || node.constant(4) != nil
            else { return nil }
            batch = x.shape[0]
            channels = x.shape[1]
            plane = x.shape[2] * x.shape[3]
            reduced = w1.count / Swift.max(1, channels)
            guard reduced * channels == w1.count, w2.count == w1.count else { return nil }
            reduceWeights = w1
            expandWeights = w2
            reduceBias = node.constant(2)?.floats
            expandBias = node.constant(4)?.floats
            reduceActivation = attributes.reduce.activation
            gateActivation = attributes.expand.activation
        }

        func workspaceBytes(threads: Int) -> Int {
            batch * (2 * channels + reduced) * MemoryLayout<Float>.stride
        }

        func run(_ buffers: StepBuffers, context: RunContext) throws {
            let x = SIMDStepSupport.SharedInput(try buffers.input(0, "SqueezeExcitation"))
            let y = SIMDStepSupport.SharedOutput(buffers.outputs[0])
            let workspace = try buffers.floatWorkspace("SqueezeExcitation")
            let means = SIMDStepSupport.SharedOutput(base: workspace)
            let hidden = workspace + batch * channels, gate = hidden + batch * reduced
            let plane = self.plane, planes = batch * channels
            SIMDStepSupport.parallelFor(context, count: planes, work: planes * plane) { range in
                for p in range { means.base[p] = SIMDSqueezeExcitation.mean(x.base + p * plane, count: plane) }
            }
            Self.matrixVector(batch: batch, rows: reduced, columns: channels, weights: reduceWeights, bias: reduceBias,
                              activation: reduceActivation, input: workspace, output: hidden)
            Self.matrixVector(batch: batch, rows: channels, columns: reduced, weights: expandWeights, bias: expandBias,
                              activation: gateActivation, input: hidden, output: gate)
            let gates = SIMDStepSupport.SharedInput(base: UnsafePointer(gate))
            SIMDStepSupport.parallelFor(context, count: planes, work: planes * plane) { range in
                for p in range {
                    let factor = gates.base[p]
                    SIMDStepSupport.map(x.base + p * plane, y.base + p * plane, count: plane) { $0 * factor }
                }
            }
        }

        /// `output[n, r] = activation(bias[r] + Σ_c weights[r, c] · input[n, c])`, summed in Double.
        static func matrixVector(batch: Int, rows: Int, columns: Int, weights: [Float], bias: [Float]?, activation: FusedActivation?,
                                 input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
            let apply = activation?.evaluator
            for n in 0..<batch {
                for r in 0..<rows {
                    var sum = Double(bias?[r] ?? 0)
                    for c in 0..<columns { sum += Double(weights[r * columns + c]) * Double(input[n * columns + c]) }
                    let value = Float(sum)
                    output[n * rows + r] = apply.map { $0(value) } ?? value
                }
            }
        }
    }

    /// The mean of `count` values: vector lanes summed, combined in Double.
    static func mean(_ x: UnsafePointer<Float>, count: Int) -> Float {
        let width = SIMDStepSupport.width
        let full = count - count % width
        var lanes = Vector()
        for i in stride(from: 0, to: full, by: width) { lanes += SIMDStepSupport.load(x + i) }
        var sum = (0..<width).reduce(0.0) { $0 + Double(lanes[$1]) }
        for i in full..<count { sum += Double(x[i]) }
        return Float(sum / Double(max(1, count)))
    }
}
