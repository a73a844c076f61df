import Foundation
import FoveaCore

/// Finds the colour profile a JPEG, PNG or WebP file declares (HEIC and AVIF:
/// ``HEIFDecoder``, through libheif). `nil` means none, i.e. sRGB.
///
/// Unlike EXIF (advisory), a profile changes the pixels, so a damaged one is
/// an error: an ICC profile whose APP2 pieces are missing or inconsistent, an
/// `iCCP` chunk that does not inflate, a profile over ``ColorProfile/maxICCBytes``.
enum EmbeddedColorProfile {
    /// The ICC profile in a JPEG's `APP2` `ICC_PROFILE` markers, joined in their
    /// sequence order (a profile over 64 KB is split across several markers).
    static func inJPEG(_ data: Data) throws -> ColorProfile? {
        let bytes = [UInt8](data)
        var pieces: [Int: ArraySlice<UInt8>] = [:]
        var declaredCount: Int?
        var i = 2  // after SOI
        let signature = Array("ICC_PROFILE\0".utf8)
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { break }
            let marker = bytes[i + 1]
            if marker == 0xFF { i += 1; continue }  // fill byte
            if marker == 0xDA || marker == 0xD9 { break }  // metadata precedes the scan
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { break }  // the decoder reports a cut file
            let body = (i + 4)..<(i + 2 + length)
            if marker == 0xE2, body.count >= 14, Array(bytes[body.lowerBound..<(body.lowerBound + 12)]) == signature {
                let sequence = Int(bytes[body.lowerBound + 12]), count = Int(bytes[body.lowerBound + 13])
                guard count > 0, (1...count).contains(sequence), declaredCount == nil || declaredCount == count,
                      pieces[sequence] == nil else {
                    throw FoveaError(.invalidImage, "corrupt ICC profile in the JPEG's APP2 markers (piece \(sequence) of \(count) is out of order, repeated or inconsistent)")
                }
                declaredCount = count
                pieces[sequence] = bytes[(body.lowerBound + 14)..<body.upperBound]
                try ColorProfile.checkICCSize(pieces.values.reduce(0) { $0 + $1.count })
            }
            i += 2 + length
        }
        guard let declaredCount else { return nil }
        guard pieces.count == declaredCount else {
            throw FoveaError(.invalidImage, "incomplete ICC profile in the JPEG's APP2 markers: \(pieces.count) of \(declaredCount) pieces")
        }
        return .icc(Data((1...declaredCount).flatMap { pieces[$0]! }))
    }

    /// A PNG's colour chunks before its image data, in the PNG specification's
    /// order of precedence: `iCCP` (inflated), then `sRGB` (sRGB), then `cHRM`
    /// (primaries; the transfer is sRGB's because libpng has already decoded
    /// any `gAMA` to sRGB's encoding).
    static func inPNG(_ data: Data) throws -> ColorProfile? {
        let bytes = [UInt8](data)
        var chromaticities: Chromaticities?
        var isSRGB = false
        var i = 8
        while i + 8 <= bytes.count {
            let length = Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            let type = String(decoding: bytes[(i + 4)..<(i + 8)], as: UTF8.self)
            let start = i + 8
            guard length >= 0, length <= bytes.count - start else { break }  // the decoder reports a cut file
            let body = bytes[start..<(start + length)]
            switch type {
            case "iCCP":
                guard let nul = body.firstIndex(of: 0), nul - start <= 79, nul + 2 <= body.endIndex, body[nul + 1] == 0 else {
                    throw FoveaError(.invalidImage, "corrupt iCCP chunk in the PNG (no profile name or unknown compression)")
                }
                let compressed = Array(body[(nul + 2)...])
                let profile = try compressed.withUnsafeBytes {
                    try Inflate.inflate($0, maxBytes: ColorProfile.maxICCBytes, what: "PNG's iCCP profile")
                }
                return .icc(profile)
            case "sRGB":
                isSRGB = true
            case "cHRM" where length == 32:
                func value(_ k: Int) -> Double {
                    let o = start + 4 * k
                    return Double(Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3])) / 100_000
                }
                chromaticities = Chromaticities(whiteX: value(0), whiteY: value(1), redX: value(2), redY: value(3),
                                                greenX: value(4), greenY: value(5), blueX: value(6), blueY: value(7))
            case "IDAT", "IEND":
                i = bytes.count
                continue
            default:
                break
            }
            i = start + length + 4
        }
        guard !isSRGB, let chromaticities, !chromaticities.isSRGB else { return nil }
        return .chromaticities(chromaticities, transfer: .sRGB)
    }

    /// A WebP's `ICCP` chunk.
    static func inWebP(_ data: Data) throws -> ColorProfile? {
        guard let range = WebPChunks.find("ICCP", in: data) else { return nil }
        try ColorProfile.checkICCSize(range.count)
        return .icc(Data(data[range]))
    }
}

/// The chunks of a WebP file's RIFF container (`RIFF` size `WEBP`, then
/// four-character-code, little-endian size, payload, padded to even).
enum WebPChunks {
    /// The payload of the first chunk named `fourCC`, or `nil`.
    static func find(_ fourCC: String, in data: Data) -> Range<Data.Index>? {
        let bytes = [UInt8](data)
        let code = Array(fourCC.utf8)
        var i = 12
        while i + 8 <= bytes.count {
            let size = Int(bytes[i + 4]) | Int(bytes[i + 5]) << 8 | Int(bytes[i + 6]) << 16 | Int(bytes[i + 7]) << 24
            let start = i + 8
            guard size <= bytes.count - start else { return nil }
            if Array(bytes[i..<(i + 4)]) == code {
                return (data.startIndex + start)..<(data.startIndex + start + size)
            }
            i = start + size + (size & 1)
        }
        return nil
    }
}
