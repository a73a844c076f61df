import Foundation
import FoveaCore

/// Buffered reads from a file descriptor (a file, a pipe, standard input):
/// exact byte counts and lines, looping over short reads as pipes give them.
final class ByteStream {
    private let descriptor: Int32
    private let name: String
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false

    init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    /// Reads more into the buffer; false at the end of the stream.
    private func fill() throws -> Bool {
        if atEnd { return false }
        if position > 0 {
            buffer.removeFirst(position)
            position = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                return true
            }
            if count == 0 { atEnd = true; return false }
            if errno != EINTR {
                throw FoveaError(.io, "cannot read: \(String(cString: strerror(errno)))", location: .init(file: name))
            }
        }
    }

    /// The bytes up to the next `\n` (not included), or `nil` at the end of the
    /// stream before any byte. Throws past `limit` bytes without a newline.
    func line(limit: Int) throws -> [UInt8]? {
        var searched = position
        while true {
            if let newline = buffer[searched...].firstIndex(of: 0x0A) {
                let line = Array(buffer[position..<newline])
                position = newline + 1
                return line
            }
            searched = buffer.count
            guard searched - position <= limit else {
                throw FoveaError(.invalidImage, "a header line is longer than \(limit) bytes", location: .init(file: name))
            }
            let before = buffer.count - position
            guard try fill() else {
                if before == 0 { return nil }
                throw FoveaError(.invalidImage, "the stream ends inside a header line", location: .init(file: name))
            }
            searched = position + before
        }
    }

    /// Exactly `count` bytes into `destination` starting at `offset`; false if the stream ended first.
    func readExactly(_ count: Int, into destination: inout [UInt8], at offset: Int) throws -> Bool {
        var copied = 0
        while copied < count {
            if position == buffer.count {
                guard try fill() else { return false }
            }
            let take = Swift.min(count - copied, buffer.count - position)
            destination.replaceSubrange((offset + copied)..<(offset + copied + take), with: buffer[position..<(position + take)])
            position += take
            copied += take
        }
        return true
    }
}
