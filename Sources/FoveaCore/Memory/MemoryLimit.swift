import Foundation

/// The most memory one execution plan may need: its arena (every intermediate
/// value and every step's workspace), its constant block (the weights) and its
/// inputs. Plans are checked against it from their shapes alone, before
/// anything is allocated, so a model that declares a 1×3×100000×100000 input,
/// or a Conv whose output would take a terabyte, fails at once with a
/// `.limitExceeded` error naming the value and the bytes instead of exhausting
/// the machine.
///
/// The default is half of the memory available to the process: physical
/// memory, or the cgroup's limit when the process runs in a container with a
/// lower one. Concurrent runs of one plan each take their own arena; the limit
/// applies to one run.
public struct MemoryLimit: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The limit in bytes.
    public var bytes: Int

    /// A limit of `bytes` bytes; negative values count as 0.
    public init(bytes: Int) {
        self.bytes = Swift.max(0, bytes)
    }

    /// No limit.
    public static let unlimited = MemoryLimit(bytes: Int.max)

    /// Half of ``availableMemoryBytes``.
    public static var `default`: MemoryLimit { MemoryLimit(bytes: availableMemoryBytes / 2) }

    /// Physical memory, or the cgroup (v2 or v1) memory limit when it is lower.
    public static let availableMemoryBytes: Int = {
        let physical = Int(clamping: ProcessInfo.processInfo.physicalMemory)
        var limit = physical > 0 ? physical : Int.max
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
               let value = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), value > 0 {
                limit = Swift.min(limit, value)
            }
        }
        return limit
    }()

    public var description: String {
        self == .unlimited ? "unlimited" : MemoryLimit.format(bytes)
    }

    /// `12.3 GiB (13207024435 bytes)`.
    public static func format(_ bytes: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@ (%lld bytes)", value, units[unit], Int64(bytes))
    }

    /// Parses a size: `1073741824`, `512M`, `8G`, `1.5GB`, `2GiB`, `unlimited`
    /// (K, M, G, T are powers of 1024). `nil` if it is not a size.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "unlimited" || trimmed == "none" {
            self = .unlimited
            return
        }
        let digits = trimmed.prefix { $0.isNumber || $0 == "." }
        var suffix = trimmed.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
        for unit in ["ib", "b"] where suffix.hasSuffix(unit) && suffix.count > unit.count - 1 {
            suffix = String(suffix.dropLast(unit.count))
            break
        }
        let multipliers: [String: Double] = ["": 1, "k": 0x1p10, "m": 0x1p20, "g": 0x1p30, "t": 0x1p40, "p": 0x1p50]
        guard let number = Double(digits), number.isFinite, number >= 0, let multiplier = multipliers[suffix] else { return nil }
        let bytes = number * multiplier
        guard bytes < 0x1p62 else { return nil }
        self.init(bytes: Int(bytes))
    }

    /// The bytes a tensor of `type` takes, or `nil` when the count overflows.
    public static func bytes(of type: TensorType) -> Int? {
        var count = type.dataType.byteSize
        for dimension in type.shape {
            guard dimension >= 0 else { return nil }
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            if overflow { return nil }
            count = product
        }
        return count
    }

    /// Throws `.limitExceeded` when `bytes` (what `what` needs) is above the limit.
    ///
    /// - Parameter what: `"value 'conv1' (float32[1×64×30000×30000])"`, `"the plan"`.
    public func check(_ bytes: Int?, for what: String, detail: String = "") throws {
        if let bytes, bytes <= self.bytes { return }
        let needs = bytes.map { "needs \(MemoryLimit.format($0))" } ?? "needs more bytes than a 64-bit count holds"
        throw FoveaError(.limitExceeded, "\(what) \(needs)\(detail), above the memory limit of \(self); raise the limit with ModelConfiguration.memoryLimit or --max-memory")
    }
}
