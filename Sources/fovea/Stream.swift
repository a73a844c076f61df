import ArgumentParser
@_spi(Internals) import Fovea
import Foundation
import FoveaFrames

struct Stream: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Classify video frames as fast as the model allows, dropping frames while busy.",
        discussion: """
        SOURCE is a YUV4MPEG2 stream (a .y4m file, or - for standard input: \
        `ffmpeg -i clip.mp4 -f yuv4mpegpipe - | fovea stream --model M -`) or a \
        directory of images, read in name order. Frames are read as fast as they \
        come; at most one is classified at a time and only the newest waiting frame \
        is kept: the others are dropped and counted. Every frame is registered \
        against the previous one; the scene is stable when the last --history \
        translations add up to less than --max-distance pixels (Manhattan), \
        FlowerShop's rule. One line per classified frame: its number, stable or \
        moving, the top class and its confidence; then a summary line.
        """
    )

    @Option(help: "The model file (.onnx or .mlmodel).")
    var model: String

    @Option(help: "Class labels: a file with one label per line, or 'imagenet'. Default: the model's.")
    var labels: String?

    @Flag(help: "Classify only frames offered while the scene is stable.")
    var stableOnly = false

    @Option(help: "Classify only every N-th frame (1: every frame; the others still count for stability).")
    var every = 1

    @Option(help: "Translations in the stability history.")
    var history = 15

    @Option(help: "Largest summed movement, in pixels, of a stable scene.")
    var maxDistance = 20.0

    @Flag(help: "Also look for barcodes in each classified frame.")
    var barcodes = false

    @OptionGroup var backend: BackendOptions
    @OptionGroup var pixels: PixelLimitOption

    @Flag(help: "Print JSON lines: one per frame {\"frame\",\"stable\",\"identifier\",\"confidence\",\"latencyMs\"}, then {\"summary\":{…}}.")
    var json = false

    @Argument(help: "A .y4m file, - for standard input, or a directory of images.")
    var source: String

    func validate() throws {
        guard every >= 1 else { throw ValidationError("--every must be at least 1") }
        guard history >= 1 else { throw ValidationError("--history must be at least 1") }
        guard maxDistance >= 0, maxDistance.isFinite else { throw ValidationError("--max-distance must be a number >= 0") }
    }

    func run() throws {
        let loaded = try Model(contentsOfFile: model, configuration: backend.configuration).describing { description in
            if let labels { description.classLabels = try ClassLabels(namedOrAt: labels) }
        }
        let request = try ClassificationRequest(model: loaded)
        request.maximumObservations = 1
        let classifier = try FrameClassifier(
            request: request, barcodes: barcodes ? DetectBarcodesRequest() : nil,
            stability: try SceneStabilityDetector(historyLength: history, maximumDistance: maxDistance),
            gate: stableOnly ? .stableOnly : .always, classifyEvery: every)
        var frames = try FrameSource(path: source, limits: pixels.limits, colorMatching: pixels.colorMatching)

        let printed = DispatchSemaphore(value: 0)
        let json = self.json
        Task.detached {
            for await result in classifier.results { StreamOutput.print(result, json: json) }
            printed.signal()
        }
        let start = DispatchTime.now().uptimeNanoseconds
        var readError: (any Error)?
        do {
            while let frame = try frames.next() { try classifier.offer(frame) }
        } catch {
            readError = error
        }
        classifier.finish()
        printed.wait()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        StreamOutput.printSummary(classifier.statistics, seconds: seconds, json: json)
        if let readError { throw readError }
    }
}

/// The frames of a Y4M stream or of a directory's images, in order.
private struct FrameSource {
    private let video: Y4MReader?
    private let files: [String]
    private let limits: ImageDecodingLimits
    private let colorMatching: ColorMatching
    private var index = 0

    init(path: String, limits: ImageDecodingLimits, colorMatching: ColorMatching) throws {
        self.limits = limits
        self.colorMatching = colorMatching
        var isDirectory: ObjCBool = false
        if path != "-", FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            let (files, errors) = ImageFiles.expand([path])
            if let error = errors.first { throw FoveaError(.invalidArgument, error) }
            self.files = files
            video = nil
        } else {
            video = try Y4MReader(path: path, limits: limits)
            files = []
        }
    }

    mutating func next() throws -> RGBImage? {
        if let video { return try video.nextFrame() }
        guard index < files.count else { return nil }
        defer { index += 1 }
        return try ImageRequestHandler(contentsOfFile: files[index], limits: limits, colorMatching: colorMatching).image
    }
}

/// The per-frame lines and the summary of `fovea stream`.
private enum StreamOutput {
    /// One `--json` line per classified frame.
    struct FrameLine: Encodable {
        var frame: Int
        var stable: Bool
        var identifier: String?
        var confidence: Float?
        var latencyMs: Double
        var barcodes: [BarcodeObservation]?
        var error: String?
    }

    /// The last `--json` line: `{"summary":{...}}`.
    struct Summary: Encodable {
        var framesRead, classified, dropped, skipped: Int
        var meanLatencyMs, seconds, framesReadPerSecond, classifiedPerSecond: Double
    }

    static func print(_ result: FrameClassification, json: Bool) {
        let top = result.observations.first
        let stable = result.isStable ?? false
        if json {
            let line = FrameLine(frame: result.frameNumber, stable: stable, identifier: top?.identifier, confidence: top?.confidence,
                                 latencyMs: result.latency * 1000, barcodes: result.barcodes.isEmpty ? nil : result.barcodes,
                                 error: result.error?.description)
            emit(json: line)
        } else if let error = result.error {
            printError("frame \(result.frameNumber): \(error)")
        } else {
            var text = String(format: "frame %5d  %@  %6.2f%%  ", result.frameNumber, stable ? "stable" : "moving",
                              Double(top?.confidence ?? 0) * 100) + (top?.identifier.terminalSafe ?? "")
            for code in result.barcodes {
                text += "  [\(code.symbology) \((code.payloadStringValue ?? "").terminalSafe)]"
            }
            emit(text)
        }
    }

    /// Writes one line at once (unbuffered, so that a pipe sees each frame as it is classified).
    static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func emit(json value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        emit(String(decoding: data, as: UTF8.self))
    }

    static func printSummary(_ counts: FrameClassifierStatistics, seconds: Double, json: Bool) {
        let readRate = seconds > 0 ? Double(counts.offered) / seconds : 0
        let classifiedRate = seconds > 0 ? Double(counts.classified) / seconds : 0
        if json {
            let summary = Summary(framesRead: counts.offered, classified: counts.classified, dropped: counts.dropped,
                                  skipped: counts.skipped, meanLatencyMs: counts.meanLatency * 1000, seconds: seconds,
                                  framesReadPerSecond: readRate, classifiedPerSecond: classifiedRate)
            emit(json: ["summary": summary])
        } else {
            emit(String(format: "frames read %d, classified %d, dropped %d, skipped %d; mean latency %.1f ms; %.1f frames/s read, %.1f classified/s",
                               counts.offered, counts.classified, counts.dropped, counts.skipped, counts.meanLatency * 1000, readRate, classifiedRate))
        }
    }
}
