import Foundation

/// A photo's width and height read from its header (PNG, JPEG, PPM, WebP,
/// HEIC/AVIF) without decoding it, so that a request's total pixels can be
/// checked against its budget before any decoding work is done.
public enum PhotoHeader {
    /// `width × height` declared by the header, or `nil` when the format is not
    /// recognised or the header is cut short (the decoder then rejects the photo
    /// or enforces its own per-photo limit).
    public static func pixels(_ data: Data) -> Int? {
        let bytes = [UInt8](data.prefix(1 << 16))
        let size = png(bytes) ?? jpeg(data) ?? ppm(bytes) ?? webP(bytes) ?? isoMedia(data)
        guard let (width, height) = size else { return nil }
        return TensorSize.product(width, height)
    }

    private static func png(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              b[12..<16].elementsEqual(Array("IHDR".utf8)) else { return nil }
        return (bigEndian(b, 16, 4), bigEndian(b, 20, 4))
    }

    /// Walks the JPEG markers up to the first start-of-frame (which holds the size).
    private static func jpeg(_ data: Data) -> (Int, Int)? {
        let b = [UInt8](data.prefix(4 << 20))  // past any EXIF and thumbnails
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 3 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0x01 || (0xD0...0xD8).contains(marker) { i += 2; continue }  // no length
            let length = bigEndian(b, i + 2, 2)
            guard length >= 2 else { return nil }
            let isFrame = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrame {
                guard i + 8 < b.count else { return nil }
                return (bigEndian(b, i + 7, 2), bigEndian(b, i + 5, 2))
            }
            i += 2 + length
        }
        return nil
    }

    /// Binary or text PPM/PGM/PBM: `P1`…`P6`, then width and height (comments allowed).
    private static func ppm(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 2, b[0] == UInt8(ascii: "P"), (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(b[1]) else { return nil }
        var i = 2
        func number() -> Int? {
            while i < b.count {
                if b[i] == UInt8(ascii: "#") { while i < b.count && b[i] != 10 { i += 1 } }
                else if b[i] == 32 || (9...13).contains(b[i]) { i += 1 }
                else { break }
            }
            var value = 0
            var digits = 0
            while i < b.count, (48...57).contains(b[i]), digits < 10 {
                value = value * 10 + Int(b[i] - 48)
                i += 1
                digits += 1
            }
            return digits > 0 ? value : nil
        }
        guard let width = number(), let height = number() else { return nil }
        return (width, height)
    }

    /// WebP: the canvas of an extended file (`VP8X`), else the frame of a
    /// lossless (`VP8L`) or lossy (`VP8 `) bitstream, the first chunk after
    /// `RIFF size WEBP`.
    private static func webP(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 30, b[0..<4].elementsEqual(Array("RIFF".utf8)), b[8..<12].elementsEqual(Array("WEBP".utf8)) else { return nil }
        let chunk = String(decoding: b[12..<16], as: UTF8.self)
        let p = 20  // the chunk's payload
        switch chunk {
        case "VP8X":  // flags (4), canvas width − 1 (24 bits LE), height − 1 (24 bits LE)
            return (littleEndian(b, p + 4, 3) + 1, littleEndian(b, p + 7, 3) + 1)
        case "VP8L":  // signature 0x2F, then 14 bits width − 1 and 14 bits height − 1 (LE)
            guard b[p] == 0x2F else { return nil }
            let bits = littleEndian(b, p + 1, 4)
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case "VP8 ":  // frame tag (3), start code 9D 01 2A, then 14-bit width and height (LE; top bits scale)
            guard b[p + 3] == 0x9D, b[p + 4] == 0x01, b[p + 5] == 0x2A else { return nil }
            return (littleEndian(b, p + 6, 2) & 0x3FFF, littleEndian(b, p + 8, 2) & 0x3FFF)
        default:
            return nil
        }
    }

    /// HEIC and AVIF (ISO base media files): the largest `ispe` (image spatial
    /// extents) property in `meta` → `iprp` → `ipco`. The primary image (a
    /// grid's full size) is the largest item; tiles and thumbnails are smaller,
    /// so the largest is an upper bound of what the decoder makes.
    private static func isoMedia(_ data: Data) -> (Int, Int)? {
        let b = [UInt8](data.prefix(1 << 20))  // the meta box precedes or follows mdat; 1 MiB covers real files' headers
        guard b.count >= 16, b[4..<8].elementsEqual(Array("ftyp".utf8)) else { return nil }
        guard let meta = box("meta", in: b, 0..<b.count), meta.count >= 4,
              let iprp = box("iprp", in: b, (meta.lowerBound + 4)..<meta.upperBound),  // meta is a full box
              let ipco = box("ipco", in: b, iprp) else { return nil }
        var largest: (Int, Int)?
        var i = ipco.lowerBound
        while let (type, payload, next) = boxHeader(b, at: i, end: ipco.upperBound) {
            if type == "ispe", payload.count >= 12 {
                let size = (bigEndian(b, payload.lowerBound + 4, 4), bigEndian(b, payload.lowerBound + 8, 4))
                if largest.map({ TensorSize.product($0.0, $0.1) < TensorSize.product(size.0, size.1) }) ?? true { largest = size }
            }
            i = next
        }
        return largest
    }

    /// The payload of the first box of `type` among the boxes filling `range`.
    private static func box(_ type: String, in b: [UInt8], _ range: Range<Int>) -> Range<Int>? {
        var i = range.lowerBound
        while let (found, payload, next) = boxHeader(b, at: i, end: range.upperBound) {
            if found == type { return payload }
            i = next
        }
        return nil
    }

    /// The box at `i`: its type, payload and the next box's offset; `nil` past
    /// `end` or for a size that does not fit (32-bit size, 64-bit `largesize`
    /// when it is 1, to the end when it is 0).
    private static func boxHeader(_ b: [UInt8], at i: Int, end: Int) -> (String, Range<Int>, Int)? {
        guard i >= 0, i + 8 <= end else { return nil }
        var size = bigEndian(b, i, 4)
        var header = 8
        if size == 1 {
            guard i + 16 <= end else { return nil }
            let large = UInt64(bigEndian(b, i + 8, 4)) << 32 | UInt64(bigEndian(b, i + 12, 4))
            guard large <= UInt64(end - i) else { return nil }
            size = Int(large)
            header = 16
        } else if size == 0 {
            size = end - i
        }
        guard size >= header, size <= end - i else { return nil }
        return (String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self), (i + header)..<(i + size), i + size)
    }

    private static func littleEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        (at..<at + count).reversed().reduce(0) { $0 << 8 | Int(b[$1]) }
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        (at..<at + count).reduce(0) { $0 << 8 | Int(b[$1]) }
    }
}
