/// Whether an encoded file is complete, judged from its container structure
/// alone (markers and chunk lengths), without decoding any pixels.
///
/// libjpeg and libpng report a cut file in many ways ("Premature end of JPEG
/// file", "Bogus DQT index", "read beyond end of data", or not at all when only
/// the end marker is missing); this walk lets Fovea say "truncated" reliably.
enum ContainerCompleteness: Equatable {
    /// The structure runs to its end marker (JPEG EOI, PNG IEND).
    case complete
    /// The data stops before the end marker.
    case truncated
    /// The structure is broken in some other way; the decoder will say how.
    case malformed

    /// Walks JPEG markers from SOI to EOI, skipping segments by their length
    /// and entropy-coded data up to the next real marker.
    static func ofJPEG(_ bytes: UnsafeBufferPointer<UInt8>) -> ContainerCompleteness {
        let n = bytes.count
        guard n >= 2 else { return .truncated }
        var i = 2  // after SOI
        while true {
            // Like libjpeg, skip junk before a marker (it warns "extraneous bytes"), then fill bytes.
            while i < n, bytes[i] != 0xFF { i += 1 }
            while i < n, bytes[i] == 0xFF { i += 1 }
            guard i < n else { return .truncated }
            let marker = bytes[i]
            i += 1
            switch marker {
            case 0xD9:  // EOI
                return .complete
            case 0x01, 0xD0...0xD7:  // TEM, RSTn: no length
                continue
            default:
                guard i + 2 <= n else { return .truncated }
                let length = Int(bytes[i]) << 8 | Int(bytes[i + 1])
                guard length >= 2 else { return .malformed }
                i += length
                guard i <= n else { return .truncated }
                if marker == 0xDA {  // SOS: entropy-coded data follows, up to the next marker
                    while true {
                        guard i + 1 < n else { return .truncated }
                        if bytes[i] == 0xFF, bytes[i + 1] != 0x00, !(0xD0...0xD7).contains(bytes[i + 1]) { break }
                        i += 1
                    }
                }
            }
        }
    }

    /// Walks PNG chunks after the signature up to IEND.
    static func ofPNG(_ bytes: UnsafeBufferPointer<UInt8>) -> ContainerCompleteness {
        let n = bytes.count
        var i = 8  // after the signature
        while true {
            guard i + 8 <= n else { return .truncated }
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length <= Int(Int32.max) else { return .malformed }
            let isEnd = bytes[i + 4] == 0x49 && bytes[i + 5] == 0x45 && bytes[i + 6] == 0x4E && bytes[i + 7] == 0x44  // "IEND"
            i += 12 + length  // length, type, data, CRC
            guard i <= n else { return .truncated }
            if isEnd { return .complete }
        }
    }
}
