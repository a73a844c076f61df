import CFoveaKernels
import FoveaCore

/// A 3×3 stride-1 convolution by Winograd F(m×m, 3×3): the weights are
/// transformed once, here, into the panels the batched tile GEMMs read;
/// each run transforms input tiles, multiplies, and transforms back with
/// bias and activation fused (`fovea_winograd_conv2d_f32`).
///
/// Winograd trades multiplications for additions of transformed values, so
/// its error is larger than the GEMM's and grows with the tile: each
/// variant's bound is the one measured by the C tests (fovea_winograd.h).
struct WinogradConvolutionStep: PreparedStep {
    let shape: ConvolutionShape
    var algorithm: String
    let tolerance: Float
    private let packed: PackedWeights
    private let runTimeBias: Bool

    var writesStridedOutput: Bool { true }

    init(shape: ConvolutionShape, variant: ConvolutionAlgorithm, weights: [Float], bias: [Float]?, runTimeBias: Bool) throws {
        guard let edge = variant.winogradTile else {
            throw FoveaError(.invalidArgument, "\(variant) is not a Winograd algorithm")
        }
        self.shape = shape
        self.runTimeBias = runTimeBias
        let tile = fovea_winograd_tile(rawValue: UInt32(edge))
        var params = shape.params
        let size = fovea_winograd_packed_size(&params, tile)
        guard size > 0 else {
            throw FoveaError(.unsupported, "Conv: Winograd runs 3x3 stride-1 ungrouped convolutions only")
        }
        packed = try PackedWeights(byteCount: size) { bytes, count in
            try weights.withUnsafeBufferPointer { w in
                try KernelStatus.check(
                    withOptionalPointer(bias) { fovea_winograd_pack(&params, tile, w.baseAddress, $0, bytes, count) },
                    "Conv Winograd weight transform")
            }
        }
        algorithm = String(cString: fovea_winograd_kernel_name(packed.bytes)) + shape.fusionSuffix
        tolerance = Self.tolerance(variant)
    }

    /// The written bound of each variant, with headroom for a whole network
    /// (the C constants bound one layer against a double-precision reference).
    static func tolerance(_ variant: ConvolutionAlgorithm) -> Float {
        switch variant {
        case .winogradF2: return Swift.max(1e-4, Float(FOVEA_WINOGRAD_F2_TOLERANCE) * 10)
        case .winogradF4: return Swift.max(1e-4, Float(FOVEA_WINOGRAD_F4_TOLERANCE) * 10)
        case .winogradF6: return Swift.max(1e-4, Float(FOVEA_WINOGRAD_F6_TOLERANCE) * 10)
        case .gemm, .depthwise, .directSmallChannel: return 1e-4
        }
    }

    /// A fused residual: the transform writes a scratch, then one pass adds it (``ResidualAddition``).
    private var residual: ResidualAddition? { shape.addsResidual ? ResidualAddition(shape: shape) : nil }

    /// The output may be placed over a fused residual: the last pass reads each element before writing it.
    var overwritableInput: Int? { shape.addsResidual ? 3 : nil }

    func workspaceBytes(threads: Int) -> Int {
        (residual?.scratchBytes ?? 0) + fovea_winograd_workspace_size(packed.bytes, threads)
    }

    func run(_ buffers: StepBuffers, context: RunContext) throws {
        let x = try buffers.input(0, "Conv"), y = buffers.outputs[0]
        let bias = runTimeBias ? try buffers.input(2, "Conv").floats : nil
        var params = shape.params
        var activation = shape.activation?.kernelActivation ?? fovea_activation()
        var pool = context.kernelThreadPool
        let convolutionBytes = fovea_winograd_workspace_size(packed.bytes, context.threads)
        guard let residual else {
            try KernelStatus.check(
                fovea_winograd_conv2d_f32(&params, packed.bytes, x.floats, y.floats, y.batchStride, bias, &activation,
                                          buffers.workspace, convolutionBytes, &pool),
                "Conv (Winograd)")
            try shape.finishActivation(y, context: context)
            return
        }
        let scratch = try buffers.floatWorkspace("Conv (Winograd)")
        var none = fovea_activation()
        try KernelStatus.check(
            fovea_winograd_conv2d_f32(&params, packed.bytes, x.floats, scratch, shape.outputImage, bias, &none,
                                      buffers.workspace.map { $0 + residual.scratchBytes }, convolutionBytes, &pool),
            "Conv (Winograd)")
        try residual.finish(scratch, buffers, context: context)
        try shape.finishActivation(y, context: context)
    }
}
