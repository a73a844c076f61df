import Foundation

/// The CPU a tuning record belongs to: vendor, family, model and the ISA level the
/// kernels run at (`KernelsBackend.isa`, which `FOVEA_ISA` may lower). Choices measured
/// on one of these are used only on the same four values.
public struct CPUIdentity: Sendable, Hashable, CustomStringConvertible {
    /// `AuthenticAMD`, `GenuineIntel`, ... (`unknown` where the system does not say).
    public var vendor: String
    /// cpuid's family (`/proc/cpuinfo`'s `cpu family`).
    public var family: Int
    /// cpuid's model (`/proc/cpuinfo`'s `model`).
    public var model: Int
    /// The kernels' ISA level: `avx2`, `avx512`, `amx`, `scalar`, ...
    public var isa: String
    /// The marketing name, for people reading a record; not part of the key.
    public var name: String

    /// Creates an identity; `name` is informational.
    public init(vendor: String, family: Int, model: Int, isa: String, name: String = "") {
        self.vendor = vendor
        self.family = family
        self.model = model
        self.isa = isa
        self.name = name
    }

    /// This machine, at the ISA the kernels use now.
    public static var current: CPUIdentity {
        let info = Self.cpuinfo
        return CPUIdentity(vendor: info.vendor, family: info.family, model: info.model,
                           isa: KernelsBackend.isa, name: info.name)
    }

    /// Whether `other` is the same CPU for tuning (the name aside).
    public func matches(_ other: CPUIdentity) -> Bool {
        vendor == other.vendor && family == other.family && model == other.model && isa == other.isa
    }

    public var description: String {
        "\(name.isEmpty ? vendor : name) (\(vendor), family \(family), model \(model), ISA \(isa))"
    }

    /// The record's file name: one readable text file per CPU.
    var fileName: String {
        "\(Self.fileSafe(vendor))-family\(family)-model\(model)-\(Self.fileSafe(isa)).txt"
    }

    /// The record's `cpu` line (without the name, which has a line of its own).
    var keyLine: String { "cpu vendor=\(Self.fileSafe(vendor)) family=\(family) model=\(model) isa=\(Self.fileSafe(isa))" }

    /// Letters, digits, `-`, `_` and `.` only: names from the system go into file names and records.
    static func fileSafe(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "_"
        }
        return kept.isEmpty ? "unknown" : String(kept)
    }

    /// Printable ASCII only, for the name line.
    static func printable(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7f }.map(Character.init))
            .trimmingCharacters(in: .whitespaces)
    }

    /// Vendor, family, model and name from `/proc/cpuinfo` (Linux); `unknown` and 0 elsewhere.
    private static let cpuinfo: (vendor: String, family: Int, model: Int, name: String) = {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
            #if arch(arm64)
            return ("arm64", 0, 0, "")
            #else
            return ("unknown", 0, 0, "")
            #endif
        }
        var fields: [String: String] = [:]
        // The first processor's block is enough: every core of a machine is the same CPU here.
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty && !fields.isEmpty { break }
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            if fields[key] == nil { fields[key] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return (fileSafe(fields["vendor_id"] ?? "unknown"),
                Int(fields["cpu family"] ?? "") ?? 0,
                Int(fields["model"] ?? "") ?? 0,
                printable(fields["model name"] ?? ""))
    }()
}
