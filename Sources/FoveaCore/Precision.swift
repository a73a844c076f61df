/// The arithmetic a plan's steps may use: what a user trades for speed.
///
/// ``f32`` (the default) multiplies and adds in float32 everywhere: the
/// answers `fovea parity` vouches for. ``bf16`` lets a backend multiply
/// bfloat16 values (float32's exponent, 8 significant bits) with float32
/// accumulation where it has kernels for that, which CPUs with AVX512_BF16
/// or AMX run faster; activations stay float32 in memory. Which steps take
/// it is each backend's choice, shown per step (``PreparedStep/precision``,
/// `fovea inspect --plan`); the others run in float32.
public enum Precision: String, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// float32 multiplies and adds.
    case f32
    /// bfloat16 multiplies (weights and inputs rounded to 8 significant bits), float32 accumulation.
    case bf16

    /// `f32` or `bf16` (the command line's spelling; case does not matter).
    public init?(name: String) {
        self.init(rawValue: name.lowercased())
    }

    public var description: String { rawValue }

    /// The relative error of one rounding to this precision (half a unit in the last place):
    /// 2⁻²⁴ for float32, 2⁻⁹ for bfloat16 (8 significant bits).
    public var unitRoundoff: Float {
        switch self {
        case .f32: return 0x1p-24
        case .bf16: return 0x1p-9
        }
    }
}
