import ArgumentParser
@_spi(Internals) import Fovea
import Foundation

/// `fovea bench-photo`: where the time of classifying one photo goes.
struct BenchPhoto: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-photo",
        abstract: "Measure the stages of classifying one photo (any format): decode, prepare (crop, scale, normalize), inference, and the whole perform.",
        discussion: """
        Each stage is timed on its own, in a loop, and its median printed in milliseconds: wall time, \
        and the process's CPU time (all threads; on a busy machine, the steadier of the two). \
        "decode" reads and decodes the file as a perform does (turned upright, scaled in the DCT \
        when the model needs fewer pixels, colours matched to sRGB); "decode-raw" the same with \
        --color-matching off, so that the difference is the cost of colour matching; "prepare" turns that picture into the model's input \
        tensor; "inference" runs the model on the tensor and ranks the scores; "total" is \
        ImageRequestHandler(contentsOfFile:) + perform, measured separately.
        """)

    @Option(help: "The model file (.onnx).")
    var model: String

    @Option(help: "For --crop center: the central fraction kept. Default: the model's, else 1.")
    var cropFraction: Double?

    @OptionGroup var backend: BackendOptions

    @Option(help: "Measured runs per stage (1...100000).")
    var runs: Int = 50

    @Option(help: "Unmeasured runs first (0...10000).")
    var warmup: Int = 5

    @Argument(help: "The photo (JPEG, PNG, HEIC, AVIF, WebP or PPM).")
    var photo: String

    func validate() throws {
        try RunCounts.validate(runs: runs, warmup: warmup)
    }

    func run() throws {
        let loaded = try Model(contentsOfFile: model, configuration: backend.configuration).describing { description in
            if let cropFraction { description.imageInput?.cropFraction = cropFraction }
        }
        let request = try ClassificationRequest(model: loaded)
        let threads = loaded.configuration.effectiveThreads
        guard let normalization = loaded.modelDescription.imageInput?.normalization else {
            throw ValidationError("the model has no image input")
        }
        let handler = try ImageRequestHandler(contentsOfFile: photo)
        let (image, geometry) = try handler.picture(for: request)
        let tensor = try handler.inputTensor(for: request)
        let stages: [(String, () throws -> Void)] = [
            ("decode", { _ = try ImageRequestHandler(contentsOfFile: photo).picture(for: request) }),
            ("decode-raw", { _ = try ImageRequestHandler(contentsOfFile: photo, colorMatching: .off).picture(for: request) }),
            ("prepare", { _ = try normalization.tensor(from: image, geometry: geometry, threads: threads) }),
            ("inference", { _ = try request.observations(forInputTensor: tensor) }),
            ("total", { _ = try ImageRequestHandler(contentsOfFile: photo).performAndWait(request) }),
        ]
        let format = (try? ImageDecoder.data(contentsOf: photo)).flatMap { ImageDecoder.format(of: $0) }?.rawValue ?? "unknown format"
        print("\(photo) (\(format)): decoded at \(image.width)×\(image.height), \(threads) thread(s), median of \(runs) runs")
        print("  stage         wall ms   cpu ms")
        for (name, stage) in stages {
            for _ in 0..<warmup { try stage() }
            var wall: [Double] = [], cpu: [Double] = []
            for _ in 0..<runs {
                let (startWall, startCPU) = (DispatchTime.now().uptimeNanoseconds, Self.processCPUNanoseconds())
                try stage()
                wall.append(Double(DispatchTime.now().uptimeNanoseconds - startWall) / 1e6)
                cpu.append(Double(Self.processCPUNanoseconds() - startCPU) / 1e6)
            }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            print("  \(name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(String(format: "%8.2f %8.2f", median(wall), median(cpu)))")
        }
    }

    /// CPU time of the whole process (every thread), which a busy machine
    /// inflates less than wall time; for one thread, the stage's own cost.
    static func processCPUNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
