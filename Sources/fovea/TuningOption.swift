import ArgumentParser
@_spi(Internals) import Fovea

/// `--tune` and `--tuning remembered|measure|fallback`: where the kernels backend's
/// measured choices come from (`ModelConfiguration.tuning`; docs/tuning.md).
struct TuningOption: ParsableArguments {
    @Flag(help: "Measure the 3x3 convolution shapes this CPU has no tuning record for while the plan is built (at most 30 s), and remember them (as `fovea tune` does).")
    var tune = false

    @Option(name: .customLong("tuning"),
            help: "Where the 3x3 convolution algorithms come from: remembered (this CPU's tuning record, else the fallback table; the default), measure (same as --tune) or fallback (the fallback table only).")
    var mode: String?

    func validate() throws {
        if let mode, !["remembered", "measure", "fallback"].contains(mode) {
            throw ValidationError("--tuning must be remembered, measure or fallback (got '\(mode.terminalSafe)')")
        }
        if tune, let mode, mode != "measure" {
            throw ValidationError("--tune and --tuning \(mode) contradict each other")
        }
    }

    var tuning: KernelTuning {
        if tune { return .measure }
        switch mode {
        case "measure": return .measure
        case "fallback": return .fallback
        default: return .remembered
        }
    }
}
