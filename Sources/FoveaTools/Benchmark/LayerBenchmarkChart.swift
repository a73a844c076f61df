import Foundation

/// Draws a ``LayerBenchmark/Result`` as a horizontal bar chart in SVG
/// (`fovea bench --layers --svg FILE`): one group per layer, in graph order,
/// one bar per backend that ran it, coloured by backend and labelled with the
/// algorithm, the time and the share of the measured peak. Hovering a bar
/// shows the layer's node names.
public enum LayerBenchmarkChart {
    /// What a bar's length shows.
    public enum Metric: String, Sendable, CaseIterable {
        /// The median time, on a logarithmic axis (backends differ by 100× and more).
        case milliseconds = "ms"
        /// GFLOP/s as a percentage of the measured peak × threads, on a linear
        /// axis; layers without multiply-adds (pooling, Concat) get no bar length.
        case percentOfPeak = "peak"
    }

    /// The SVG document. Each measurement is one `<rect class="bar">`.
    public static func svg(_ result: LayerBenchmark.Result, metric: Metric = .milliseconds, title: String = "") -> String {
        let width = 1200.0
        let plotLeft = 270.0, plotWidth = 440.0, noteLeft = plotLeft + plotWidth + 10
        let barHeight = 14.0, barGap = 4.0, groupGap = 12.0, top = 84.0
        let backendNames = result.layers.flatMap { $0.backends.map(\.backend) }.reduce(into: [String]()) { names, name in
            if !names.contains(name) { names.append(name) }
        }
        let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#76b7b2", "#edc948", "#9c755f"]
        func colour(_ backend: String) -> String {
            palette[(backendNames.firstIndex(of: backend) ?? 0) % palette.count]
        }

        // The axis: a log scale of whole decades for time, 0...100% (or more) for the peak.
        let values = result.layers.flatMap { $0.backends.map { metric == .milliseconds ? $0.milliseconds : $0.percentOfPeak } }
        let axis = Axis(metric: metric, values: values)
        func length(_ value: Double) -> Double { plotWidth * axis.fraction(value) }

        // Group heights first, to size the picture.
        let groupHeights = result.layers.map { layer in
            Swift.max(2 * barHeight + barGap, Double(layer.backends.count) * (barHeight + barGap) - barGap)
        }
        let plotHeight = groupHeights.reduce(0, +) + groupGap * Double(Swift.max(0, result.layers.count - 1))
        let height = top + plotHeight + 40

        let heading = title.isEmpty ? "layers" : title
        let measure = metric == .milliseconds ? "median ms (log scale)" : "% of the measured FMA peak × threads"
        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height.rounded(.up)))" font-family="sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="10" y="20" font-size="14">\(escape(heading)): \(measure), \(result.threads) thread\(result.threads == 1 ? "" : "s"), median of \(result.runs) runs</text>
        <text x="10" y="38" fill="#555">\(escape(result.cpu.description)); measured FMA peak \(f(result.peak.gflopsPerCore)) GFLOP/s per core (\(escape(result.peak.isa)))</text>

        """
        // Legend.
        var legendX = 10.0
        for name in backendNames {
            svg += "<rect x=\"\(f(legendX))\" y=\"48\" width=\"12\" height=\"12\" fill=\"\(colour(name))\"/>"
            svg += "<text x=\"\(f(legendX + 16))\" y=\"58\">\(escape(name))</text>\n"
            legendX += 30 + 7 * Double(name.count)
        }
        // Ticks and grid lines.
        for tick in axis.ticks {
            let x = plotLeft + length(tick)
            svg += "<line x1=\"\(f(x))\" y1=\"\(f(top - 6))\" x2=\"\(f(x))\" y2=\"\(f(top + plotHeight))\" stroke=\"#ddd\"/>"
            svg += "<text x=\"\(f(x))\" y=\"\(f(top - 10))\" text-anchor=\"middle\" fill=\"#555\">\(axis.label(tick))</text>\n"
        }
        svg += "<line x1=\"\(f(plotLeft))\" y1=\"\(f(top - 6))\" x2=\"\(f(plotLeft))\" y2=\"\(f(top + plotHeight))\" stroke=\"black\"/>\n"

        var y = top
        for (layer, groupHeight) in zip(result.layers, groupHeights) {
            let count = layer.count > 1 ? " ×\(layer.count)" : ""
            svg += "<g class=\"layer\"><title>\(escape(layer.nodes.joined(separator: ", ")))</title>"
            svg += "<text x=\"10\" y=\"\(f(y + 11))\">\(layer.index)  \(escape(clip(layer.op + count, 38)))</text>"
            svg += "<text x=\"10\" y=\"\(f(y + 11 + barHeight + barGap))\" fill=\"#777\" font-size=\"10\">\(escape(clip(layer.shape, 46)))</text>\n"
            for (row, entry) in layer.backends.enumerated() {
                let barY = y + Double(row) * (barHeight + barGap)
                let value = metric == .milliseconds ? entry.milliseconds : entry.percentOfPeak
                let peak = layer.multiplyAccumulates > 0 ? String(format: ", %.0f%% of peak", entry.percentOfPeak) : ""
                let note = "\(entry.backend): \(entry.algorithm), \(String(format: "%.3f", entry.milliseconds)) ms\(peak)"
                svg += "<rect class=\"bar\" x=\"\(f(plotLeft))\" y=\"\(f(barY))\" width=\"\(f(length(value)))\" height=\"\(f(barHeight))\" fill=\"\(colour(entry.backend))\"><title>\(escape(note))</title></rect>"
                svg += "<text x=\"\(f(noteLeft))\" y=\"\(f(barY + 11))\">\(escape(clip(note, 78)))</text>\n"
            }
            svg += "</g>\n"
            y += groupHeight + groupGap
        }
        svg += "</svg>\n"
        return svg
    }

    /// Where values fall along the bars.
    struct Axis {
        let metric: Metric
        let low: Double
        let high: Double

        init(metric: Metric, values: [Double]) {
            self.metric = metric
            switch metric {
            case .milliseconds:
                let positive = values.filter { $0 > 0 && $0.isFinite }
                let smallest = positive.min() ?? 0.01, largest = positive.max() ?? 1
                // Whole decades, one below the smallest value so every bar shows.
                low = pow(10, (log10(smallest)).rounded(.down) - 1)
                high = Swift.max(pow(10, log10(largest).rounded(.up)), low * 100)
            case .percentOfPeak:
                low = 0
                let largest = values.filter(\.isFinite).max() ?? 0
                high = Swift.max(100, (largest / 25).rounded(.up) * 25)
            }
        }

        /// 0...1 along the bar.
        func fraction(_ value: Double) -> Double {
            guard value.isFinite, value > low else { return 0 }
            switch metric {
            case .milliseconds: return Swift.min(1, log10(value / low) / log10(high / low))
            case .percentOfPeak: return Swift.min(1, value / high)
            }
        }

        var ticks: [Double] {
            switch metric {
            case .milliseconds:
                let decades = Int(log10(high / low).rounded())
                return (0...decades).map { low * pow(10, Double($0)) }
            case .percentOfPeak:
                return stride(from: 0, through: high, by: 25).map { $0 }
            }
        }

        func label(_ tick: Double) -> String {
            switch metric {
            case .milliseconds: return tick >= 1 ? String(format: "%.0f ms", tick) : String(format: "%g ms", tick)
            case .percentOfPeak: return String(format: "%.0f%%", tick)
            }
        }
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func clip(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
