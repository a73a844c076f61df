import ArgumentParser
import Fovea

/// `--backend` and `--threads`, shared by the commands that run a model.
struct BackendOptions: ParsableArguments {
    @Option(name: .customLong("backend"),
            help: "A backend (kernels, simd, blas, reference) or a comma-separated preference list such as blas,simd. Nodes the chosen backends cannot run go to the reference backend. Default: fastest first.")
    var backends: String?

    @Option(help: "Intra-op threads per run (default: every core).")
    var threads: Int?

    @OptionGroup var winograd: WinogradOption

    func validate() throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if let backends, Self.backendNames(backends).isEmpty { throw ValidationError("--backend needs at least one name") }
    }

    var configuration: ModelConfiguration {
        ModelConfiguration(backends: backends.map(Self.backendNames), threads: threads, registry: winograd.registry)
    }

    /// `simd, reference` → `["simd", "reference"]`.
    static func backendNames(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
