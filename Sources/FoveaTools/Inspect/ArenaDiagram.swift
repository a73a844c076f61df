import FoveaCore

/// Draws a memory plan as an SVG picture (`fovea inspect --plan --svg FILE`):
/// steps along x, arena bytes along y, one box per arena buffer over the steps
/// it is alive, so a person can see where the memory goes and how tightly
/// the planner packed it. A dashed line marks the lower bound.
public enum ArenaDiagram {
    /// The SVG document for `plan`.
    public static func svg(_ plan: ExecutionPlan, title: String = "") -> String {
        let memory = plan.memory
        let width = 1000.0, height = 600.0
        let left = 90.0, right = 20.0, top = 40.0, bottom = 50.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let columns = Double(Swift.max(1, memory.stepCount + 1))
        let peak = Double(Swift.max(1, memory.arenaBytes))
        func x(_ step: Int) -> Double { left + plotWidth * Double(step) / columns }
        func y(_ bytes: Int) -> Double { top + plotHeight * (1 - Double(bytes) / peak) }

        var svg = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" font-family="sans-serif" font-size="11">
        <rect width="100%" height="100%" fill="white"/>
        <text x="\(left)" y="20" font-size="14">\(escape(title.isEmpty ? "arena" : title)): arena \(megabytes(memory.arenaBytes)), lower bound \(megabytes(memory.lowerBoundBytes)), no planning \(megabytes(memory.naiveBytes))</text>

        """
        let palette = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948", "#ff9da7", "#9c755f"]
        for (index, buffer) in memory.buffers.enumerated() {
            let x0 = x(buffer.firstStep), x1 = x(buffer.lastStep + 1)
            let y0 = y(buffer.offset + buffer.bytes), y1 = y(buffer.offset)
            let colour = buffer.role == "scratch" ? "#bab0ac" : palette[index % palette.count]
            let label = buffer.contents.joined(separator: ", ")
            svg += "<rect x=\"\(f(x0))\" y=\"\(f(y0))\" width=\"\(f(Swift.max(1, x1 - x0)))\" height=\"\(f(Swift.max(0.5, y1 - y0)))\" fill=\"\(colour)\" fill-opacity=\"0.75\" stroke=\"#333\" stroke-width=\"0.5\"><title>\(escape(label)): \(buffer.bytes) bytes at \(buffer.offset), steps \(buffer.firstStep)–\(buffer.lastStep)</title></rect>\n"
        }
        let bound = y(memory.lowerBoundBytes)
        svg += "<line x1=\"\(left)\" y1=\"\(f(bound))\" x2=\"\(f(width - right))\" y2=\"\(f(bound))\" stroke=\"#c00\" stroke-dasharray=\"4 3\"/>\n"
        svg += "<text x=\"\(f(width - right))\" y=\"\(f(bound - 4))\" text-anchor=\"end\" fill=\"#c00\">lower bound</text>\n"
        // Axes: bytes on the left, steps below.
        svg += "<line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(f(top + plotHeight))\" stroke=\"black\"/>\n"
        svg += "<line x1=\"\(left)\" y1=\"\(f(top + plotHeight))\" x2=\"\(f(width - right))\" y2=\"\(f(top + plotHeight))\" stroke=\"black\"/>\n"
        for tick in 0...4 {
            let bytes = memory.arenaBytes * tick / 4
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(y(bytes) + 4))\" text-anchor=\"end\">\(megabytes(bytes))</text>\n"
        }
        let stepTicks = Swift.max(1, memory.stepCount / 10)
        for step in stride(from: 0, through: memory.stepCount, by: stepTicks) {
            svg += "<text x=\"\(f(x(step)))\" y=\"\(f(top + plotHeight + 16))\" text-anchor=\"middle\">\(step)</text>\n"
        }
        svg += "<text x=\"\(f(left + plotWidth / 2))\" y=\"\(f(height - 10))\" text-anchor=\"middle\">step (\(memory.stepCount) = outputs copied out)</text>\n"
        svg += "</svg>\n"
        return svg
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func megabytes(_ bytes: Int) -> String { String(format: "%.2f MB", Double(bytes) / 1_000_000) }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

import Foundation
