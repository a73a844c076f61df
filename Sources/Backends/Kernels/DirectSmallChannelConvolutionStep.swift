import CFoveaKernels
import FoveaCore

/// A convolution with few input channels (an image network's first layer) by
/// a direct loop over its taps (`fovea_conv2d_smallc_f32`): no im2col, whose
/// packing costs more than the GEMM saves when K = C·k·k is 27, and bias and
/// activation fused. Reads the ONNX weights as they are.
struct DirectSmallChannelConvolutionStep: PreparedStep {
    let shape: ConvolutionShape
    let algorithm: String
    private let weights: [Float]
    /// The constant bias, or nil (no bias, or one given at run time).
    private let bias: [Float]?
    private let runTimeBias: Bool

    var writesStridedOutput: Bool { true }
    /// Taps are added in the reference's order; only FMA contraction differs.
    var tolerance: Float { 1e-5 }

    /// Whether the kernels backend takes the direct kernel for `shape`: it
    /// runs it (one group, at most `FOVEA_CONV_SMALLC_MAX_CHANNELS` input
    /// channels, strides 1–2, dilation 1, no fused residual; not 1×1, which the
    /// GEMM reads in place) and it was measured faster than im2col + GEMM.
    /// Measured on the stems (Zen 4, 1 thread, CPU time): 7×7 3→64 2.44 ms
    /// against 2.83, 3×3/2 3→32 0.27 against 0.32, but 3×3/2 3→64 (111²
    /// output) 0.61 against 0.58: with few taps and many output planes the
    /// GEMM's tiles write the output better. So: at least 25 taps, or at most 32
    /// output channels.
    static func prefers(_ shape: ConvolutionShape) -> Bool {
        var params = shape.params
        let taps = params.kernel_height * params.kernel_width
        return !shape.addsResidual && taps > 1 && (taps >= 25 || params.output_channels <= 32)
            && fovea_conv2d_smallc_supports(&params) != 0
    }

    init(shape: ConvolutionShape, weights: [Float], bias: [Float]?, runTimeBias: Bool) {
        self.shape = shape
        self.weights = weights
        self.bias = bias
        self.runTimeBias = runTimeBias
        var params = shape.params
        let kernel = "\(params.kernel_height)x\(params.kernel_width)"
        algorithm = "direct-smallc \(kernel) " + String(cString: fovea_conv2d_smallc_kernel_name(&params)) + shape.fusionSuffix
    }

    func workspaceBytes(threads: Int) -> Int {
        var params = shape.params
        return fovea_conv2d_smallc_workspace_size(&params, threads)
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let x = try buffers.input(0, "Conv"), y = buffers.outputs[0]
        let runTime = runTimeBias ? try buffers.input(2, "Conv").floats : nil
        var params = shape.params
        var activation = shape.activation?.kernelActivation ?? fovea_activation()
        var pool = context.kernelThreadPool
        let status = weights.withUnsafeBufferPointer { w in
            withOptionalPointer(bias) { constantBias in
                fovea_conv2d_smallc_f32(&params, w.baseAddress, runTime.map { UnsafePointer($0) } ?? constantBias,
                                        x.floats, y.floats, y.batchStride, &activation, buffers.workspace,
                                        workspaceBytes(threads: context.threads), &pool)
            }
        }
        try KernelStatus.check(status, "Conv (direct small-channel)")
        try shape.finishActivation(y, context: context)
    }
}
