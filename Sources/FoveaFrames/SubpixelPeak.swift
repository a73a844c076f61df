import Foundation

/// Where, between samples, a sampled peak really is.
enum SubpixelPeak {
    /// The offset in (-0.5, 0.5) of the true maximum from the `centre` sample,
    /// from it and its two neighbours: a parabola through their logarithms
    /// (exact for a Gaussian peak), or through the values themselves when a
    /// neighbour is not positive.
    static func offset(left: Float, centre: Float, right: Float) -> Double {
        let (l, c, r) = (Double(left), Double(centre), Double(right))
        var denominator: Double, numerator: Double
        if l > 0, c > 0, r > 0 {
            let (ll, lc, lr) = (log(l), log(c), log(r))
            numerator = ll - lr
            denominator = 2 * (ll - 2 * lc + lr)
        } else {
            numerator = l - r
            denominator = 2 * (l - 2 * c + r)
        }
        guard denominator < 0 else { return 0 }
        return Swift.min(0.5, Swift.max(-0.5, numerator / denominator))
    }
}
