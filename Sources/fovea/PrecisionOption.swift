import ArgumentParser
@_spi(Internals) import Fovea

/// `--precision f32|bf16`: the arithmetic a plan may use (`ModelConfiguration.precision`).
struct PrecisionOption: ParsableArguments {
    static let help = "f32 (default) or bf16: bfloat16 multiplies with float32 accumulation in the kernels backend's GEMM convolutions (faster with AVX512_BF16 or AMX); every other step runs in f32."

    @Option(name: .customLong("precision"), help: ArgumentHelp(Self.help, valueName: "f32|bf16"))
    var name: String = "f32"

    func validate() throws {
        guard Precision(name: name) != nil else {
            throw ValidationError("--precision must be f32 or bf16 (got '\(name.terminalSafe)')")
        }
    }

    /// The precision asked for (f32 for anything ``validate()`` refuses).
    var precision: Precision { Precision(name: name) ?? .f32 }
}
