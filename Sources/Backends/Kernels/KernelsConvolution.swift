import CFoveaKernels
import FoveaCore

/// Conv nodes: the algorithm per node (GEMM, Winograd, direct depthwise, direct small-channel)
/// from the backend's ``WinogradPolicy`` and its ``KernelTuning`` (this CPU's measurements,
/// else the fallback table). The step's algorithm says where a 3×3 choice came from.
///
/// In a `Precision.bf16` plan every convolution that runs on the GEMM runs
/// it with bf16 weights. Those Winograd takes stay float32 Winograd, except on
/// AMX: F(4×4, 3×3) does 4× fewer multiplies than the GEMM, more than
/// `vdpbf16ps` gains (2× the FMA rate; on Zen 5 the bf16 GEMM ran these layers
/// at 0.66–0.74× of Winograd's speed, Benchmarks/results/2026-12-07-amd-epyc-zen5-bf16-plan.md),
/// less than AMX tiles do (4–16×). Depthwise and small-channel direct
/// convolutions stay float32: they do a few multiplies per weight, memory-
/// bound, where bf16 arithmetic would save nothing (their steps say f32).
enum KernelsConvolution: KernelsOperatorFamily {
    static func supports(_ node: NodeContext) -> Bool {
        (try? ConvolutionShape(node)) != nil
    }

    static func prepare(_ node: NodeContext, _ backend: KernelsBackend) throws -> any PreparedStep {
        let shape = try ConvolutionShape(node)
        guard let weights = try node.constant(1)?.requireFloats("W") else {
            throw FoveaError(.unsupported, "the kernels Conv needs constant weights (input 1)")
        }
        let bias = try node.constant(2)?.requireFloats("B")
        let runTimeBias = bias == nil && node.inputType(2) != nil
        var (algorithm, source) = shape.algorithm(backend.winograd, tuning: backend.tuningSession)
        if node.precision == .bf16 && algorithm.isWinograd && KernelsBackend.bf16Hardware == "amx" { (algorithm, source) = (.gemm, .rule) }
        let step = try step(shape, algorithm, node: node, weights: weights, bias: bias, runTimeBias: runTimeBias)
        return noting(source, step, fusion: shape.fusionSuffix)
    }

    /// `step` with where its choice came from after the kernel's name, before what is fused
    /// (`winograd_f4x4_3x3 ... (measured here, 2 threads) +relu`).
    private static func noting(_ source: ChoiceSource, _ step: any PreparedStep, fusion: String) -> any PreparedStep {
        guard !source.suffix.isEmpty else { return step }
        func noted(_ algorithm: String) -> String {
            guard !fusion.isEmpty, algorithm.hasSuffix(fusion) else { return algorithm + source.suffix }
            return String(algorithm.dropLast(fusion.count)) + source.suffix + fusion
        }
        if var winograd = step as? WinogradConvolutionStep {
            winograd.algorithm = noted(winograd.algorithm)
            return winograd
        }
        if var gemm = step as? PackedGemmConvolutionStep {
            gemm.algorithm = noted(gemm.algorithm)
            return gemm
        }
        return step
    }

    /// The step running `algorithm`.
    private static func step(_ shape: ConvolutionShape, _ algorithm: ConvolutionAlgorithm, node: NodeContext,
                             weights: [Float], bias: [Float]?, runTimeBias: Bool) throws -> any PreparedStep {
        if algorithm == .depthwise {
            return DirectDepthwiseStep(shape: shape, weights: weights, bias: bias, runTimeBias: runTimeBias)
        }
        if algorithm == .directSmallChannel {
            return DirectSmallChannelConvolutionStep(shape: shape, weights: weights, bias: bias, runTimeBias: runTimeBias)
        }
        if algorithm.isWinograd {
            return try WinogradConvolutionStep(shape: shape, variant: algorithm, weights: weights, bias: bias,
                                               runTimeBias: runTimeBias)
        }
        return try PackedGemmConvolutionStep(shape: shape, weights: weights, bias: bias, runTimeBias: runTimeBias,
                                             precision: node.precision)
    }
}
