import Foundation
@_spi(Internals) import Fovea

/// Writes one JSON object per line (`--jsonl`), each line with one `write(2)`
/// as soon as it is ready: nothing is buffered, so a driver reading the pipe
/// sees each result at once, and a killed process leaves at most its last line
/// cut short (see ``ResumePoint``).
final class JSONLinesWriter {
    private let descriptor: Int32
    private let name: String
    private let closes: Bool
    private let encoder: JSONEncoder

    /// Writes to standard output.
    init() {
        descriptor = STDOUT_FILENO
        name = "standard output"
        closes = false
        encoder = Self.makeEncoder()
    }

    /// Writes to the file at `path`: appended to what it holds (`--resume`) or
    /// started afresh.
    init(path: String, appending: Bool) throws {
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC)
        descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            throw FoveaError(.io, "cannot open the output (\(String(cString: strerror(errno))))", location: .init(file: path))
        }
        name = path
        closes = true
        encoder = Self.makeEncoder()
    }

    deinit {
        if closes { close(descriptor) }
    }

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // As --json: sorted keys, so that equal results are equal bytes.
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The line `value` is written as (without its newline).
    func line(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    func write(_ value: some Encodable) throws {
        var data = try line(value)
        data.append(0x0A)
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw FoveaError(.io, "cannot write a result (\(String(cString: strerror(errno))))", location: .init(file: name))
                }
                offset += written
            }
        }
    }
}
