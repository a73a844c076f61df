import FoveaCore

/// Depthwise convolution (group == channels == output channels): each output
/// plane is one input plane convolved with its own k×k kernel, run directly
/// (no GEMM: there is no reduction over channels to share).
struct DepthwiseConvolutionStep: PreparedStep {
    let layout: ConvolutionLayout
    let algorithm: String
    private let weights: [Float]
    /// Per output channel; zeros when the node has no bias, `nil` when it comes at run time.
    private let bias: [Float]?
    private let activation: KernelActivation
    /// An activation the plane kernel does not apply (SiLU, GELU, ...): run
    /// over each output plane right after it is computed.
    private let postActivation: FusedActivation?

    init(layout: ConvolutionLayout, weights: [Float], bias: [Float]?, activation: FusedActivation?) {
        self.layout = layout
        self.weights = weights
        self.bias = bias
        self.activation = KernelActivation(activation)
        postActivation = activation.flatMap { $0.isPiecewiseLinear ? nil : $0 }
        algorithm = "depthwise \(layout.kernelHeight)x\(layout.kernelWidth)" + ConvAttributes.fusionSuffix(addsResidual: false, activation: activation)
    }

    var writesStridedOutput: Bool { true }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let x = try buffers.input(0, "Conv")
        let output = buffers.outputs[0]
        // `self.bias` is set at prepare time unless the bias arrives at run time.
        let runBias = bias == nil ? GemmSharedReadPointer(base: try buffers.input(2, "Conv").floats) : nil
        let l = layout
        let kernelSize = l.kernelHeight * l.kernelWidth
        (bias ?? []).withUnsafeBufferPointer { preparedBias in
            weights.withUnsafeBufferPointer { wBuffer in
                guard let w = wBuffer.baseAddress, let b = runBias?.base ?? preparedBias.baseAddress else { return }
                let shared = (x: GemmSharedReadPointer(base: x.floats), w: GemmSharedReadPointer(base: w),
                              y: GemmSharedPointer(base: output.floats), b: GemmSharedReadPointer(base: b))
                let (activation, post, yBatchStride) = (self.activation, self.postActivation, output.batchStride)
                context.parallelFor(l.batch * l.channels) { planes in
                    for plane in planes {
                        let n = plane / l.channels, c = plane % l.channels
                        depthwisePlane(
                            x: shared.x.base + plane * l.inputPlane, inputHeight: l.inputHeight, inputWidth: l.inputWidth,
                            kernel: shared.w.base + c * kernelSize, kernelHeight: l.kernelHeight, kernelWidth: l.kernelWidth,
                            strideHeight: l.strideHeight, strideWidth: l.strideWidth,
                            dilationHeight: l.dilationHeight, dilationWidth: l.dilationWidth,
                            padTop: l.padTop, padLeft: l.padLeft,
                            y: shared.y.base + n * yBatchStride + c * l.outputPlane,
                            outputHeight: l.outputHeight, outputWidth: l.outputWidth,
                            bias: shared.b.base[c], activation: activation.code, p0: activation.p0, p1: activation.p1)
                        if let post {
                            let y = shared.y.base + n * yBatchStride + c * l.outputPlane
                            SIMDElementwiseFunction.apply(post, y, y, count: l.outputPlane)
                        }
                    }
                }
            }
        }
    }
}
