import Foundation
import FoveaCore

/// The fallback for 3×3 stride-1 convolutions on CPUs without a tuning record
/// (``KernelTuning``): the fastest algorithm from times measured on a grid of shapes
/// on one machine (``measured``, written by `fovea tune --write-fallback`; the machine is
/// ``measuredOn``). On another CPU the best choice may differ: `fovea tune` measures it.
///
/// A shape between grid points takes the choice of the nearest measured one,
/// in log scale (channels, output channels and output size each count as much).
enum ConvolutionAlgorithmTable {
    /// One measured shape: times per algorithm (``columns`` order) at 1 and 2 threads.
    struct Row: Sendable {
        let channels: Int, outputs: Int, size: Int
        let milliseconds: [Double]
        let twoThreads: [Double]
        let best: ConvolutionAlgorithm
    }

    /// The algorithms of ``Row/milliseconds``, in order.
    static let columns: [ConvolutionAlgorithm] = [.gemm, .winogradF2, .winogradF4, .winogradF6]

    static func fastest(channels: Int, outputChannels: Int, height: Int, width: Int) -> ConvolutionAlgorithm {
        func distance(_ row: Row) -> Double {
            let size = (Double(height) * Double(width)).squareRoot()
            return abs(log2(Double(row.channels)) - log2(Double(channels)))
                + abs(log2(Double(row.outputs)) - log2(Double(outputChannels)))
                + abs(log2(Double(row.size)) - log2(size))
        }
        return measured.min { distance($0) < distance($1) }?.best ?? .gemm
    }
}
