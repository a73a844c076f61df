import Foundation
@_spi(Internals) import Fovea

/// One photo of a run: its line number in the input (1-based) and its path.
struct PathLine: Equatable, Sendable {
    var number: Int
    var path: String
}

/// The paths to classify, one at a time so that memory stays bounded however
/// long the list is: a path list (`--paths-from FILE`, `-` for standard input)
/// or the files named on the command line (numbered by position).
///
/// In a list, `\n` ends a line and a `\r` before it is dropped (lists written on
/// Windows); nothing else is trimmed, since spaces belong to the path. Blank
/// lines are skipped but keep their numbers, so line numbers are the file's.
final class PathList {
    private enum Source {
        case file(UnsafeMutablePointer<FILE>, name: String, closes: Bool)
        case paths([String])
    }

    private let source: Source
    /// The number of the last line read.
    private var number = 0
    /// getline's buffer, reused for every line.
    private var buffer: UnsafeMutablePointer<CChar>?
    private var capacity = 0

    /// The list in the file at `path`, or standard input for `-`.
    init(contentsOf path: String) throws {
        if path == "-" {
            // A stream of its own on descriptor 0 (the C global `stdin` is shared mutable state to Swift 6).
            guard let file = fdopen(STDIN_FILENO, "r") else {
                throw FoveaError(.io, "cannot read standard input (\(String(cString: strerror(errno))))")
            }
            source = .file(file, name: "standard input", closes: true)
            return
        }
        guard let file = fopen(path, "r") else {
            throw FoveaError(.io, "cannot open the path list (\(String(cString: strerror(errno))))", location: .init(file: path))
        }
        source = .file(file, name: path, closes: true)
    }

    /// The given paths, numbered 1, 2, ... in order.
    init(paths: [String]) {
        source = .paths(paths)
    }

    deinit {
        if case .file(let file, _, true) = source { fclose(file) }
        free(buffer)
    }

    /// The next non-blank line, or `nil` at the end.
    func next() throws -> PathLine? {
        switch source {
        case .paths(let paths):
            guard number < paths.count else { return nil }
            number += 1
            return PathLine(number: number, path: paths[number - 1])
        case .file(let file, let name, _):
            while true {
                let count = getline(&buffer, &capacity, file)
                if count < 0 {
                    if ferror(file) != 0 {
                        throw FoveaError(.io, "cannot read the path list (\(String(cString: strerror(errno))))", location: .init(file: name))
                    }
                    return nil
                }
                number += 1
                guard let buffer else { continue }
                var length = count
                if length > 0, buffer[length - 1] == 0x0A { length -= 1 }
                if length > 0, buffer[length - 1] == 0x0D { length -= 1 }
                if length == 0 { continue }
                let bytes = UnsafeRawBufferPointer(start: buffer, count: length)
                return PathLine(number: number, path: String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}
