import Foundation

/// Progress for a reader that is not a person (standard error is a log file, a
/// pipe to a driver, a pod's log): every ``interval`` seconds one JSON line,
/// `{"progress":{"done":…,"failed":…,"imagesPerSecond":…,"seconds":…,"skipped":…}}`,
/// where `done` counts photos classified by this run (failed ones included),
/// `skipped` the photos an earlier run had done (`--resume`) and
/// `imagesPerSecond` is `done` over the seconds since this run started.
final class ProgressLog {
    struct Record: Encodable, Equatable {
        var done: Int
        var failed: Int
        var skipped: Int
        var imagesPerSecond: Double
        var seconds: Double
    }

    private struct Line: Encodable {
        var progress: Record
    }

    let interval: Double
    private let enabled: Bool
    private let skipped: Int
    private let started = DispatchTime.now().uptimeNanoseconds
    private var lastWritten: UInt64

    /// - Parameters:
    ///   - interval: seconds between lines; 0 writes none.
    ///   - skipped: photos skipped as already done.
    init(interval: Double, skipped: Int) {
        self.interval = interval
        self.skipped = skipped
        enabled = interval > 0 && isatty(FileHandle.standardError.fileDescriptor) == 0
        lastWritten = started
    }

    /// What a line says after `done` photos (`failed` of them failed) in `seconds`.
    static func record(done: Int, failed: Int, skipped: Int, seconds: Double) -> Record {
        // Rounded so that the line stays short; the rate to 0.1 images/s.
        Record(done: done, failed: failed, skipped: skipped,
               imagesPerSecond: seconds > 0 ? (Double(done) / seconds * 10).rounded() / 10 : 0,
               seconds: (seconds * 10).rounded() / 10)
    }

    /// The JSON line for `record` (without its newline).
    static func line(_ record: Record) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? String(decoding: encoder.encode(Line(progress: record)), as: UTF8.self)) ?? ""
    }

    /// Called after each photo: writes a line when ``interval`` has passed.
    func update(done: Int, failed: Int) {
        guard enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard Double(now - lastWritten) / 1e9 >= interval else { return }
        lastWritten = now
        let record = Self.record(done: done, failed: failed, skipped: skipped, seconds: Double(now - started) / 1e9)
        FileHandle.standardError.write(Data((Self.line(record) + "\n").utf8))
    }
}
