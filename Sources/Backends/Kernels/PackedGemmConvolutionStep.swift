import CFoveaKernels
import FoveaCore

/// A convolution on the C GEMM: 1×1 reads the input planes in place,
/// anything else packs im2col blocks straight into the microkernel's panels
/// (`fovea_conv2d_f32`). Weights and bias are packed once, here.
struct PackedGemmConvolutionStep: PreparedStep {
    let shape: ConvolutionShape
    let algorithm: String
    private let packed: PackedWeights
    /// The bias is input 2 at run time, not a constant packed with the weights.
    private let runTimeBias: Bool

    var writesStridedOutput: Bool { true }

    /// With a fused residual the output may be placed over it: each tile
    /// reads its starting values before it stores them.
    var overwritableInput: Int? { shape.addsResidual ? 3 : nil }

    /// `label` names the method in the algorithm (default: `gemm 1x1` or `im2col+gemm k×k`).
    init(shape: ConvolutionShape, weights: [Float], bias: [Float]?, runTimeBias: Bool, label: String? = nil) throws {
        self.shape = shape
        self.runTimeBias = runTimeBias
        var params = shape.params
        let size = fovea_conv2d_packed_size(&params)
        guard size > 0 else { throw FoveaError(.shapeMismatch, "Conv: the kernels cannot pack this shape") }
        packed = try PackedWeights(byteCount: size) { bytes, count in
            try weights.withUnsafeBufferPointer { w in
                try KernelStatus.check(withOptionalPointer(bias) { fovea_conv2d_pack(&params, w.baseAddress, $0, bytes, count) },
                                       "Conv weight packing")
            }
        }
        let kernel = String(cString: fovea_conv2d_kernel_name(packed.bytes))
        let method = label ?? (shape.isPointwise ? "gemm 1x1" : "im2col+gemm \(shape.params.kernel_height)x\(shape.params.kernel_width)")
        algorithm = "\(method) \(kernel)" + shape.fusionSuffix
    }

    func workspaceBytes(threads: Int) -> Int {
        fovea_conv2d_workspace_size(packed.bytes, threads)
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let x = try buffers.input(0, "Conv"), y = buffers.outputs[0]
        let bias = runTimeBias ? try buffers.input(2, "Conv").floats : nil
        var params = shape.params
        var activation = shape.activation?.kernelActivation ?? fovea_activation()
        var pool = context.kernelThreadPool
        // With a residual, the output holds it first and every tile starts from it.
        if shape.addsResidual { try buffers.startFromResidual("Conv") }
        let convolve = shape.addsResidual ? fovea_conv2d_add_f32 : fovea_conv2d_f32
        try KernelStatus.check(
            convolve(&params, packed.bytes, x.floats, y.floats, y.batchStride, bias, &activation,
                     buffers.workspace, workspaceBytes(threads: context.threads), &pool),
            "Conv")
        try shape.finishActivation(y, context: context)
    }
}

/// Calls `body` with a pointer to the array's elements, or nil for a nil array.
func withOptionalPointer<R>(_ array: [Float]?, _ body: (UnsafePointer<Float>?) throws -> R) rethrows -> R {
    guard let array else { return try body(nil) }
    return try array.withUnsafeBufferPointer { try body($0.baseAddress) }
}
