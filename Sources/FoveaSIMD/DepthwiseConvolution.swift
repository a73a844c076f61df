import FoveaCore

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

    init(layout: ConvolutionLayout, weights: [Float], bias: [Float]?, activation: FusedActivation?, kernels: GemmKernelSet) {
        self.layout = layout
        self.kernels = kernels
        self.weights = weights
        self.bias = bias
        self.activation = KernelActivation(activation)
        algorithm = "depthwise \(layout.kernelHeight)x\(layout.kernelWidth) \(kernels.isa)" + SIMDConvolution.activationSuffix(activation)
    }

    func run(_ inputs: [Tensor?], context: RunContext) throws -> [Tensor] {
        let input = try SIMDConvolution.checkedInput(inputs, layout)
        // `self.bias` is set at prepare time unless the bias arrives at run time.
        guard let bias = try SIMDConvolution.runBias(self.bias, inputs, count: layout.outputChannels) else {
            throw FoveaError(.invalidModel, "Conv bias input is missing")
        }
        let l = layout
        let total = l.outputShape.elementCount
        let kernelSize = l.kernelHeight * l.kernelWidth
        let output = [Float](unsafeUninitializedCapacity: total) { buffer, count in
            guard let y = buffer.baseAddress else { count = 0; return }
            input.withUnsafeBufferPointer { xBuffer in
                weights.withUnsafeBufferPointer { wBuffer in
                    guard let x = xBuffer.baseAddress, let w = wBuffer.baseAddress else { return }
                    let shared = (x: GemmSharedReadPointer(base: x), w: GemmSharedReadPointer(base: w),
                                  y: GemmSharedPointer(base: y))
                    let activation = self.activation
                    context.parallelFor(l.batch * l.channels) { planes in
                        for plane in planes {
                            let c = plane % l.channels
                            kernels.depthwisePlane(
                                shared.x.base + plane * l.inputPlane, l.inputHeight, l.inputWidth,
                                shared.w.base + c * kernelSize, l.kernelHeight, l.kernelWidth,
                                l.strideHeight, l.strideWidth, l.dilationHeight, l.dilationWidth,
                                l.padTop, l.padLeft,
                                shared.y.base + plane * l.outputPlane, l.outputHeight, l.outputWidth, bias[c], activation)
                        }
                    }
                }
            }
            count = total
        }
        return [try Tensor(shape: l.outputShape, floats: output)]
    }
}
