import Foundation
import FoveaCore
import XCTest
@_spi(Internals) import Fovea
import FoveaTraining

/// The head on small fixed problems: the gradient against finite differences,
/// the optimum's first-order condition, and a problem written out for
/// scripts/ci/training-check.py, which fits scikit-learn's
/// `LogisticRegression(solver="lbfgs", C=1/(n·λ))` on it and compares.
final class SoftmaxRegressionTests: XCTestCase {
    /// 60 points in 4 dimensions, 3 overlapping classes (seeded).
    static func problem() -> (x: [Double], y: [Int]) {
        var random = SeededGenerator(seed: 11)
        var x: [Double] = [], y: [Int] = []
        let centres: [[Double]] = [[1, 0, 0.5, -1], [-0.5, 1, 0, 0.5], [0, -1, -0.5, 0.5]]
        for i in 0..<60 {
            let label = i % 3
            y.append(label)
            for j in 0..<4 { x.append(centres[label][j] * (j == 2 ? 10 : 1) + Double(random.nextGaussian())) }
        }
        return (x, y)
    }

    func testOptimumHasZeroGradientAndIsWrittenForScikitLearn() throws {
        let (raw, y) = Self.problem()
        let standardization = FeatureStandardization(features: raw, width: 4)
        let x = standardization.apply(raw)
        let l2 = 0.05
        let fit = try SoftmaxRegression.fit(features: x, labels: y, featureCount: 4, classCount: 3, l2: l2,
                                            maxIterations: 500, tolerance: 1e-10)
        // First-order condition: mean((P - Y) x) + λ W = 0 and mean(P - Y) = 0.
        var gradient = [Double](repeating: 0, count: 15)
        var loss = 0.0
        for i in 0..<60 {
            let row = Array(x[i * 4 ..< i * 4 + 4])
            let logits = fit.model.logits(row)
            let top = logits.max()!
            let total = logits.map { exp($0 - top) }.reduce(0, +)
            loss += log(total) + top - logits[y[i]]
            for c in 0..<3 {
                let residual = exp(logits[c] - top) / total - (c == y[i] ? 1 : 0)
                for j in 0..<4 { gradient[c * 4 + j] += residual * row[j] / 60 }
                gradient[12 + c] += residual / 60
            }
        }
        for i in 0..<12 { gradient[i] += l2 * fit.model.weights[i] }
        XCTAssertLessThan(gradient.map(abs).max()!, 1e-6)
        loss = loss / 60 + 0.5 * l2 * fit.model.weights.map { $0 * $0 }.reduce(0, +)
        XCTAssertEqual(fit.loss, loss, accuracy: 1e-9)
        XCTAssertTrue(fit.converged)
        // For the Python check (scikit-learn on the same problem).
        let json: [String: Any] = ["x": raw, "y": y, "width": 4, "l2": l2, "weights": fit.model.weights,
                                   "bias": fit.model.bias, "loss": fit.loss, "mean": standardization.mean,
                                   "std": standardization.standardDeviation]
        try FileManager.default.createDirectory(atPath: TrainingDataSet.workDirectory, withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: TrainingDataSet.workDirectory + "/solver.json"))
    }

    func testIterationLimitAndProgress() throws {
        let (raw, y) = Self.problem()
        let x = FeatureStandardization(features: raw, width: 4).apply(raw)
        let seen = Counter()
        let fit = try SoftmaxRegression.fit(features: x, labels: y, featureCount: 4, classCount: 3, l2: 0, maxIterations: 3) { _ in seen.add() }
        XCTAssertEqual(fit.iterations, 3)
        XCTAssertEqual(seen.value, 3)
        XCTAssertFalse(fit.converged)
        XCTAssertEqual(fit.status, "maximum iterations")
    }

    func testStandardizationFoldsIntoTheHead() {
        let features: [Double] = [1, 10, 3, 30, 5, 50, 7, 10]
        let s = FeatureStandardization(features: features, width: 2)
        XCTAssertEqual(s.mean, [4, 25])
        let head = SoftmaxRegression(weights: [0.5, -1, 2, 0.25], bias: [0.1, -0.2], featureCount: 2)
        let (w, b) = s.folded(into: head)
        let folded = SoftmaxRegression(weights: w, bias: b, featureCount: 2)
        let raw: [Double] = [2, 40]
        for (p, q) in zip(folded.logits(raw), head.logits(s.apply(raw))) { XCTAssertEqual(p, q, accuracy: 1e-12) }
        // A constant feature standardizes to 0 instead of dividing by 0.
        XCTAssertEqual(FeatureStandardization(features: [3, 3, 3], width: 1).standardDeviation, [1])
    }
}

/// A thread-safe counter for progress callbacks.
final class Counter: @unchecked Sendable {
    // @unchecked: `count` is only touched while holding `lock`.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
