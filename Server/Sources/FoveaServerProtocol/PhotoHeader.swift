import Foundation

/// A photo's width and height read from its header (PNG, JPEG, PPM) without
/// decoding it, so that a request's total pixels can be checked against its
/// budget before any decoding work is done.
public enum PhotoHeader {
    /// `width × height` declared by the header, or `nil` when the format is not
    /// recognised or the header is cut short (the decoder then rejects the photo
    /// or enforces its own per-photo limit).
    public static func pixels(_ data: Data) -> Int? {
        let bytes = [UInt8](data.prefix(1 << 16))
        let size = png(bytes) ?? jpeg(data) ?? ppm(bytes)
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

    private static func bigEndian(_ b: [UInt8], _ at: Int, _ count: Int) -> Int {
        (at..<at + count).reduce(0) { $0 << 8 | Int(b[$1]) }
    }
}
