import CLBFGS
import COpenBLAS
import Foundation
import FoveaCore

/// A multinomial logistic regression with L2 regularization, fitted by
/// L-BFGS (libLBFGS): the head that turns feature vectors into class scores.
///
/// The objective is the mean cross-entropy plus `l2 / 2 · ‖W‖²` (the bias is not
/// penalized). It is scikit-learn's `LogisticRegression(C:)` divided by `C·n`, so
/// `l2 = 1 / (C · n)` gives the same weights.
public struct SoftmaxRegression: Sendable, Equatable {
    /// `classCount × featureCount`, row-major.
    public var weights: [Double]
    /// One per class.
    public var bias: [Double]
    /// The length of the feature vectors the head reads.
    public let featureCount: Int
    /// The number of classes the head scores.
    public var classCount: Int { bias.count }

    /// A head with the given weights (`bias.count × featureCount`, row-major) and biases.
    public init(weights: [Double], bias: [Double], featureCount: Int) {
        self.weights = weights
        self.bias = bias
        self.featureCount = featureCount
    }

    /// Class scores (logits) of one feature vector.
    public func logits(_ features: [Double]) -> [Double] {
        (0..<classCount).map { c in
            var sum = bias[c]
            for j in 0..<featureCount { sum += weights[c * featureCount + j] * features[j] }
            return sum
        }
    }

    /// The most likely class of one feature vector.
    public func predictedClass(_ features: [Double]) -> Int {
        let scores = logits(features)
        return scores.indices.max { scores[$0] < scores[$1] } ?? 0
    }
}

/// What one L-BFGS iteration reached, for progress reports.
public struct SoftmaxRegressionIteration: Sendable {
    /// The iteration number, from 1.
    public let iteration: Int
    /// The objective at this iteration.
    public let loss: Double
    /// The model at this iteration.
    public let model: SoftmaxRegression
}

/// How the fit ended.
public struct SoftmaxRegressionFit: Sendable {
    /// The fitted head.
    public let model: SoftmaxRegression
    /// The objective at the end: mean cross-entropy plus the L2 term.
    public let loss: Double
    /// L-BFGS iterations run.
    public let iterations: Int
    /// True when L-BFGS met its convergence test before the iteration limit.
    public let converged: Bool
    /// libLBFGS's status when it stopped for another reason (a line search that
    /// cannot improve further ends the fit at the best point found).
    public let status: String
}

extension SoftmaxRegression {
    /// Fits the head on `features` (`n × featureCount`, row-major; already
    /// standardized) with `labels` in `0..<classCount`.
    ///
    /// - Parameter progress: called after every iteration.
    /// - Throws: `.invalidArgument` for empty or mismatched data or a negative `l2`.
    public static func fit(features: [Double], labels: [Int], featureCount: Int, classCount: Int,
                           l2: Double, maxIterations: Int, tolerance: Double = 1e-5,
                           progress: ((SoftmaxRegressionIteration) -> Void)? = nil) throws -> SoftmaxRegressionFit {
        let n = labels.count
        guard n > 0, featureCount > 0, classCount > 1, features.count == n * featureCount else {
            throw FoveaError(.invalidArgument, "logistic regression needs at least one example of \(featureCount) features and two classes (got \(n) labels, \(features.count) values, \(classCount) classes)")
        }
        guard l2 >= 0, l2.isFinite else { throw FoveaError(.invalidArgument, "the L2 strength \(l2) must be a finite number >= 0") }
        guard maxIterations > 0 else { throw FoveaError(.invalidArgument, "the maximum iteration count must be at least 1 (got \(maxIterations))") }
        if let bad = labels.first(where: { !(0..<classCount).contains($0) }) {
            throw FoveaError(.invalidArgument, "label \(bad) is outside 0..<\(classCount)")
        }
        let objective = SoftmaxObjective(features: features, labels: labels, featureCount: featureCount,
                                         classCount: classCount, l2: l2, progress: progress)
        let parameterCount = classCount * featureCount + classCount
        guard let x = lbfgs_malloc(Int32(parameterCount)) else {
            throw FoveaError(.limitExceeded, "cannot allocate \(parameterCount) parameters for the optimizer")
        }
        defer { lbfgs_free(x) }
        x.initialize(repeating: 0, count: parameterCount)
        var settings = lbfgs_parameter_t()
        lbfgs_parameter_init(&settings)
        settings.max_iterations = Int32(maxIterations)
        settings.epsilon = tolerance
        // Also stop when the loss stops falling (relative change over 1 iteration).
        settings.past = 1
        settings.delta = tolerance * 0.1
        var loss: Double = 0
        let box = Unmanaged.passRetained(objective)
        defer { box.release() }
        let status = lbfgs(Int32(parameterCount), x, &loss, { instance, x, g, n, _ in
            let objective = Unmanaged<SoftmaxObjective>.fromOpaque(instance!).takeUnretainedValue()
            return objective.evaluate(x!, gradient: g!)
        }, { instance, x, _, fx, _, _, _, n, k, _ in
            let objective = Unmanaged<SoftmaxObjective>.fromOpaque(instance!).takeUnretainedValue()
            objective.report(x!, loss: fx, iteration: Int(k))
            return 0
        }, box.toOpaque(), &settings)
        let parameters = Array(UnsafeBufferPointer(start: x, count: parameterCount))
        let model = objective.model(from: parameters)
        // LBFGS_STOP: the loss stopped falling (the `past`/`delta` test).
        let converged = status == 0 || status == Int32(LBFGS_STOP) || status == Int32(LBFGS_ALREADY_MINIMIZED)
        let stoppedFine = converged || status == Int32(LBFGSERR_MAXIMUMITERATION)
            || status == Int32(LBFGSERR_ROUNDING_ERROR) || status == Int32(LBFGSERR_MAXIMUMLINESEARCH)
            || status == Int32(LBFGSERR_MINIMUMSTEP) || status == Int32(LBFGSERR_MAXIMUMSTEP)
        guard stoppedFine, loss.isFinite else {
            throw FoveaError(.invalidArgument, "L-BFGS failed (libLBFGS status \(status)); the features may hold NaN or infinite values")
        }
        return SoftmaxRegressionFit(model: model, loss: loss, iterations: max(objective.iterations, 1),
                                    converged: converged, status: statusText(status))
    }

    private static func statusText(_ status: Int32) -> String {
        switch status {
        case 0: return "converged"
        case Int32(LBFGS_STOP): return "converged (loss stopped falling)"
        case Int32(LBFGS_ALREADY_MINIMIZED): return "already minimal"
        case Int32(LBFGSERR_MAXIMUMITERATION): return "maximum iterations"
        case Int32(LBFGSERR_ROUNDING_ERROR): return "rounding limit"
        default: return "line search ended (status \(status))"
        }
    }
}

/// The loss and gradient of ``SoftmaxRegression``, evaluated in row blocks
/// through BLAS (`dgemm`) so memory stays `block × classes` whatever `n`.
final class SoftmaxObjective {
    let features: [Double]
    let labels: [Int]
    let featureCount: Int
    let classCount: Int
    let l2: Double
    let progress: ((SoftmaxRegressionIteration) -> Void)?
    private(set) var iterations = 0
    private var scores: [Double]
    private let blockRows: Int

    init(features: [Double], labels: [Int], featureCount: Int, classCount: Int, l2: Double,
         progress: ((SoftmaxRegressionIteration) -> Void)?) {
        self.features = features
        self.labels = labels
        self.featureCount = featureCount
        self.classCount = classCount
        self.l2 = l2
        self.progress = progress
        // About 8 MB of scores at a time.
        blockRows = max(1, min(labels.count, (1 << 20) / classCount))
        scores = [Double](repeating: 0, count: blockRows * classCount)
    }

    func model(from parameters: [Double]) -> SoftmaxRegression {
        let split = classCount * featureCount
        return SoftmaxRegression(weights: Array(parameters[..<split]), bias: Array(parameters[split...]), featureCount: featureCount)
    }

    func report(_ x: UnsafePointer<Double>, loss: Double, iteration: Int) {
        iterations = iteration
        guard let progress else { return }
        let parameters = Array(UnsafeBufferPointer(start: x, count: classCount * featureCount + classCount))
        progress(SoftmaxRegressionIteration(iteration: iteration, loss: loss, model: model(from: parameters)))
    }

    /// The objective at `x`; writes its gradient into `gradient`.
    func evaluate(_ x: UnsafePointer<Double>, gradient: UnsafeMutablePointer<Double>) -> Double {
        let n = labels.count, d = featureCount, k = classCount
        let weightCount = k * d
        let bias = x + weightCount
        gradient.initialize(repeating: 0, count: weightCount + k)
        var loss = 0.0
        features.withUnsafeBufferPointer { data in
            scores.withUnsafeMutableBufferPointer { z in
                var start = 0
                while start < n {
                    let rows = min(blockRows, n - start)
                    let block = data.baseAddress! + start * d
                    // Z = X_block · Wᵀ
                    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(k), Int32(d),
                                1, block, Int32(d), x, Int32(d), 0, z.baseAddress!, Int32(k))
                    for r in 0..<rows {
                        let row = z.baseAddress! + r * k
                        var top = -Double.infinity
                        for c in 0..<k { row[c] += bias[c]; top = max(top, row[c]) }
                        let label = labels[start + r]
                        let labelScore = row[label] - top
                        var total = 0.0
                        for c in 0..<k { row[c] = exp(row[c] - top); total += row[c] }
                        loss += log(total) - labelScore
                        // Z becomes P - Y, the gradient of the loss with respect to the scores.
                        for c in 0..<k { row[c] /= total }
                        row[label] -= 1
                        for c in 0..<k { gradient[weightCount + c] += row[c] }
                    }
                    // G_W += (P - Y)ᵀ · X_block
                    cblas_dgemm(CblasRowMajor, CblasTrans, CblasNoTrans, Int32(k), Int32(d), Int32(rows),
                                1, z.baseAddress!, Int32(k), block, Int32(d), 1, gradient, Int32(d))
                    start += rows
                }
            }
        }
        let scale = 1 / Double(n)
        var penalty = 0.0
        for i in 0..<weightCount {
            gradient[i] = gradient[i] * scale + l2 * x[i]
            penalty += x[i] * x[i]
        }
        for c in 0..<k { gradient[weightCount + c] *= scale }
        return loss * scale + 0.5 * l2 * penalty
    }
}
