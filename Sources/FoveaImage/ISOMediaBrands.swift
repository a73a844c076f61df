import Foundation

/// Tells HEIC/HEIF and AVIF files from other ISO base media files (MP4, MOV)
/// by the brands of their `ftyp` box: the major brand and the compatible ones.
enum ISOMediaBrands {
    static let avifBrands: Set<String> = ["avif", "avis"]
    static let heifBrands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "mif2"]

    /// `.avif` if any brand is AVIF's, `.heif` if any is HEIF's, else `nil`.
    static func imageFormat(of data: Data) -> ImageFormat? {
        let bytes = [UInt8](data.prefix(256))
        guard bytes.count >= 12, bytes[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let boxSize = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        // The major brand (8..<12), then the compatible brands after the minor version (16...).
        var brands = [String(decoding: bytes[8..<12], as: UTF8.self)]
        var i = 16
        while i + 4 <= min(boxSize, bytes.count) {
            brands.append(String(decoding: bytes[i..<(i + 4)], as: UTF8.self))
            i += 4
        }
        if brands.contains(where: avifBrands.contains) { return .avif }
        if brands.contains(where: heifBrands.contains) { return .heif }
        return nil
    }
}
