import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading whole files (models, tensors, images, labels, sidecars) with errors
/// that say what is wrong with the path: missing, a directory, a device such as
/// `/dev/zero`, a FIFO, a socket, unreadable, or larger than Fovea reads.
///
/// Foundation alone reports every special file as "You don't have permission",
/// and would read `/dev/zero` until memory runs out; the file's type is checked
/// first here, so only regular files are ever read.
public enum FileContents {
    /// The most bytes read from one file: larger files are refused before reading.
    public static let maximumBytes = 1 << 34  // 16 GiB

    /// What kind of thing is at `path` when it is not a regular file (following
    /// symbolic links): `"a directory"`, `"a character device"`, ...; `nil` for a
    /// regular file. Throws `.io` when nothing is there.
    public static func specialKind(ofFileAt path: String) throws -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR {
                throw FoveaError(.io, "no such file", location: .init(file: path))
            }
            throw FoveaError(.io, "cannot read the file (\(String(cString: strerror(code))))", location: .init(file: path))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a directory"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        default: return "a special file"
        }
    }

    /// The contents of the regular file at `path`.
    ///
    /// - Parameters:
    ///   - expected: what the file should be, for messages: `"an ONNX model"`, `"an image file"`.
    ///   - directoryHint: appended to the message when `path` is a directory.
    /// - Throws: `.io` naming the file and what it is: `"/dev/zero: is a character
    ///   device, not a regular file; expected an image file"`.
    public static func read(_ path: String, expected: String, directoryHint: String = "") throws -> Data {
        let location = FoveaError.Location(file: path)
        let kind: String?
        do {
            kind = try specialKind(ofFileAt: path)
        } catch let error as FoveaError {
            throw FoveaError(error.kind, "\(error.message); expected \(expected)", location: location)
        }
        if let kind {
            throw FoveaError(.io, "is \(kind), not a regular file; expected \(expected)\(kind == "a directory" ? directoryHint : "")", location: location)
        }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let size = try handle.seekToEnd()
            guard size <= UInt64(maximumBytes) else {
                throw FoveaError(.limitExceeded, "is \(size) bytes; Fovea reads files of at most \(maximumBytes) bytes", location: location)
            }
            try handle.seek(toOffset: 0)
            return try handle.readToEnd() ?? Data()
        } catch let error as FoveaError {
            throw error
        } catch {
            let reason = access(path, R_OK) == 0 ? error.localizedDescription : "permission denied"
            throw FoveaError(.io, "cannot read the file (\(reason))", location: location)
        }
    }
}
