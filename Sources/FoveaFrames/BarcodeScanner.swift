import CZBar
import FoveaCore
import FoveaImage

/// One code zbar found: its symbology (zbar's name, such as `QR-Code`,
/// `EAN-13`, `CODE-128`), its payload, and the pixels where it was read.
public struct ScannedBarcode: Sendable, Equatable {
    /// zbar's symbology name.
    public let symbologyName: String
    /// The decoded bytes.
    public let payload: [UInt8]
    /// The points zbar located the code at, in pixels (x right, y down): a
    /// QR code's four corners, or where the scan lines crossed a linear code.
    public let points: [(x: Int, y: Int)]

    public static func == (a: ScannedBarcode, b: ScannedBarcode) -> Bool {
        a.symbologyName == b.symbologyName && a.payload == b.payload
            && a.points.map(\.x) == b.points.map(\.x) && a.points.map(\.y) == b.points.map(\.y)
    }
}

/// Finds and decodes barcodes with the zbar library (1-D codes of the EAN/UPC,
/// Code 128, Code 39, Code 93, Interleaved 2 of 5, Codabar and DataBar
/// families, and QR codes), in zbar's default configuration. zbar scans rows
/// and columns, so codes turned by a quarter turn are found too.
public enum BarcodeScanner {
    /// The codes in `image`, in the order zbar reports them.
    public static func scan(_ image: RGBImage) throws -> [ScannedBarcode] {
        var luma = image.lumaBytes()
        guard let scanner = zbar_image_scanner_create() else {
            throw FoveaError(.invalidImage, "zbar could not create an image scanner (out of memory)")
        }
        defer { zbar_image_scanner_destroy(scanner) }
        guard let zimage = zbar_image_create() else {
            throw FoveaError(.invalidImage, "zbar could not create an image (out of memory)")
        }
        defer { zbar_image_destroy(zimage) }
        // "Y800": 8-bit gray, one byte per pixel.
        let y800 = UInt(UInt8(ascii: "Y")) | UInt(UInt8(ascii: "8")) << 8 | UInt(UInt8(ascii: "0")) << 16 | UInt(UInt8(ascii: "0")) << 24
        zbar_image_set_format(zimage, y800)
        zbar_image_set_size(zimage, UInt32(image.width), UInt32(image.height))
        return try luma.withUnsafeMutableBytes { bytes -> [ScannedBarcode] in
            // No cleanup handler: the bytes belong to Swift and outlive the scan.
            zbar_image_set_data(zimage, bytes.baseAddress, UInt(bytes.count), nil)
            guard zbar_scan_image(scanner, zimage) >= 0 else {
                throw FoveaError(.invalidImage, "zbar failed to scan the \(image.width)×\(image.height) image")
            }
            var found: [ScannedBarcode] = []
            var symbol = zbar_image_first_symbol(zimage)
            while let current = symbol {
                let name = String(cString: zbar_get_symbol_name(zbar_symbol_get_type(current)))
                let length = Int(zbar_symbol_get_data_length(current))
                let payload = zbar_symbol_get_data(current).map { data in
                    UnsafeRawBufferPointer(start: data, count: length).map { $0 }
                } ?? []
                let points = (0..<zbar_symbol_get_loc_size(current)).map { i in
                    (x: Int(zbar_symbol_get_loc_x(current, i)), y: Int(zbar_symbol_get_loc_y(current, i)))
                }
                found.append(ScannedBarcode(symbologyName: name, payload: payload, points: points))
                symbol = zbar_symbol_next(current)
            }
            return found
        }
    }
}

extension RGBImage {
    /// One luma byte per pixel (BT.601 weights, rounded).
    func lumaBytes() -> [UInt8] {
        var luma = [UInt8](repeating: 0, count: width * height)
        pixels.withUnsafeBufferPointer { rgb in
            for i in 0..<luma.count {
                let sum = 77 * Int(rgb[3 * i]) + 150 * Int(rgb[3 * i + 1]) + 29 * Int(rgb[3 * i + 2])
                luma[i] = UInt8((sum + 128) >> 8)
            }
        }
        return luma
    }
}
