import FoveaCore
import FoveaElementwiseKernels

/// Depthwise convolution (group == channels == output channels): each output
/// plane is one input plane convolved with its own k×k kernel, run directly
/// (no GEMM: there is no reduction over channels to share).
struct DepthwiseConvolutionStep: PreparedStep {
    let layout: ConvolutionLayout
    let kernels: GemmKernelSet
    let algorithm: String
    private let weights: [Float]
    /// Per output channel; zeros when the node has no bias, `nil` when it comes at run time.
    private let bias: [Float]?
    private let activation: KernelActivation
    /// An activation the plane kernel does not apply (SiLU, GELU, ...): run
    /// over each output plane right after it is computed.
    private let postActivation: UnaryKernelFunction?

    init(layout: ConvolutionLayout, weights: [Float], bias: [Float]?, activation: FusedActivation?, kernels: GemmKernelSet) {
        self.layout = layout
        self.kernels = kernels
        self.weights = weights
        self.bias = bias
        self.activation = KernelActivation(activation)
        postActivation = activation.flatMap { UnaryKernelFunction($0) }
        algorithm = "depthwise \(layout.kernelHeight)x\(layout.kernelWidth) \(kernels.isa)" + ConvAttributes.fusionSuffix(addsResidual: false, activation: activation)
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
                        kernels.depthwisePlane(
                            shared.x.base + plane * l.inputPlane, l.inputHeight, l.inputWidth,
                            shared.w.base + c * kernelSize, l.kernelHeight, l.kernelWidth,
                            l.strideHeight, l.strideWidth, l.dilationHeight, l.dilationWidth,
                            l.padTop, l.padLeft,
                            shared.y.base + n * yBatchStride + c * l.outputPlane, l.outputHeight, l.outputWidth,
                            shared.b.base[c], activation)
                        if let post {
                            let y = shared.y.base + n * yBatchStride + c * l.outputPlane
                            _ = post.apply(count: l.outputPlane, y, y, pool: nil)
                        }
                    }
                }
            }
        }
    }
}
