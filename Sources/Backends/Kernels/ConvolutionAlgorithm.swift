import FoveaCore

/// How the kernels backend runs a convolution.
public enum ConvolutionAlgorithm: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Packed GEMM: 1×1 on the input planes, im2col blocks otherwise.
    case gemm
    /// Winograd F(2×2, 3×3): 16 products per 4 outputs instead of 36.
    case winogradF2 = "winograd-f2"
    /// Winograd F(4×4, 3×3): 36 products per 16 outputs instead of 144.
    case winogradF4 = "winograd-f4"
    /// Winograd F(6×6, 3×3): 64 products per 36 outputs instead of 324.
    case winogradF6 = "winograd-f6"
    /// A direct loop per channel plane, for depthwise convolutions.
    case depthwise
    /// A direct loop over the taps, for few input channels (an image network's first layer).
    case directSmallChannel = "direct-smallc"

    public var description: String { rawValue }

    /// Whether this is one of the Winograd algorithms (F2, F4, F6).
    public var isWinograd: Bool { winogradTile != nil }

    /// The output tile edge of a Winograd algorithm.
    var winogradTile: Int? {
        switch self {
        case .winogradF2: return 2
        case .winogradF4: return 4
        case .winogradF6: return 6
        case .gemm, .depthwise, .directSmallChannel: return nil
        }
    }
}

/// Which Winograd variant 3×3 stride-1 convolutions use.
public enum WinogradPolicy: Sendable, Equatable, CustomStringConvertible {
    /// The fastest per shape: measured on this CPU (``KernelTuning``), else the
    /// fallback ``ConvolutionAlgorithmTable`` (measured on another CPU), with F4 and F6
    /// kept off output planes above 64×64 for accuracy
    /// (`ConvolutionShape.largestPlaneForLargeWinogradTiles`).
    case measured
    /// Never: every convolution runs on the GEMM (im2col).
    case off
    /// Always this variant, for every convolution it can run.
    case forced(ConvolutionAlgorithm)

    /// `auto`, `off`, `f2`, `f4`, `f6` (the command line's spelling).
    public init?(name: String) {
        switch name.lowercased() {
        case "auto", "measured": self = .measured
        case "off", "none", "gemm": self = .off
        case "f2": self = .forced(.winogradF2)
        case "f4": self = .forced(.winogradF4)
        case "f6": self = .forced(.winogradF6)
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .measured: return "auto"
        case .off: return "off"
        case .forced(let algorithm): return String(algorithm.rawValue.dropFirst("winograd-".count))
        }
    }
}

extension ConvolutionShape {
    /// The algorithm for this convolution under `policy`, and where the choice came from:
    /// under `.measured`, 3×3 stride-1 convolutions ask `tuning` (this CPU's record, a
    /// measurement, or the fallback table).
    func algorithm(_ policy: WinogradPolicy, tuning: TuningSession) -> (ConvolutionAlgorithm, ChoiceSource) {
        // The depthwise kernels have no residual pass: a grouped GEMM starts its tiles from it.
        if isDepthwise { return (addsResidual ? .gemm : .depthwise, .rule) }
        // Few input channels, where measured faster than im2col + GEMM (and than Winograd, which has
        // nothing to save there); `.off` and forced Winograd keep their meaning.
        if policy == .measured && DirectSmallChannelConvolutionStep.prefers(self) { return (.directSmallChannel, .rule) }
        guard isWinogradCandidate else { return (.gemm, .rule) }
        switch policy {
        case .off: return (.gemm, .forced)
        case .forced(let algorithm): return (algorithm.isWinograd ? algorithm : .gemm, .forced)
        case .measured: return tuning.choose(self)
        }
    }
}
