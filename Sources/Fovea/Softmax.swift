import Foundation

/// Numerically stable softmax of `logits`.
package func softmax(_ logits: [Float]) -> [Float] {
    guard let maximum = logits.max() else { return [] }
    let exponentials = logits.map { exp($0 - maximum) }
    let total = exponentials.reduce(0, +)
    return exponentials.map { $0 / total }
}
