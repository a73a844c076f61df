import CFoveaKernels
import FoveaCore

/// A convolution on the C GEMM: 1×1 reads the input planes in place,
/// anything else packs im2col blocks straight into the microkernel's panels
/// (`fovea_conv2d_f32`). Weights and bias are packed once, here: in float32,
/// or in bfloat16 for a `Precision.bf16` plan (`fovea_conv2d_pack_precision`),
/// whose runs round each input value to bf16, multiply bf16 by bf16 and
/// accumulate in float32 (activations stay float32 in memory).
struct PackedGemmConvolutionStep: PreparedStep {
    let shape: ConvolutionShape
    var algorithm: String
    let precision: Precision
    private let packed: PackedWeights
    /// The bias is input 2 at run time, not a constant packed with the weights.
    private let runTimeBias: Bool

    var writesStridedOutput: Bool { true }

    /// With a fused residual the output may be placed over it: each tile
    /// reads its starting values before it stores them.
    var overwritableInput: Int? { shape.addsResidual ? 3 : nil }


    /// float32 steps keep the protocol's 1e-4; bf16 steps ``KernelsBackend/bf16Tolerance``.
    var tolerance: Float { precision == .bf16 ? KernelsBackend.bf16Tolerance : 1e-4 }

    /// `label` names the method in the algorithm (default: `gemm 1x1` or `im2col+gemm k×k`).
    /// `precision` `Precision.bf16` packs the weights in bfloat16 when the
    /// kernels can (any shape they can pack in float32); otherwise float32.
    init(shape: ConvolutionShape, weights: [Float], bias: [Float]?, runTimeBias: Bool, label: String? = nil,
         precision: Precision = .f32) throws {
        self.shape = shape
        self.runTimeBias = runTimeBias
        var params = shape.params
        let requested = precision == .bf16 ? FOVEA_PRECISION_BF16 : FOVEA_PRECISION_F32
        var kernelPrecision = requested
        var size = fovea_conv2d_packed_size_precision(&params, requested)
        if size == 0 && requested != FOVEA_PRECISION_F32 {
            kernelPrecision = FOVEA_PRECISION_F32
            size = fovea_conv2d_packed_size_precision(&params, kernelPrecision)
        }
        guard size > 0 else { throw FoveaError(.shapeMismatch, "Conv: the kernels cannot pack this shape") }
        packed = try PackedWeights(byteCount: size) { bytes, count in
            try weights.withUnsafeBufferPointer { w in
                try KernelStatus.check(withOptionalPointer(bias) {
                    fovea_conv2d_pack_precision(&params, kernelPrecision, w.baseAddress, $0, bytes, count)
                }, "Conv weight packing")
            }
        }
        self.precision = fovea_conv2d_packed_precision(packed.bytes) == FOVEA_PRECISION_BF16 ? .bf16 : .f32
        let kernel = String(cString: fovea_conv2d_kernel_name(packed.bytes))
        let method = label ?? (shape.isPointwise ? "gemm 1x1" : "im2col+gemm \(shape.params.kernel_height)x\(shape.params.kernel_width)")
        // The bf16 kernels' names say bf16 already (`bf16_gemm_12x32_avx512bf16`).
        let named = self.precision == .f32 || kernel.contains("bf16") ? kernel : "bf16 \(kernel)"
        algorithm = "\(method) \(named)" + shape.fusionSuffix
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
