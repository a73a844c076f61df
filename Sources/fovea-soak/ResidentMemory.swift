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

/// The reading taken when half the classifications are done, by whichever task gets there.
final class MiddleReading: @unchecked Sendable {
    private let lock = NSLock()
    private var value: ResidentMemory?

    func take() { lock.withLock { value = ResidentMemory.now() } }
    var reading: ResidentMemory? { lock.withLock { value } }
}

/// The classifications that differed from the sequential run, from any thread.
final class Mismatches: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func add(_ mismatch: String) { lock.withLock { list.append(mismatch) } }
    var all: [String] { lock.withLock { list } }
}
