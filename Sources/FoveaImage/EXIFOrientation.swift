import Foundation

/// Reads the EXIF `Orientation` tag (0x0112 in IFD0) of an encoded image: from
/// a JPEG's APP1 `Exif` segment, a PNG's `eXIf` chunk or a WebP's `EXIF` chunk.
///
/// A HEIC or AVIF gives `nil`: libheif applies the container's `irot`, `imir`
/// and `clap` while decoding, and the HEIF specification makes those
/// authoritative, so the EXIF orientation inside (which iPhones also write)
/// must not be applied a second time.
///
/// Metadata is advisory: a missing, damaged or out-of-range tag gives `nil`
/// (callers treat it as `.up`), never an error, so a photo with broken EXIF
/// still classifies. Every offset is bounds-checked.
public enum EXIFOrientation {
    /// The orientation recorded in `data`, or `nil` if there is none (or it is unreadable).
    public static func read(from data: Data) -> ImageOrientation? {
        let bytes = [UInt8](data)
        switch ImageDecoder.format(of: data) {
        case .jpeg: return tiffBlockInJPEG(bytes).flatMap { orientation(inTIFF: bytes, at: $0) }
        case .png: return tiffBlockInPNG(bytes).flatMap { orientation(inTIFF: bytes, at: $0) }
        case .webp: return tiffBlockInWebP(data).flatMap { orientation(inTIFF: bytes, at: $0) }
        case .heif, .avif, .ppm, nil: return nil
        }
    }

    /// The byte range of the TIFF structure inside the first APP1 `Exif\0\0` segment.
    static func tiffBlockInJPEG(_ bytes: [UInt8]) -> Range<Int>? {
        var i = 2  // after SOI
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { return nil }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            // Metadata segments precede the image data: stop at SOS or EOI.
            if marker == 0xDA || marker == 0xD9 { return nil }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return nil }
            let body = (i + 4)..<(i + 2 + length)
            let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]  // "Exif\0\0"
            if marker == 0xE1, body.count > 6, Array(bytes[body.lowerBound..<(body.lowerBound + 6)]) == exifHeader {
                return (body.lowerBound + 6)..<body.upperBound
            }
            i += 2 + length
        }
        return nil
    }

    /// The byte range of the TIFF structure in the `EXIF` chunk (some writers
    /// start it with JPEG's `Exif\0\0` header).
    static func tiffBlockInWebP(_ data: Data) -> Range<Int>? {
        guard let chunk = WebPChunks.find("EXIF", in: data) else { return nil }
        let range = (chunk.lowerBound - data.startIndex)..<(chunk.upperBound - data.startIndex)
        let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]
        if data[chunk].starts(with: exifHeader) { return (range.lowerBound + 6)..<range.upperBound }
        return range
    }

    /// The byte range of the data of the `eXIf` chunk (a TIFF structure).
    static func tiffBlockInPNG(_ bytes: [UInt8]) -> Range<Int>? {
        var i = 8  // after the signature
        while i + 8 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            let start = i + 8
            guard length >= 0, length <= bytes.count - start else { return nil }
            if type == "eXIf" { return start..<(start + length) }
            if type == "IDAT" || type == "IEND" { return nil }  // eXIf must come before the image data
            i = start + length + 4  // data and CRC
        }
        return nil
    }

    /// The Orientation value in the TIFF structure at `range`.
    static func orientation(inTIFF bytes: [UInt8], at range: Range<Int>) -> ImageOrientation? {
        let base = range.lowerBound
        guard range.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (bytes[base], bytes[base + 1]) {
        case (0x49, 0x49): littleEndian = true   // "II"
        case (0x4D, 0x4D): littleEndian = false  // "MM"
        default: return nil
        }
        func read(_ offset: Int, _ size: Int) -> Int? {
            guard offset >= 0, offset + size <= range.count else { return nil }
            var value = 0
            for k in 0..<size {
                let byte = Int(bytes[base + offset + (littleEndian ? size - 1 - k : k)])
                value = value << 8 | byte
            }
            return value
        }
        guard read(2, 2) == 42, let ifd = read(4, 4), let count = read(ifd, 2) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + entry * 12
            guard let tag = read(at, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            // Type SHORT (3), count 1: the value sits in the first 2 bytes of the value field.
            guard read(at + 2, 2) == 3, let value = read(at + 8, 2) else { return nil }
            return ImageOrientation(rawValue: UInt32(value))
        }
        return nil
    }
}
