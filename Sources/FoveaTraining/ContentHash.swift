import Foundation

/// A 64-bit FNV-1a hash of bytes, written as 16 hex digits: the feature cache's
/// key for an image's and a model's contents. Not cryptographic; a collision
/// would only reuse a cached feature vector.
enum ContentHash {
    static func hex(of data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { raw in
            for byte in raw {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        // Mix the length in, so that runs of zero bytes of different lengths differ.
        hash ^= UInt64(data.count) &* 0x9e37_79b9_7f4a_7c15
        return String(format: "%016llx", hash)
    }

    static func hex(of text: String) -> String { hex(of: Data(text.utf8)) }
}
