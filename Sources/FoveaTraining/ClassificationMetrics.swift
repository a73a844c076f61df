import Foundation

/// How well a classifier did on labelled examples: accuracy, per-class
/// precision and recall, and the confusion matrix (Create ML's
/// `MLClassifierMetrics`).
public struct ClassificationMetrics: Sendable, Equatable, Codable {
    /// Class names; rows and columns of ``confusion`` follow this order.
    public let classes: [String]
    /// `confusion[true][predicted]`: how many examples of a class were predicted as each class.
    public let confusion: [[Int]]

    /// Counts the pairs of true and predicted class indices.
    public init(classes: [String], truth: [Int], predicted: [Int]) {
        var confusion = Array(repeating: [Int](repeating: 0, count: classes.count), count: classes.count)
        for (t, p) in zip(truth, predicted) where classes.indices.contains(t) && classes.indices.contains(p) {
            confusion[t][p] += 1
        }
        self.classes = classes
        self.confusion = confusion
    }

    /// The number of examples.
    public var count: Int { confusion.reduce(0) { $0 + $1.reduce(0, +) } }
    /// The fraction classified right, 0 to 1 (0 with no examples).
    public var accuracy: Double {
        let right = classes.indices.reduce(0) { $0 + confusion[$1][$1] }
        return count > 0 ? Double(right) / Double(count) : 0
    }
    /// Per class: of the examples predicted as it, the fraction that are it (1 when none was predicted).
    public var precision: [Double] {
        classes.indices.map { c in
            let predicted = classes.indices.reduce(0) { $0 + confusion[$1][c] }
            return predicted > 0 ? Double(confusion[c][c]) / Double(predicted) : 1
        }
    }
    /// Per class: of its examples, the fraction predicted right (1 when it has none).
    public var recall: [Double] {
        classes.indices.map { c in
            let actual = confusion[c].reduce(0, +)
            return actual > 0 ? Double(confusion[c][c]) / Double(actual) : 1
        }
    }

    /// `{"accuracy":…, "classes":[…], "precision":[…], "recall":[…], "confusion":[[…]], "count":…}`.
    public var jsonObject: [String: Any] {
        ["accuracy": accuracy, "classes": classes, "precision": precision, "recall": recall, "confusion": confusion, "count": count]
    }

    /// A plain-text report: accuracy, a precision/recall table and the confusion matrix.
    public var table: String {
        var lines = [String(format: "accuracy %.2f%% (%d of %d)", accuracy * 100, Int((accuracy * Double(count)).rounded()), count)]
        let width = max(5, classes.map(\.count).max() ?? 5)
        func pad(_ text: String, _ n: Int) -> String { text.count >= n ? text : text + String(repeating: " ", count: n - text.count) }
        func left(_ text: String, _ n: Int) -> String { text.count >= n ? text : String(repeating: " ", count: n - text.count) + text }
        lines.append(pad("class", width) + "  precision  recall")
        for (c, name) in classes.enumerated() {
            lines.append(pad(name, width) + "  " + left(String(format: "%.1f%%", precision[c] * 100), 9) + "  " + left(String(format: "%.1f%%", recall[c] * 100), 6))
        }
        lines.append("")
        lines.append("confusion (rows: true class, columns: predicted, in the order above)")
        let cell = max(4, String(confusion.flatMap { $0 }.max() ?? 0).count + 1)
        for (c, name) in classes.enumerated() {
            lines.append(pad(name, width) + confusion[c].map { left(String($0), cell) }.joined())
        }
        return lines.joined(separator: "\n")
    }

    /// The confusion matrix as an SVG picture: one shaded square per cell,
    /// darker for more examples, with the counts and the class names.
    public var svg: String {
        let n = classes.count, cell = 36, margin = 12 + 7 * (classes.map(\.count).max() ?? 1)
        let size = margin + n * cell + 12
        let top = max(1, confusion.flatMap { $0 }.max() ?? 1)
        var body = ""
        for t in 0..<n {
            body += "<text x=\"\(margin - 6)\" y=\"\(margin + t * cell + cell / 2 + 4)\" text-anchor=\"end\">\(Self.escaped(classes[t]))</text>\n"
            body += "<text transform=\"translate(\(margin + t * cell + cell / 2 + 4),\(margin - 6)) rotate(-90)\">\(Self.escaped(classes[t]))</text>\n"
            for p in 0..<n {
                let shade = 255 - Int(Double(confusion[t][p]) / Double(top) * 200)
                let colour = t == p ? "rgb(\(shade),\(shade),255)" : "rgb(255,\(shade),\(shade))"
                body += "<rect x=\"\(margin + p * cell)\" y=\"\(margin + t * cell)\" width=\"\(cell)\" height=\"\(cell)\" fill=\"\(colour)\" stroke=\"#999\"/>"
                body += "<text x=\"\(margin + p * cell + cell / 2)\" y=\"\(margin + t * cell + cell / 2 + 4)\" text-anchor=\"middle\">\(confusion[t][p])</text>\n"
            }
        }
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size)\" height=\"\(size)\" font-family=\"sans-serif\" font-size=\"11\">\n"
            + "<title>Confusion matrix: rows true class, columns predicted</title>\n" + body + "</svg>\n"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
