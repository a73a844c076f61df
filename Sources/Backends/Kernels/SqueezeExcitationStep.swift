import CFoveaKernels
import FoveaCore

/// A squeeze-and-excitation block (``Op/squeezeExcitation(_:)``) in one
/// step: the C global average pool into a workspace vector, the two small
/// 1×1 convolutions as matrix–vector products (accumulated in Double, with
/// the reference's activations), and the C broadcast multiply of the input by
/// the per-channel gate. The gate, the pooled vector and the reduced vector
/// live in the step's workspace (N·(2C + R) floats); only the output is a
/// tensor, and it may overwrite the input.
public struct SqueezeExcitationStep: PreparedStep {
    let batch: Int, channels: Int, reduced: Int, plane: Int
    let reduceWeights: [Float], reduceBias: [Float]?, expandWeights: [Float], expandBias: [Float]?
    let reduceActivation: FusedActivation?, gateActivation: FusedActivation?

    public var algorithm: String { "squeeze-excitation pool+gemv+scale" }
    public var overwritableInput: Int? { 0 }

    /// The step for a planned node with constant weights and biases; `nil` (with no
    /// step) for anything else, so the backend declines it.
    public init?(_ node: NodeContext) {
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

    public func workspaceBytes(threads: Int) -> Int {
        batch * (2 * channels + reduced) * MemoryLayout<Float>.stride
    }

    public func run(_ buffers: StepBuffers, context: RunContext) throws {
        let x = try buffers.input(0, "SqueezeExcitation"), y = buffers.outputs[0]
        let pooled = try buffers.floatWorkspace("SqueezeExcitation")
        let hidden = pooled + batch * channels, gate = hidden + batch * reduced
        var pool = context.kernelThreadPool
        try KernelStatus.check(fovea_global_avgpool_f32(batch, channels, plane, x.floats, pooled, &pool), "SqueezeExcitation (pool)")
        Self.matrixVector(batch: batch, rows: reduced, columns: channels, weights: reduceWeights, bias: reduceBias,
                          activation: reduceActivation, input: pooled, output: hidden)
        Self.matrixVector(batch: batch, rows: channels, columns: reduced, weights: expandWeights, bias: expandBias,
                          activation: gateActivation, input: hidden, output: gate)
        let shape = [batch, channels, plane], gateShape = [batch, channels, 1]
        let status = shape.withUnsafeBufferPointer { s in
            gateShape.withUnsafeBufferPointer { g in
                fovea_binary_f32(FOVEA_BINARY_MUL, 3, s.baseAddress, x.floats, 3, g.baseAddress, gate, 3, s.baseAddress, y.floats,
                                 nil, &pool)
            }
        }
        try KernelStatus.check(status, "SqueezeExcitation (scale)")
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
