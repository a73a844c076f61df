import ArgumentParser
@_spi(Internals) import Fovea
import Foundation
import FoveaImage
import FoveaFrames

struct Classify: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Classify photos (JPEG, PNG, HEIC, AVIF, WebP, PPM) with an image model.",
        discussion: """
        Each image is turned upright (EXIF orientation by default), fitted to the \
        model's input size (--crop), normalized as the model's description says \
        (its sidecar <name>.fovea.json, or ImageNet's mean and std; --mean/--std \
        override), and run. Colours are matched to sRGB from the photo's embedded \
        profile (--color-matching). Confidences are the softmax of the model's output \
        unless the model outputs probabilities. Directories are searched for images.

        For large collections (docs/large-collections.md): --paths-from reads the \
        paths one per line from a file or standard input (-), --jsonl writes one \
        JSON object per photo as soon as it is done (with its input line number; \
        a photo that fails is an object with "error", and the exit status is 0 \
        unless the run itself stopped), --output FILE --resume continues an \
        interrupted run, and --shard I/N does the I-th of N parts of the list. \
        When standard error is not a terminal, a JSON progress line is written \
        there every --progress-interval seconds.
        """
    )

    @Option(help: "The model file (.onnx).")
    var model: String

    @Option(help: "Class labels: a file with one label per line in class order, or 'imagenet' for the built-in 1000 ImageNet labels (a file named imagenet: ./imagenet). Default: the model's (sidecar, Core ML).")
    var labels: String?

    @Option(help: "How many classes to show per image.")
    var top: Int = 5

    @Option(help: "center (scale the shorter side, crop the centre), fill (stretch) or fit (keep aspect, pad with black).")
    var crop: ImageCropAndScaleOption = .centerCrop

    @Option(help: "For --crop center: the central fraction kept, such as 0.875 (224 of 256). Default: the model's, else 1.")
    var cropFraction: Double?

    @Option(help: "auto (EXIF), up, down, left, right, up-mirrored, down-mirrored, left-mirrored or right-mirrored.")
    var orientation: OrientationOption = .auto

    @Option(help: "Leave out classes below this confidence (0...1); prints \"not sure\" when none is left.")
    var minConfidence: Float = 0

    @Option(help: "Per-channel mean in the 0...1 pixel scale (r,g,b). Default: the model's description.")
    var mean: String?

    @Option(help: "Per-channel standard deviation in the 0...1 scale (r,g,b). Default: the model's description.")
    var std: String?

    @Flag(help: "Also detect barcodes (QR, EAN-13/8, UPC, Code 128/39/93, ...) in each image; JSON: \"barcodes\".")
    var barcodes = false

    @Option(help: ArgumentHelp(RegionOfInterestOption.help, valueName: "x,y,w,h"))
    var roi: RegionOfInterestOption?

    @OptionGroup var backend: BackendOptions
    @OptionGroup var pixels: PixelLimitOption

    @Option(help: "Also write the picture the model sees (.png, .ppm); with several images, the image's name is appended.")
    var saveInput: String?

    @Option(help: "Images per inference: several run as one N×3×H×W batch when the model accepts it.")
    var batchSize: Int = 1

    @Flag(help: "Print JSON: {\"results\":[{\"image\":…,\"orientation\":…,\"observations\":[{\"identifier\":…,\"confidence\":…}]}]}.")
    var json = false

    @Flag(help: "Print JSON Lines: one object per photo as it is done, as --json's results plus \"line\" (the photo's input line, from 1).")
    var jsonl = false

    @Option(help: ArgumentHelp("Read the paths from this file, one per line (- for standard input); blank lines are skipped.", valueName: "file"))
    var pathsFrom: String?

    @Option(help: ArgumentHelp("With --jsonl: write the results to this file (started afresh unless --resume).", valueName: "file"))
    var output: String?

    @Flag(help: "With --output: keep the results already in the file and classify only the photos after them.")
    var resume = false

    @Option(help: ArgumentHelp("Classify only part I of N (0-based): the input lines L with (L - 1) mod N = I.", valueName: "I/N"))
    var shard: Shard?

    @Option(help: "Seconds between JSON progress lines on standard error when it is not a terminal (0: none).")
    var progressInterval: Double = 5

    @Argument(help: "Image files or directories.")
    var images: [String] = []

    func validate() throws {
        guard top >= 1 else { throw ValidationError("--top must be at least 1") }
        guard (1...256).contains(batchSize) else { throw ValidationError("--batch-size must be in 1...256") }
        if pathsFrom != nil {
            guard images.isEmpty else { throw ValidationError("give the images either as arguments or with --paths-from, not both") }
            guard saveInput == nil else { throw ValidationError("--save-input takes images given as arguments, not --paths-from") }
        } else {
            guard !images.isEmpty else { throw ValidationError("give at least one image (or --paths-from FILE)") }
        }
        guard !(json && jsonl) else { throw ValidationError("--json and --jsonl: choose one") }
        guard output == nil || jsonl else { throw ValidationError("--output writes JSON Lines: add --jsonl") }
        guard !resume || output != nil else { throw ValidationError("--resume continues the file given with --output") }
        guard progressInterval >= 0, progressInterval.isFinite else { throw ValidationError("--progress-interval must be 0 or more seconds") }
        guard (0...1).contains(minConfidence) else { throw ValidationError("--min-confidence must be in 0...1") }
        if let cropFraction, !(cropFraction > 0 && cropFraction <= 1) { throw ValidationError("--crop-fraction must be in (0, 1]") }
    }

    func run() throws {
        let loaded = try Model(contentsOfFile: model, configuration: backend.configuration).describing { description in
            if let labels { description.classLabels = try ClassLabels(namedOrAt: labels) }
            if let cropFraction { description.imageInput?.cropFraction = cropFraction }
            if var normalization = description.imageInput?.normalization, mean != nil || std != nil {
                if let mean { normalization.mean = try parseTriple(mean, option: "--mean") }
                if let std {
                    normalization.std = try parseTriple(std, option: "--std")
                    guard normalization.std.allSatisfy({ $0 > 0 }) else { throw ValidationError("--std values must be positive") }
                }
                description.imageInput?.normalization = normalization
            }
        }
        let request = try ClassificationRequest(model: loaded)
        request.imageCropAndScaleOption = crop
        var barcodeRequest: DetectBarcodesRequest?
        if let roi { request.regionOfInterest = roi.rect }
        if barcodes {
            barcodeRequest = DetectBarcodesRequest()
            barcodeRequest?.regionOfInterest = request.regionOfInterest
        }
        // A Core ML classifier's JSON also lists every class probability, as
        // Core ML's own outputs would: then ask for all and cut to --top here.
        let coreMLOutputs = json ? loaded.modelDescription.classifierOutputNames : nil
        if coreMLOutputs == nil {
            request.maximumObservations = top
            request.minimumConfidence = minConfidence
        }

        let list: PathList
        var total: Int?
        var failures = 0
        if let pathsFrom {
            list = try PathList(contentsOf: pathsFrom)
        } else {
            let (files, listingErrors) = ImageFiles.expand(images)
            failures += listingErrors.count
            listingErrors.forEach { printError($0) }
            list = PathList(paths: files)
            total = shard?.lineCount(among: files.count) ?? files.count
        }
        let queue = PhotoQueue(list, shard: shard)

        var writer: JSONLinesWriter?
        var skipped = 0
        if let output {
            if resume {
                let point = try ResumePoint.read(path: output)
                if point.tornBytes > 0 {
                    guard truncate(output, off_t(point.completeLength)) == 0 else {
                        throw FoveaError(.io, "cannot cut off the torn last line (\(String(cString: strerror(errno))))", location: .init(file: output))
                    }
                    printWarning("\(output): removed a last line cut short (\(point.tornBytes) bytes) by an interrupted run; that photo is done again")
                }
                try point.skipDone(in: queue, file: output)
                skipped = point.results
            }
            writer = try JSONLinesWriter(path: output, appending: resume)
        } else if jsonl {
            writer = JSONLinesWriter()
        }
        total = total.map { $0 - skipped }

        var results: [ImageResult] = []
        var done = 0
        var photoFailures = 0
        let progress = ProgressBar(total: total)
        let progressLog = ProgressLog(interval: progressInterval, skipped: skipped)
        // Said once, before the first result that names classes by index.
        var labelsWarning = Self.labelsWarning(for: loaded)
        let started = DispatchTime.now().uptimeNanoseconds

        func record(_ result: ImageResult) throws {
            done += 1
            if let writer {
                try writer.write(result)
            } else if json {
                results.append(result)
            }
            progress.update(done: done, failed: photoFailures)
            progressLog.update(done: done, failed: photoFailures)
        }

        func report(_ file: String, line: Int, orientation: ImageOrientation?, _ result: Result<[ClassificationObservation], any Error>) throws {
            // JSON Lines number each photo by its input line.
            let line = writer != nil ? line : nil
            switch result {
            case .success(let all):
                let observations = coreMLOutputs == nil ? all : Array(all.filter { $0.confidence >= minConfidence }.prefix(top))
                // The pipelined classifier does not hand back its decoded picture, so
                // --barcodes reads the file again (upright, full size) for zbar.
                let codes: [BarcodeObservation]?
                do {
                    codes = try barcodeRequest.map { request in
                        try request.observations(for: ImageRequestHandler(contentsOfFile: file, orientation: self.orientation.orientation,
                                                                          limits: pixels.limits, colorMatching: pixels.colorMatching).image)
                    }
                } catch {
                    try report(file, line: line ?? 0, orientation: orientation, .failure(error))
                    return
                }
                if let warning = labelsWarning {
                    progress.clear()
                    printWarning(warning)
                    labelsWarning = nil
                }
                if !json && writer == nil {
                    progress.clear()
                    printText(image: file, observations: observations)
                    if let codes { printBarcodes(codes) }
                }
                try record(ImageResult(image: file, line: line, orientation: orientation?.name, observations: observations,
                                       notSure: observations.isEmpty ? true : nil, error: nil,
                                       outputs: coreMLOutputs.map { CoreMLOutputs.values(names: $0, observations: all) }, barcodes: codes))
            case .failure(let error):
                photoFailures += 1
                // JSON Lines carry the error in the photo's line; elsewhere it goes to standard error.
                if writer == nil {
                    progress.clear()
                    printError("\(error)")
                }
                try record(ImageResult(image: file, line: line, orientation: nil, observations: nil, notSure: nil,
                                       error: String(describing: error), outputs: nil, barcodes: nil))
            }
        }

        progress.update(done: 0)
        if let saveInput {
            // Prepare once: the saved picture is the one classified.
            let several = (total ?? 2) > 1
            while let entry = try queue.nextLine() {
                let file = entry.path
                var orientation: ImageOrientation?
                let result = Result {
                    let handler = try ImageRequestHandler(contentsOfFile: file, orientation: self.orientation.orientation,
                                                          limits: pixels.limits, colorMatching: pixels.colorMatching)
                    orientation = handler.orientation
                    let path = several ? ImageFiles.path(saveInput, taggedWith: file) : saveInput
                    let prepared = try FoveaError.at(.init(file: file)) { try request.preparedImage(for: handler.image) }
                    try writeImage(prepared, to: path)
                    return try FoveaError.at(.init(file: file)) { try request.observations(forPreparedImage: prepared) }
                }
                try report(file, line: entry.number, orientation: orientation, result)
            }
        } else {
            // Pipelined: the next photos are read and decoded while the model runs
            // this one; the list is read as it goes (bounded memory).
            try request.classifyAndWait(contentsOf: queue, orientation: orientation.orientation, limits: pixels.limits,
                                 colorMatching: pixels.colorMatching, batchSize: batchSize) { image in
                try report(image.path, line: queue.takeLineNumber(), orientation: image.orientation, image.result)
            }
            try queue.throwReadError()
        }
        progress.finish()
        if done > 1 || pathsFrom != nil {
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            // On standard error, so that standard output stays the results (and valid JSON).
            var summary = Self.summary(classified: done - photoFailures, failed: photoFailures, seconds: seconds)
            summary.removeLast()  // its newline: the resume count follows on the same line
            if skipped > 0 { summary += "; \(skipped) already in \(output ?? "")" }
            FileHandle.standardError.write(Data((summary + "\n").utf8))
        }
        if json {
            try printJSON(Report(results: results), [.sortedKeys, .withoutEscapingSlashes])
        }
        // JSON Lines hold each photo's error: a run that wrote every line succeeded.
        if failures > 0 || (photoFailures > 0 && writer == nil) { throw ExitCode.failure }
    }

    /// The closing line: the rate counts only the images classified, and the
    /// failures are said (an unreadable folder is not a fast one).
    static func summary(classified: Int, failed: Int, seconds: Double) -> String {
        var line = classified == 0
            ? "no image classified"
            : String(format: "%d image%@ classified in %.2f s: %.1f images/s", classified, classified == 1 ? "" : "s",
                     seconds, Double(classified) / max(seconds, 1e-9))
        if failed > 0 { line += "; \(failed) failed" }
        return line + "\n"
    }

    /// The one-line warning for a classifier without labels (the command-line
    /// form of ``Model/classLabelsWarning``), or `nil` when it has labels.
    static func labelsWarning(for model: Model) -> String? {
        guard model.classLabelsWarning != nil else { return nil }
        let classes = model.classCount
        var text = model.path + ": the model has no class labels" + (classes.map { " for its \($0) classes" } ?? "")
        text += "; classes are printed by index (\"class 387\"). Give --labels FILE"
        if classes == ClassLabels.imageNet1kClassCount { text += " or --labels imagenet" }
        return text + ", or \"labels\" in the model's sidecar (\(ModelSidecar.path(forModelAt: model.path)))"
    }

    private func printText(image: String, observations: [ClassificationObservation]) {
        print(image.terminalSafe)
        if observations.isEmpty {
            print("  not sure (no class reaches \(String(format: "%.2f%%", Double(minConfidence) * 100)))")
        }
        for observation in observations {
            let percent = String(format: "%6.2f%%", Double(observation.confidence) * 100)
            print("  \(percent)  \(observation.identifier.terminalSafe)")
        }
    }

    /// One photo's result: an element of --json's "results", or one --jsonl line.
    struct ImageResult: Encodable {
        var image: String
        /// With --jsonl: the photo's line in the input (from 1).
        var line: Int?
        var orientation: String?
        var observations: [ClassificationObservation]?
        var notSure: Bool?
        var error: String?
        /// A Core ML classifier's outputs under its own names (`classLabel`, `classLabelProbs`).
        var outputs: [String: CoreMLOutputs]?
        /// With --barcodes: the codes found (symbology, payload, normalized box).
        var barcodes: [BarcodeObservation]?
    }

    private struct Report: Encodable {
        var results: [ImageResult]
    }
}

/// `--crop center|fill|fit`: the option's raw values.
extension ImageCropAndScaleOption: ExpressibleByArgument {}

/// `--orientation auto|up|...`.
struct OrientationOption: ExpressibleByArgument {
    /// `nil` for auto (EXIF).
    var orientation: ImageOrientation?

    static let auto = OrientationOption(orientation: nil)

    init(orientation: ImageOrientation?) { self.orientation = orientation }

    init?(argument: String) {
        if argument == "auto" { self.orientation = nil; return }
        guard let orientation = ImageOrientation(name: argument) else { return nil }
        self.orientation = orientation
    }

    static var allValueStrings: [String] { ["auto"] + ImageOrientation.allCases.map(\.name) }
    var defaultValueDescription: String { orientation?.name ?? "auto" }
}

/// Parses `0.485,0.456,0.406`.
func parseTriple(_ text: String, option: String) throws -> [Float] {
    let values = text.split(separator: ",").map { Float($0.trimmingCharacters(in: .whitespaces)) }
    guard values.count == 3, values.allSatisfy({ $0?.isFinite ?? false }) else {
        throw ValidationError("\(option) takes three comma-separated numbers, such as 0.485,0.456,0.406; got '\(text)'")
    }
    return values.compactMap { $0 }
}

/// Writes `image` as PNG, PPM or JPEG by the path's extension.
func writeImage(_ image: RGBImage, to path: String) throws {
    let data = try ImageEncoder.encode(image, forPath: path)
    do {
        try data.write(to: URL(fileURLWithPath: path))
    } catch {
        throw FoveaError(.io, "cannot write file (\(error.localizedDescription))", location: .init(file: path))
    }
}

/// Prints `value` as JSON with the given formatting (every command sorts keys).
func printJSON(_ value: some Encodable, _ formatting: JSONEncoder.OutputFormatting) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = formatting
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}


/// One output of a Core ML classifier as Core ML returns it: the label string,
/// or the label → probability dictionary (doubles).
enum CoreMLOutputs: Encodable {
    case label(String)
    case probabilities([String: Double])

    static func values(names: ClassifierOutputNames, observations: [ClassificationObservation]) -> [String: CoreMLOutputs] {
        var probabilities: [String: Double] = [:]
        for observation in observations { probabilities[observation.identifier] = Double(observation.confidence) }
        return [names.label: .label(observations.first?.identifier ?? ""), names.probabilities: .probabilities(probabilities)]
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .label(let label): try container.encode(label)
        case .probabilities(let probabilities): try container.encode(probabilities)
        }
    }
}
