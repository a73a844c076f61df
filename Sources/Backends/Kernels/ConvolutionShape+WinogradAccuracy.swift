import FoveaCore

extension ConvolutionShape {
    /// The largest output plane (height × width) on which the measured policy
    /// may pick F(4×4) or F(6×6); larger planes take F(2×2) at most.
    ///
    /// Why: each variant's error on one layer is small (the C tests' worst,
    /// max|y − exact| / max|exact| with C 16…512: F2 8.5e-7 like the GEMM's
    /// 8.3e-7, F4 7.4e-6, F6 1.9e-5), but what reaches the logits is that error
    /// times the gain of every layer after it, and a classifier's largest planes
    /// are its stem, which every later layer amplifies. Measured on torchvision's
    /// Inception-v3 (seeded weights, BatchNorm fitted to data; logits against
    /// onnxruntime, whose own float32 noise on this network is 3.8e-5), with one
    /// layer at a time on Winograd and the rest on the GEMM (4.8e-5): the two
    /// 147×147 stem layers, 32→32 and 32→64, give 2.2e-4 and 1.4e-4 on F6,
    /// 9.4e-5 and 7.6e-5 on F4, 5.0e-5 and 4.7e-5 on F2; the 71×71 layer (80→192)
    /// 6.2e-5 on F4; every 35×35 layer together 7.4e-5. The whole network on the
    /// table's choices gave 2.8e-4 against the zoo check's bar of 1e-4. Capping
    /// planes above 64×64 (the 71×71 and 147×147 layers) gives 8.0e-5;
    /// the 3×3 stride-1 layers of ResNet (56×56 and less), SqueezeNet (55×55),
    /// GoogLeNet and DenseNet (56×56) keep the table's choice.
    static let largestPlaneForLargeWinogradTiles = 64 * 64

    /// `fastest` (the measured table's choice) unless its Winograd tile is too
    /// inaccurate for this layer's plane (``largestPlaneForLargeWinogradTiles``):
    /// then F(2×2), whose error is the GEMM's.
    func accurateEnough(_ fastest: ConvolutionAlgorithm) -> ConvolutionAlgorithm {
        guard let tile = fastest.winogradTile, tile > 2,
              Int(params.output_height) * Int(params.output_width) > Self.largestPlaneForLargeWinogradTiles else {
            return fastest
        }
        return .winogradF2
    }
}
