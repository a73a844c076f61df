import Foundation
@_spi(Internals) import Fovea
import FoveaCore
import FoveaKernelsBackend

/// `fovea tune`: measures a model's choices on this machine and stores the winners
/// (``TuningStore``); `fovea tune --show` prints what is stored.
public enum ModelTuning {
    /// One line per measured shape: what won, what the fallback table would have run, and the times.
    public struct Line: Sendable {
        /// What was measured and stored.
        public let entry: TuningEntry
        /// What the fallback table runs for the same shape.
        public let fallback: ConvolutionAlgorithm

        /// `conv3x3 ... threads=1  winograd-f4 (fallback winograd-f2: 1.31 ms, 22% slower)  gemm 1.92, ...`
        public var text: String {
            let times = entry.milliseconds.map { "\($0.0.rawValue) \(String(format: "%.3f", $0.1))" }.joined(separator: ", ")
            let best = entry.milliseconds.first { $0.0 == entry.choice }?.1
            let fallbackTime = entry.milliseconds.first { $0.0 == fallback }?.1
            var comparison = "same as the fallback"
            if fallback != entry.choice {
                comparison = "fallback: \(fallback.rawValue)"
                if let best, let fallbackTime, best > 0 {
                    comparison += String(format: ", %.3f ms saved (%.0f%%)", fallbackTime - best, 100 * (fallbackTime - best) / fallbackTime)
                }
            }
            return "\(entry.key)  \(entry.choice.rawValue)  (\(comparison))  ms: \(times)  [\(entry.date)]"
        }
    }

    /// Plans `modelPath` at each thread count with every 3×3 shape measured again, stores the
    /// winners in `store`'s record and returns them.
    public static func tune(modelPath: String, threads: [Int], store: TuningStore = .current) throws -> [Line] {
        let before = store.savedEntries.count
        for count in threads {
            let registry = BackendRegistry([KernelsBackend(store: store)] + BackendRegistry.standard.backends.filter { $0.name != KernelsBackend.name })
            _ = try Model(contentsOfFile: modelPath, configuration: ModelConfiguration(threads: count, registry: registry,
                                                                                  tuning: .remeasure()))
        }
        return store.savedEntries.dropFirst(before).map { Line(entry: $0, fallback: $0.key.fallbackChoice) }
    }

    /// This CPU's record file in the default directory.
    public static var recordPath: String { TuningStore.current.path }

    /// What `store` holds for this CPU, where it came from, and the other CPUs' records beside it.
    public static func show(store: TuningStore = .current) -> String {
        var lines = ["tuning directory: \(store.directory)", "this CPU: \(store.cpu)", "record: \(store.path)"]
        let record = store.record
        if record.entries.isEmpty {
            lines.append("  nothing stored for this CPU: plans take the fallback table (run `fovea tune --model M`)")
        }
        for entry in record.entries.values.sorted(by: { $0.key.description < $1.key.description }) {
            lines.append("  " + Line(entry: entry, fallback: entry.key.fallbackChoice).text)
        }
        lines.append("fallback: the table measured on \(KernelTuning.fallbackCPU)")
        let others = ((try? FileManager.default.contentsOfDirectory(atPath: store.directory)) ?? [])
            .filter { $0.hasSuffix(".txt") && !$0.hasPrefix(".") && $0 != (store.path as NSString).lastPathComponent }.sorted()
        if !others.isEmpty { lines.append("other CPUs' records here (not used on this one): \(others.joined(separator: ", "))") }
        return lines.map(SafeText.escaped).joined(separator: "\n")
    }

    /// Measures the fallback table's grid (3×3 "same" convolutions, channels and output channels
    /// 16…512, planes 7…56, at 1 thread and at `threads`) and returns it as the Swift source of
    /// `ConvolutionAlgorithmTable+Measured.swift`, naming this CPU.
    public static func fallbackTable(threads: Int, channels: [Int] = [16, 32, 64, 128, 256, 512],
                                     sizes: [Int] = [7, 13, 14, 27, 28, 55, 56], progress: (String) -> Void = { _ in }) throws -> String {
        let cpu = CPUIdentity.current
        let date = ISO8601DateFormatter().string(from: Date()).prefix(10)
        var rows: [String] = []
        for size in sizes {
            for c in channels {
                for k in channels {
                    func key(_ t: Int) -> TuningKey {
                        TuningKey(channels: c, outputChannels: k, inputHeight: size, inputWidth: size,
                                  outputHeight: size, outputWidth: size, padTop: 1, padLeft: 1, threads: t)
                    }
                    // The table's columns are every tunable algorithm: no accuracy cap here (the plan applies it).
                    let one = try key(1).measureCandidates(allCandidates: true)
                    let many = try key(threads).measureCandidates(allCandidates: true)
                    let best = one.min { $0.1 < $1.1 }?.0 ?? .gemm
                    func list(_ times: [(ConvolutionAlgorithm, Double)]) -> String {
                        times.map { String(format: "%.4f", $0.1) }.joined(separator: ", ")
                    }
                    rows.append("        Row(channels: \(c), outputs: \(k), size: \(size), milliseconds: [\(list(one))], twoThreads: [\(list(many))], best: .\(best.swiftCase)),")
                    progress("\(c)->\(k) @\(size): \(best.rawValue)")
                }
            }
        }
        let machine = cpu.description.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\\", with: "/")
        return """
        // Generated by `fovea tune --write-fallback` on \(date): do not edit by hand.
        // Machine: \(machine), \(ProcessInfo.processInfo.activeProcessorCount) cores.
        // Milliseconds per algorithm, in ConvolutionAlgorithmTable.columns order: the median of 5 or more alternated rounds
        // at 1 thread (milliseconds) and \(threads) threads (twoThreads); best is the fastest at 1 thread.

        extension ConvolutionAlgorithmTable {
            /// The machine these times come from: the fallback is named by it wherever it is used.
            static let measuredOn = "\(machine)"
            static let measured: [Row] = [
        \(rows.joined(separator: "\n"))
            ]
        }

        """
    }
}

extension ConvolutionAlgorithm {
    /// The Swift case name (`winogradF4`), for generated source.
    var swiftCase: String {
        switch self {
        case .gemm: return "gemm"
        case .winogradF2: return "winogradF2"
        case .winogradF4: return "winogradF4"
        case .winogradF6: return "winogradF6"
        case .depthwise: return "depthwise"
        case .directSmallChannel: return "directSmallChannel"
        }
    }
}
