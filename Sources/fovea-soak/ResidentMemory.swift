import Foundation

/// The process's resident set size and its high-water mark, from /proc/self/status (Linux).
struct ResidentMemory: CustomStringConvertible {
    var residentKiB: Int
    var peakKiB: Int

    static func now() -> ResidentMemory {
        var memory = ResidentMemory(residentKiB: 0, peakKiB: 0)
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return memory }
        for line in status.split(separator: "\n") {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count >= 2, let kib = Int(fields[1]) else { continue }
            if fields[0] == "VmRSS:" { memory.residentKiB = kib }
            if fields[0] == "VmHWM:" { memory.peakKiB = kib }
        }
        return memory
    }

    var description: String {
        String(format: "resident %.1f MB (peak %.1f MB)", Double(residentKiB) / 1024, Double(peakKiB) / 1024)
    }
}

/// A value shared by the soak's threads, behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&value) } }
    var current: Value { lock.withLock { value } }
}
