import ArgumentParser
@_spi(Internals) import Fovea

/// `--winograd auto|off|f2|f4|f6`: which Winograd variant the kernels
/// backend runs 3×3 stride-1 convolutions with (default: the measured table).
struct WinogradOption: ParsableArguments {
    @Option(name: .customLong("winograd"),
            help: "The kernels backend's 3x3 stride-1 convolutions: auto (the measured table), off (GEMM), f2, f4 or f6.")
    var policy: String = "auto"

    func validate() throws {
        guard WinogradPolicy(name: policy) != nil else {
            throw ValidationError("--winograd must be auto, off, f2, f4 or f6 (got '\(policy)')")
        }
    }

    /// The standard backends with this policy.
    var registry: BackendRegistry {
        BackendRegistry.standard(winograd: WinogradPolicy(name: policy) ?? .measured)
    }
}
