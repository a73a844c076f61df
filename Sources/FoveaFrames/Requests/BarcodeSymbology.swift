/// A kind of barcode (Vision's `VNBarcodeSymbology`): `.qr`, `.ean13`,
/// `.code128` and the others zbar reads. The raw value is Vision's name
/// without its prefix (`QR`, `EAN13`, `Code128`).
public struct BarcodeSymbology: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// Vision's name without its prefix, such as `QR` or `EAN13`.
    public let rawValue: String
    /// Creates a symbology from its name.
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// QR Code: a 2-D matrix code (URLs, tickets).
    public static let qr = BarcodeSymbology(rawValue: "QR")
    /// EAN-13: the 13-digit retail product code.
    public static let ean13 = BarcodeSymbology(rawValue: "EAN13")
    /// EAN-8: 8 digits, for small retail packages.
    public static let ean8 = BarcodeSymbology(rawValue: "EAN8")
    /// UPC-E: the zero-suppressed 8-digit form of UPC-A.
    public static let upce = BarcodeSymbology(rawValue: "UPCE")
    /// Code 128: dense alphanumeric linear code (shipping labels, GS1-128).
    public static let code128 = BarcodeSymbology(rawValue: "Code128")
    /// Code 39: alphanumeric linear code (industry, ID badges).
    public static let code39 = BarcodeSymbology(rawValue: "Code39")
    /// Code 93: a denser successor of Code 39.
    public static let code93 = BarcodeSymbology(rawValue: "Code93")
    /// Interleaved 2 of 5: digits in pairs (cartons, ITF-14).
    public static let i2of5 = BarcodeSymbology(rawValue: "I2of5")
    /// Codabar: digits and a few symbols (libraries, blood banks).
    public static let codabar = BarcodeSymbology(rawValue: "Codabar")
    /// GS1 DataBar (formerly RSS-14): 14-digit GTINs on small items such as produce.
    public static let gs1DataBar = BarcodeSymbology(rawValue: "GS1DataBar")
    /// GS1 DataBar Expanded: a GTIN with extra data such as weight or expiry date.
    public static let gs1DataBarExpanded = BarcodeSymbology(rawValue: "GS1DataBarExpanded")

    /// zbar's symbology names, as `zbar_get_symbol_name` spells them.
    private static let zbarNames: [String: BarcodeSymbology] = [
        "QR-Code": .qr, "EAN-13": .ean13, "EAN-8": .ean8, "UPC-E": .upce, "CODE-128": .code128,
        "CODE-39": .code39, "CODE-93": .code93, "I2/5": .i2of5, "Codabar": .codabar,
        "DataBar": .gs1DataBar, "DataBar-Exp": .gs1DataBarExpanded,
        // UPC-A is EAN-13 with a leading zero, as Vision reports it.
        "UPC-A": .ean13,
    ]

    /// The symbology for zbar's name; other zbar names keep their own spelling.
    init(zbarName: String) {
        self = BarcodeSymbology.zbarNames[zbarName] ?? BarcodeSymbology(rawValue: zbarName)
    }
}
