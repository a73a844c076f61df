import Foundation
import CZlib
import FoveaCore

/// zlib decompression with a bound on the output, for a PNG's `iCCP` profile:
/// a few hundred compressed bytes can claim gigabytes.
enum Inflate {
    /// The decompressed bytes of the zlib stream `input`.
    ///
    /// - Throws: `.limitExceeded` past `maxBytes`, `.invalidImage` for a corrupt or cut stream (`what` names it).
    static func inflate(_ input: UnsafeRawBufferPointer, maxBytes: Int, what: String) throws -> Data {
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw FoveaError(.invalidImage, "cannot start zlib to read the \(what)")
        }
        defer { inflateEnd(&stream) }
        guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count > 0 else {
            throw FoveaError(.invalidImage, "the \(what) is empty")
        }
        stream.next_in = UnsafeMutablePointer(mutating: base)
        stream.avail_in = UInt32(input.count)
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let (status, produced) = chunk.withUnsafeMutableBufferPointer { buffer -> (Int32, Int) in
                stream.next_out = buffer.baseAddress
                stream.avail_out = UInt32(buffer.count)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (status, buffer.count - Int(stream.avail_out))
            }
            output.append(contentsOf: chunk[0..<produced])
            guard output.count <= maxBytes else {
                throw FoveaError(.limitExceeded, "the \(what) decompresses to more than the limit of \(maxBytes) bytes")
            }
            switch status {
            case Z_STREAM_END: return output
            case Z_OK: continue
            case Z_BUF_ERROR where produced > 0: continue
            case Z_BUF_ERROR: throw FoveaError(.invalidImage, "the \(what) is cut short (its zlib stream does not end)")
            default: throw FoveaError(.invalidImage, "the \(what) is corrupt (zlib error \(status))")
            }
        }
    }
}
