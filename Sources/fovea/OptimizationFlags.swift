import ArgumentParser
@_spi(Internals) import Fovea

/// `--no-fold-bn`, `--no-fuse`, `--no-elide-concat`: turn off one graph
/// rewrite or memory saving, to compare (run, bench, parity, inspect).
struct OptimizationFlags: ParsableArguments {
    @Flag(name: .customLong("no-fold-bn"), help: "Keep BatchNormalization nodes instead of folding them into the Conv before them.")
    var noFoldBatchNorm = false

    @Flag(name: .customLong("no-fuse"), help: "Keep Relu/Clip/LeakyRelu and residual Add nodes instead of fusing them into the Conv before them, and a quantized model's QuantizeLinear/DequantizeLinear pairs instead of making integer steps.")
    var noFuse = false

    @Flag(name: .customLong("no-elide-concat"), help: "Let every Concat copy its inputs instead of having their producers write into its slices.")
    var noElideConcat = false

    var options: OptimizationOptions {
        OptimizationOptions(foldBatchNormalization: !noFoldBatchNorm, fuseActivations: !noFuse, elideConcat: !noElideConcat)
    }
}

extension BackendOptions {
    /// The configuration with these backends, threads and optimization switches.
    func configuration(_ flags: OptimizationFlags) -> ModelConfiguration {
        var configuration = self.configuration
        configuration.optimizations = flags.options
        return configuration
    }
}
