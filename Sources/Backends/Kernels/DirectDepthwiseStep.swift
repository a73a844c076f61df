import CFoveaKernels
import FoveaCore

/// A depthwise convolution (groups == channels) by direct loops per channel
/// plane: dedicated 3×3, 5×5 and 7×7 stride-1 and stride-2 kernels
/// (ConvNeXt's 7×7, EfficientNet's 5×5), a general k×k one otherwise, bias and
/// activation fused (`fovea_depthwise_conv2d_f32`).
/// Depthwise convolutions do too little work per weight for a GEMM to pay.
struct DirectDepthwiseStep: PreparedStep {
    let shape: ConvolutionShape
    let algorithm: String
    private let weights: [Float]
    /// The constant bias, or nil (no bias, or one given at run time).
    private let bias: [Float]?
    private let runTimeBias: Bool

    var writesStridedOutput: Bool { true }
    /// Taps are added in the reference's order; only FMA contraction differs.
    var tolerance: Float { 1e-5 }

    init(shape: ConvolutionShape, weights: [Float], bias: [Float]?, runTimeBias: Bool) {
        self.shape = shape
        self.weights = weights
        self.bias = bias
        self.runTimeBias = runTimeBias
        var params = shape.params
        algorithm = String(cString: fovea_depthwise_kernel_name(&params)) + shape.fusionSuffix
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let x = try buffers.input(0, "Conv"), y = buffers.outputs[0]
        let runTime = runTimeBias ? try buffers.input(2, "Conv").floats : nil
        var params = shape.params
        var activation = shape.activation?.kernelActivation ?? fovea_activation()
        var pool = context.kernelThreadPool
        let status = weights.withUnsafeBufferPointer { w in
            withOptionalPointer(bias) { constantBias in
                fovea_depthwise_conv2d_f32(&params, w.baseAddress, runTime.map { UnsafePointer($0) } ?? constantBias,
                                           x.floats, y.floats, y.batchStride, &activation, &pool)
            }
        }
        try KernelStatus.check(status, "Conv (depthwise)")
        try shape.finishActivation(y, context: context)
    }
}
