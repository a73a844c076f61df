import ArgumentParser
@_spi(Internals) import Fovea

/// `--backend`, `--threads` and `--precision`, shared by the commands that run a model.
struct BackendOptions: ParsableArguments {
    @Option(name: .customLong("backend"),
            help: "A backend (kernels, simd, blas, reference) or a comma-separated preference list such as blas,simd. Nodes the chosen backends cannot run go to the reference backend. Default: fastest first.")
    var backends: String?

    @Option(help: "Intra-op threads per run (default: every core; more than the machine's cores is clamped to them).")
    var threads: Int?

    @OptionGroup var winograd: WinogradOption
    @OptionGroup var memory: MemoryLimitOption
    @OptionGroup var precision: PrecisionOption
    @OptionGroup var tuning: TuningOption

    func validate() throws {
        try ThreadCount.validate(threads)
        if let backends {
            try Self.validateBackendNames(backends, option: "--backend", registry: winograd.registry)
        }
    }

    var configuration: ModelConfiguration {
        ModelConfiguration(backends: backends.map(Self.backendNames), threads: ThreadCount.used(threads),
                           registry: winograd.registry, memoryLimit: memory.limit, precision: precision.precision,
                           tuning: tuning.tuning)
    }

    /// Throws a `ValidationError` (the usage exit code) for an empty list or an unknown name.
    static func validateBackendNames(_ text: String, option: String, registry: BackendRegistry) throws {
        let names = backendNames(text)
        guard !names.isEmpty else { throw ValidationError("\(option) needs at least one name") }
        for name in names where !registry.names.contains(name) {
            throw ValidationError("\(option): unknown backend '\(name.terminalSafe)' (available: \(registry.names.joined(separator: ", ")))")
        }
    }

    /// `simd, reference` → `["simd", "reference"]`.
    static func backendNames(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
