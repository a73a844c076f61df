import CFoveaKernels
import FoveaCore
import FoveaKernelsBackend
import Foundation

/// The machine's single-thread float32 multiply-add peak, measured here by a
/// probe in the C kernel library (`fovea_fma_peak_gflops`), never taken from
/// a spec sheet: the same AVX-512 code peaks at about half the rate on a core
/// that executes it as two 256-bit halves (Zen 4) as on one with full-width
/// units (Zen 5).
///
/// ``LayerBenchmark`` reports each layer's GFLOP/s as a share of this peak
/// times the thread count.
public struct FMAPeak: Sendable, Codable, Equatable {
    /// The ISA measured: `avx512`, `avx2` or `scalar`.
    public var isa: String
    /// GFLOP/s of one thread (a multiply-add is 2 floating-point operations).
    public var gflopsPerCore: Double

    /// Records a peak of `gflopsPerCore` GFLOP/s per thread measured with `isa` code.
    public init(isa: String, gflopsPerCore: Double) {
        self.isa = isa
        self.gflopsPerCore = gflopsPerCore
    }

    enum CodingKeys: String, CodingKey {
        case isa
        case gflopsPerCore = "gflops_per_core"
    }

    /// The peak of the widest ISA this CPU supports, measured once per process
    /// (about 0.1 s, on the calling thread, the first time it is read) and then kept.
    public static let measured: FMAPeak = measure()

    /// ISA names the probe knows, narrowest first (`neon` only on arm64, where no x86 name is supported).
    public static let isaNames = ["scalar", "avx2", "avx512", "neon"]

    /// The widest ISA this CPU and build support.
    public static var bestISA: String {
        isaNames.last { fovea_kernels_isa_supported($0) != 0 } ?? "scalar"
    }

    /// Runs the probe now: chains of independent multiply-adds of `isa`
    /// (the widest supported when `nil`) for about `seconds`, the fastest block.
    /// The result's ``gflopsPerCore`` is 0 for an ISA the CPU lacks.
    public static func measure(isa: String? = nil, seconds: Double = 0.1) -> FMAPeak {
        let name = isa ?? bestISA
        return FMAPeak(isa: name, gflopsPerCore: fovea_fma_peak_gflops(name, seconds))
    }
}

/// The processor a benchmark ran on, as `/proc/cpuinfo` names it: benchmark
/// tables carry it because tile shapes and algorithm choices tuned on one CPU
/// family may not hold on another.
public struct CPUDescription: Sendable, Codable, Equatable, CustomStringConvertible {
    /// `model name`, such as `AMD EPYC 9R14`; `unknown` when not available.
    public var modelName: String
    /// `cpu family` (25 is Zen 3/4, 26 is Zen 5; 6 for most Intel cores).
    public var family: Int?
    /// `model` within the family.
    public var model: Int?
    /// Logical processors the process may use.
    public var activeProcessors: Int

    /// Describes a processor (``current`` reads this machine's).
    public init(modelName: String, family: Int?, model: Int?, activeProcessors: Int) {
        self.modelName = modelName
        self.family = family
        self.model = model
        self.activeProcessors = activeProcessors
    }

    enum CodingKeys: String, CodingKey {
        case modelName = "model_name"
        case family, model
        case activeProcessors = "active_processors"
    }

    /// This machine's processor (from `/proc/cpuinfo` on Linux).
    public static var current: CPUDescription {
        let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        return parse(cpuinfo: text, activeProcessors: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Reads the first processor's `model name`, `cpu family` and `model` from `/proc/cpuinfo` text.
    static func parse(cpuinfo: String, activeProcessors: Int) -> CPUDescription {
        var fields: [String: String] = [:]
        for line in cpuinfo.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty, !fields.isEmpty { break } // end of the first processor
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if fields[key] == nil { fields[key] = value }
        }
        return CPUDescription(modelName: fields["model name"].flatMap { $0.isEmpty ? nil : $0 } ?? "unknown",
                              family: fields["cpu family"].flatMap { Int($0) },
                              model: fields["model"].flatMap { Int($0) },
                              activeProcessors: activeProcessors)
    }

    /// `AMD EPYC 9R14 (family 25, model 17), 2 processors`.
    public var description: String {
        var text = modelName
        if let family, let model {
            text += " (family \(family), model \(model))"
        }
        return text + ", \(activeProcessors) processor\(activeProcessors == 1 ? "" : "s")"
    }
}

/// This machine's measured memory bandwidth (`fovea_memory_bandwidth_gbps`:
/// memcpy of 64 MB buffers, beyond the last-level cache): the yardstick of
/// memory-bound layers (depthwise convolutions, pooling, elementwise
/// operators), as ``FMAPeak`` is of the compute-bound ones.
public struct MemoryBandwidth: Sendable, Codable, Equatable {
    /// Threads that shared the copy.
    public var threads: Int
    /// Bytes read plus bytes written per second, in GB/s (10⁹ bytes).
    public var gigabytesPerSecond: Double

    /// Records `gigabytesPerSecond` GB/s measured with `threads` threads.
    public init(threads: Int, gigabytesPerSecond: Double) {
        self.threads = threads
        self.gigabytesPerSecond = gigabytesPerSecond
    }

    enum CodingKeys: String, CodingKey {
        case threads
        case gigabytesPerSecond = "gb_per_s"
    }

    /// Measures now, on `threads` threads, for about `seconds`.
    public static func measure(threads: Int, seconds: Double = 0.1) -> MemoryBandwidth {
        var pool = RunContext(threads: threads).kernelThreadPool
        return MemoryBandwidth(threads: threads, gigabytesPerSecond: fovea_memory_bandwidth_gbps(0, &pool, seconds))
    }

    /// Measured once per process and thread count.
    public static func measured(threads: Int) -> MemoryBandwidth {
        cache.lock.lock()
        defer { cache.lock.unlock() }
        if let value = cache.values[threads] { return value }
        let value = measure(threads: threads)
        cache.values[threads] = value
        return value
    }

    /// Measurements by thread count, behind a lock (a probe runs with it held, so it runs once).
    private final class Cache: @unchecked Sendable {
        let lock = NSLock()
        var values: [Int: MemoryBandwidth] = [:]
    }

    private static let cache = Cache()
}
