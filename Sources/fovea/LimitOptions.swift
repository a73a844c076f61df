import ArgumentParser
@_spi(Internals) import Fovea
import FoveaCore

/// `--max-memory SIZE`: the most memory one run of the model may need.
struct MemoryLimitOption: ParsableArguments {
    @Option(name: .customLong("max-memory"),
            help: "The most memory one run may need (arena, weights, inputs), such as 8G, 512M or unlimited; a plan or input above it is refused before anything is allocated. Default: half of this machine's memory.")
    var maxMemory: String?

    func validate() throws {
        if let maxMemory, MemoryLimit(parsing: maxMemory) == nil {
            throw ValidationError("--max-memory takes a size such as 8G, 512M, 1073741824 or unlimited; got '\(maxMemory)'")
        }
    }

    var limit: MemoryLimit {
        maxMemory.flatMap { MemoryLimit(parsing: $0) } ?? .default
    }
}

/// How photos are decoded: `--max-pixels N`, the largest image decoded, and
/// `--color-matching auto|off`.
struct PixelLimitOption: ParsableArguments {
    @Option(name: .customLong("max-pixels"),
            help: "The largest image decoded, in pixels (width × height), checked from the file's header before decoding. Default: 100000000 (100 megapixels).")
    var maxPixels: Int?

    @Option(name: .customLong("color-matching"),
            help: "auto: match colours from the photo's embedded profile (ICC, PNG cHRM, HEIF nclx) to sRGB, the models' colour space; off: keep the stored values.")
    var colorMatching: ColorMatching = .auto

    func validate() throws {
        if let maxPixels, !(1...RGBImage.maxPixelCount).contains(maxPixels) {
            throw ValidationError("--max-pixels must be in 1...\(RGBImage.maxPixelCount); got \(maxPixels)")
        }
    }

    var limits: ImageDecodingLimits {
        maxPixels.map { ImageDecodingLimits(maxPixelCount: $0) } ?? .default
    }
}

/// Bounds of `--runs` and `--warmup` (bench): enough for any measurement,
/// small enough that a typo cannot run for days.
enum RunCounts {
    static let maxRuns = 100_000
    static let maxWarmup = 10_000

    static func validate(runs: Int, warmup: Int) throws {
        guard (1...maxRuns).contains(runs) else { throw ValidationError("--runs must be in 1...\(maxRuns); got \(runs)") }
        guard (0...maxWarmup).contains(warmup) else { throw ValidationError("--warmup must be in 0...\(maxWarmup); got \(warmup)") }
    }
}

/// `--threads`: at least 1; more than the machine's cores is clamped to them
/// (with a warning), so the count reported is the count used.
enum ThreadCount {
    static func validate(_ threads: Int?) throws {
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1; got \(threads)") }
    }

    /// `threads` clamped to the active cores; warns once on standard error when it had to clamp.
    static func used(_ threads: Int?) -> Int? {
        guard let threads else { return nil }
        let used = RunContext.clampedThreadCount(threads)
        if used < threads {
            printWarning("--threads \(threads) is more than this machine's \(RunContext.defaultThreadCount) active cores; using \(used)")
        }
        return used
    }
}

/// `--color-matching auto|off`.
extension ColorMatching: ExpressibleByArgument {}
