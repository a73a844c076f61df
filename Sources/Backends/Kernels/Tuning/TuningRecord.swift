import CFoveaKernels
import Foundation

/// One measured choice: a 3×3 stride-1 convolution's geometry at one thread
/// count, the algorithm that won, and what each candidate took.
public struct TuningEntry: Sendable, Equatable {
    /// The convolution and thread count, as the record's key (`conv3x3 n=1 c=64 ... threads=2`).
    public var key: TuningKey
    /// The fastest candidate.
    public var choice: ConvolutionAlgorithm
    /// Median milliseconds per candidate, in the order measured.
    public var milliseconds: [(ConvolutionAlgorithm, Double)]
    /// When it was measured (UTC, ISO 8601).
    public var date: String

    /// Creates an entry.
    public init(key: TuningKey, choice: ConvolutionAlgorithm, milliseconds: [(ConvolutionAlgorithm, Double)], date: String) {
        self.key = key
        self.choice = choice
        self.milliseconds = milliseconds
        self.date = date
    }

    public static func == (a: TuningEntry, b: TuningEntry) -> Bool {
        a.key == b.key && a.choice == b.choice && a.date == b.date
            && a.milliseconds.map(\.0) == b.milliseconds.map(\.0) && a.milliseconds.map(\.1) == b.milliseconds.map(\.1)
    }
}

/// What a choice is keyed by besides the CPU: the convolution's geometry
/// (batch, channels, output channels, input and output planes, padding) and the
/// thread count of the runs it was measured for.
public struct TuningKey: Sendable, Hashable, CustomStringConvertible {
    /// Images per run (N).
    public var batch: Int
    /// Input channels (C).
    public var channels: Int
    /// Output channels (K).
    public var outputChannels: Int
    /// The input plane's height.
    public var inputHeight: Int
    /// The input plane's width.
    public var inputWidth: Int
    /// The output plane's height.
    public var outputHeight: Int
    /// The output plane's width.
    public var outputWidth: Int
    /// Rows of zeros above the input.
    public var padTop: Int
    /// Columns of zeros left of the input.
    public var padLeft: Int
    /// Threads per run the choice was measured for.
    public var threads: Int

    /// Creates a key (`pad` is the top and left padding; a "same" 3×3 convolution has 1 and 1).
    public init(batch: Int = 1, channels: Int, outputChannels: Int, inputHeight: Int, inputWidth: Int,
                outputHeight: Int, outputWidth: Int, padTop: Int, padLeft: Int, threads: Int) {
        self.batch = batch
        self.channels = channels
        self.outputChannels = outputChannels
        self.inputHeight = inputHeight
        self.inputWidth = inputWidth
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        self.padTop = padTop
        self.padLeft = padLeft
        self.threads = threads
    }

    public var description: String {
        "conv3x3 n=\(batch) c=\(channels) k=\(outputChannels) in=\(inputHeight)x\(inputWidth) out=\(outputHeight)x\(outputWidth) pad=\(padTop)x\(padLeft) threads=\(threads)"
    }
}

extension TuningKey {
    init(_ shape: ConvolutionShape, threads: Int) {
        let p = shape.params
        self.init(batch: p.batch, channels: p.channels, outputChannels: p.output_channels,
                  inputHeight: p.input_height, inputWidth: p.input_width,
                  outputHeight: p.output_height, outputWidth: p.output_width,
                  padTop: p.pad_top, padLeft: p.pad_left, threads: threads)
    }

    /// What the fallback table picks for this convolution (as a plan would, with the accuracy cap).
    public var fallbackChoice: ConvolutionAlgorithm {
        shape.accurateEnough(ConvolutionAlgorithmTable.fastest(channels: channels, outputChannels: outputChannels,
                                                                   height: outputHeight, width: outputWidth))
    }

    /// Measures the candidates for this convolution now: median milliseconds per algorithm.
    /// `allCandidates` includes F(4) and F(6) on planes where a plan never runs them (for accuracy).
    public func measureCandidates(allCandidates: Bool = false) throws -> [(ConvolutionAlgorithm, Double)] {
        try ConvolutionTuner.measure(self, candidates: allCandidates ? ConvolutionTuner.tunable : nil)
    }

    /// The geometry as a convolution shape (no activation, no residual): what the tuner measures.
    var shape: ConvolutionShape {
        ConvolutionShape(params: fovea_conv2d_params(
            batch: batch, channels: channels, input_height: inputHeight, input_width: inputWidth,
            output_channels: outputChannels, groups: 1, output_height: outputHeight, output_width: outputWidth,
            kernel_height: 3, kernel_width: 3, stride_height: 1, stride_width: 1,
            dilation_height: 1, dilation_width: 1, pad_top: padTop, pad_left: padLeft), activation: nil)
    }
}

/// The choices measured on one CPU: the contents of one record file.
///
/// The file is plain text, one choice a line, so that people can read it and diff it:
///
///     fovea-tuning 1
///     cpu vendor=AuthenticAMD family=25 model=1 isa=avx2
///     name AMD EPYC 7B13
///     conv3x3 n=1 c=64 k=64 in=56x56 out=56x56 pad=1x1 threads=1 choice=winograd-f4 ms=gemm:1.92,winograd-f2:1.31,winograd-f4:1.02,winograd-f6:1.10 date=2026-12-07T21:40:00Z
///
/// Lines starting with `#` are comments.
public struct TuningRecord: Sendable, Equatable {
    /// The format's version, on the first line.
    static let formatLine = "fovea-tuning 1"

    /// The CPU the choices were measured on.
    public var cpu: CPUIdentity
    /// The choices, by shape and thread count.
    public var entries: [TuningKey: TuningEntry]

    /// A record of `cpu` holding `entries`.
    public init(cpu: CPUIdentity, entries: [TuningKey: TuningEntry] = [:]) {
        self.cpu = cpu
        self.entries = entries
    }

    /// The record's text, entries sorted by key.
    public var text: String {
        var lines = [
            "# Convolution algorithms measured on this CPU by Fovea (fovea tune, or --tune). Safe to delete.",
            Self.formatLine, cpu.keyLine,
        ]
        if !cpu.name.isEmpty { lines.append("name \(CPUIdentity.printable(cpu.name))") }
        for entry in entries.values.sorted(by: { $0.key.description < $1.key.description }) {
            let times = entry.milliseconds.map { "\($0.0.rawValue):\(String(format: "%.4f", $0.1))" }.joined(separator: ",")
            lines.append("\(entry.key) choice=\(entry.choice.rawValue) ms=\(times) date=\(entry.date)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What reading a record found wrong: the whole file is ignored, or some lines are.
    public enum Problem: Error, Equatable {
        /// Not a record (no `fovea-tuning 1` line, or no `cpu` line): nothing is used.
        case corrupt(String)
        /// A record of another CPU (copied from another machine, or another ISA level): nothing is used.
        case foreign(CPUIdentity)
    }

    /// Parses `text`, expecting a record of `cpu`. Lines that do not parse, or that name an
    /// algorithm this build does not have, are left out and described in `skipped`.
    public static func parse(_ text: String, expecting cpu: CPUIdentity) -> Result<(record: TuningRecord, skipped: [String]), Problem> {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard lines.first == formatLine else {
            return .failure(.corrupt("the first line is not '\(formatLine)'"))
        }
        guard lines.count >= 2, lines[1].hasPrefix("cpu "), let found = parseCPU(lines[1]) else {
            return .failure(.corrupt("no valid 'cpu vendor=... family=... model=... isa=...' line"))
        }
        guard found.matches(cpu) else { return .failure(.foreign(found)) }
        var record = TuningRecord(cpu: cpu)
        var skipped: [String] = []
        for (index, line) in lines.enumerated().dropFirst(2) {
            if line.hasPrefix("name ") {
                record.cpu.name = CPUIdentity.printable(String(line.dropFirst(5)))
                continue
            }
            switch parseEntry(line) {
            case .success(let entry): record.entries[entry.key] = entry
            case .failure(let reason): skipped.append("line \(index + 1): \(reason.message)")
            }
        }
        return .success((record, skipped))
    }

    private struct LineError: Error { let message: String }

    private static func fields(_ line: some StringProtocol) -> [String: String] {
        var fields: [String: String] = [:]
        for token in line.split(separator: " ").dropFirst() {
            let pair = token.split(separator: "=", maxSplits: 1)
            if pair.count == 2 { fields[String(pair[0])] = String(pair[1]) }
        }
        return fields
    }

    private static func parseCPU(_ line: String) -> CPUIdentity? {
        let f = fields(line)
        guard let vendor = f["vendor"], let family = f["family"].flatMap({ Int($0) }),
              let model = f["model"].flatMap({ Int($0) }), let isa = f["isa"] else { return nil }
        return CPUIdentity(vendor: vendor, family: family, model: model, isa: isa)
    }

    private static func parseEntry(_ line: String) -> Result<TuningEntry, LineError> {
        guard line.hasPrefix("conv3x3 ") else {
            return .failure(LineError(message: "unknown kind of choice '\(line.prefix(while: { $0 != " " }))'"))
        }
        let f = fields(line)
        func int(_ name: String) -> Int? { f[name].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil } }
        func pair(_ name: String) -> (Int, Int)? {
            guard let parts = f[name]?.split(separator: "x"), parts.count == 2,
                  let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= 0 else { return nil }
            return (a, b)
        }
        guard let n = int("n"), let c = int("c"), let k = int("k"), let input = pair("in"), let output = pair("out"),
              let pad = pair("pad"), let threads = int("threads"), n > 0, c > 0, k > 0, threads > 0,
              input.0 > 0, input.1 > 0, output.0 > 0, output.1 > 0 else {
            return .failure(LineError(message: "a conv3x3 line without n, c, k, in, out, pad and threads"))
        }
        guard let name = f["choice"] else { return .failure(LineError(message: "no choice=")) }
        guard let choice = ConvolutionAlgorithm(rawValue: name), ConvolutionTuner.tunable.contains(choice) else {
            return .failure(LineError(message: "unknown algorithm '\(name)' (this build has \(ConvolutionTuner.tunable.map(\.rawValue).joined(separator: ", ")))"))
        }
        var times: [(ConvolutionAlgorithm, Double)] = []
        for item in (f["ms"] ?? "").split(separator: ",") {
            let parts = item.split(separator: ":")
            guard parts.count == 2, let algorithm = ConvolutionAlgorithm(rawValue: String(parts[0])),
                  let ms = Double(parts[1]), ms.isFinite, ms >= 0 else {
                return .failure(LineError(message: "a time that is not algorithm:milliseconds ('\(item)')"))
            }
            times.append((algorithm, ms))
        }
        let key = TuningKey(batch: n, channels: c, outputChannels: k, inputHeight: input.0, inputWidth: input.1,
                            outputHeight: output.0, outputWidth: output.1, padTop: pad.0, padLeft: pad.1, threads: threads)
        return .success(TuningEntry(key: key, choice: choice, milliseconds: times, date: f["date"] ?? "unknown"))
    }
}
