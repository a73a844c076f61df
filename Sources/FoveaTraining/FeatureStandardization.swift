import Foundation

/// Per-feature mean and standard deviation: features are standardized before
/// the head is fitted, and the export folds the same transform into its `Gemm`.
public struct FeatureStandardization: Sendable, Equatable, Codable {
    /// Each feature's mean over the training set.
    public let mean: [Double]
    /// Never 0: a constant feature gets 1, so it standardizes to 0.
    public let standardDeviation: [Double]

    /// The mean and (population) standard deviation of each column of
    /// `features` (`rows × width`, row-major).
    public init(features: [Double], width: Int) {
        let rows = max(1, features.count / max(width, 1))
        var mean = [Double](repeating: 0, count: width)
        for r in 0..<rows where (r + 1) * width <= features.count {
            for j in 0..<width { mean[j] += features[r * width + j] }
        }
        for j in 0..<width { mean[j] /= Double(rows) }
        var variance = [Double](repeating: 0, count: width)
        for r in 0..<rows where (r + 1) * width <= features.count {
            for j in 0..<width { let d = features[r * width + j] - mean[j]; variance[j] += d * d }
        }
        self.mean = mean
        self.standardDeviation = variance.map { v in
            let sd = (v / Double(rows)).squareRoot()
            return sd > 1e-12 ? sd : 1
        }
    }

    /// A standardization with the given per-feature values (each standard deviation nonzero).
    public init(mean: [Double], standardDeviation: [Double]) {
        self.mean = mean
        self.standardDeviation = standardDeviation
    }

    /// `(x - mean) / std` for every row of `features`.
    public func apply(_ features: [Double]) -> [Double] {
        let width = mean.count
        var out = features
        for i in out.indices { let j = i % width; out[i] = (out[i] - mean[j]) / standardDeviation[j] }
        return out
    }

    /// The head's weights and bias on raw features: `W / std` and `b - W·(mean / std)`.
    public func folded(into head: SoftmaxRegression) -> (weights: [Double], bias: [Double]) {
        let d = head.featureCount
        var weights = head.weights
        var bias = head.bias
        for c in 0..<head.classCount {
            for j in 0..<d {
                let w = head.weights[c * d + j] / standardDeviation[j]
                weights[c * d + j] = w
                bias[c] -= w * mean[j]
            }
        }
        return (weights, bias)
    }
}
