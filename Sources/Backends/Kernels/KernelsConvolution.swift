import CFoveaKernels
import FoveaCore

/// Conv nodes: the algorithm per node (GEMM, Winograd, direct depthwise, direct small-channel)
/// from the backend's ``WinogradPolicy`` and the measured table.
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
        var algorithm = shape.algorithm(backend.winograd)
        if node.precision == .bf16 && algorithm.isWinograd && KernelsBackend.bf16Hardware == "amx" { algorithm = .gemm }
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
