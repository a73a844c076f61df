import CFoveaKernels
import FoveaCore

/// What the kernels backend does for `Precision.bf16` plans: the hardware it
/// finds, and the bound its bf16 steps carry.
extension KernelsBackend {
    /// The bfloat16 matrix hardware the kernels can use on this CPU: `amx`
    /// (AMX-BF16 tiles, with the kernel's permission), `avx512bf16`
    /// (`vdpbf16ps`), or `nil` where bfloat16 steps run a portable kernel with
    /// the same numerics and no speed gain. A property of the hardware and
    /// the build, like ``vectorISA``.
    public static var bf16Hardware: String? {
        ["amx", "avx512bf16"].first { fovea_kernels_isa_supported($0) != 0 }
    }

    /// The bound of a `Precision.bf16` step, relative to the largest
    /// magnitude of the reference output (``PreparedStep/tolerance``). Parity
    /// at bf16 holds each step to it alone, on the inputs the plan gave it;
    /// the error compounded from the model's input on is reported, not bounded.
    ///
    /// Why 1e-1: rounding a weight and an input to bf16 (8 significant bits)
    /// changes each by at most 2⁻⁹ of itself, so a product by at most about
    /// 2⁻⁸ = 3.9e-3, and float32 accumulation adds next to nothing: a dot
    /// product errs by at most 2⁻⁸ of the sum of its terms' magnitudes. But
    /// the bound is relative to the layer's largest *output*, which
    /// cancellation (terms of both signs) and saturating activations (Clip
    /// at 6 over large pre-activations) make smaller than that sum. Measured
    /// with `fovea parity --precision bf16` on the kernels backend: alone,
    /// the bf16 steps reach 3.4e-2 (SqueezeNet 1.0's conv10;
    /// Benchmarks/results/2026-12-07-amd-epyc-zen5-bf16-plan.md) and 7.0e-3
    /// on MobileNetV2 and ResNet-50 with seeded weights
    /// (Benchmarks/results/2026-12-07-amd-epyc-zen3-bf16-architectures.md).
    /// 1e-1 leaves a margin of 3 over the worst and still fails a kernel
    /// that packs or rounds wrongly (those err by tens of percent).
    public static let bf16Tolerance: Float = 1e-1
}
