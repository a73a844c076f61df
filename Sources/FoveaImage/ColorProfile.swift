import Foundation
import FoveaCore

/// The colour space a decoded photo's values are in, as the file declares it.
/// `nil` where one is expected means sRGB.
enum ColorProfile: Hashable, Sendable {
    /// An embedded ICC profile, byte for byte.
    case icc(Data)
    /// Primaries and white point (CIE 1931 xy) with a transfer curve: a PNG's
    /// `cHRM` chunk, a HEIC/AVIF's nclx `colr` box.
    case chromaticities(Chromaticities, transfer: TransferCurve)

    /// The largest embedded ICC profile accepted: real profiles (even with
    /// large lookup tables) are well under it; more is refused before it is parsed.
    static let maxICCBytes = 4 << 20

    /// Throws `.limitExceeded` for an ICC profile of `byteCount` bytes beyond ``maxICCBytes``.
    static func checkICCSize(_ byteCount: Int) throws {
        guard byteCount <= maxICCBytes else {
            throw FoveaError(.limitExceeded, "embedded ICC profile of \(byteCount) bytes is larger than the limit of \(maxICCBytes) bytes")
        }
    }
}

/// Red, green and blue primaries and the white point, as CIE 1931 (x, y).
struct Chromaticities: Hashable, Sendable {
    var whiteX, whiteY, redX, redY, greenX, greenY, blueX, blueY: Double

    /// sRGB's (ITU-R BT.709 primaries, D65 white).
    static let sRGB = Chromaticities(whiteX: 0.3127, whiteY: 0.3290, redX: 0.64, redY: 0.33,
                                     greenX: 0.30, greenY: 0.60, blueX: 0.15, blueY: 0.06)

    /// Whether these are sRGB's to within the precision files store them with.
    var isSRGB: Bool {
        let a = [whiteX, whiteY, redX, redY, greenX, greenY, blueX, blueY]
        let b = Self.sRGB
        let s = [b.whiteX, b.whiteY, b.redX, b.redY, b.greenX, b.greenY, b.blueX, b.blueY]
        return zip(a, s).allSatisfy { abs($0 - $1) < 0.001 }
    }
}

/// How stored values encode light.
enum TransferCurve: Hashable, Sendable {
    /// The sRGB curve (IEC 61966-2-1).
    case sRGB
    /// value = light^(1/gamma).
    case gamma(Double)
}

extension ColorProfile {
    /// The colour space an nclx `colr` box (ITU-T H.273 code points) describes,
    /// or `nil` for sRGB. `primaries` are the decoded xy values libheif gives.
    ///
    /// Transfer curves: sRGB (13), unspecified (2) and the BT.709 family (1, 6,
    /// 14, 15) are decoded with the sRGB curve, as browsers do; linear (8) and
    /// the pure gammas (4: 2.2, 5: 2.8) exactly; PQ (16) and HLG (18) are not
    /// tone-mapped (their values are taken as sRGB-encoded: see docs/formats.md).
    static func nclx(primariesCode: Int, transferCode: Int, primaries: Chromaticities) -> ColorProfile? {
        let transfer: TransferCurve
        switch transferCode {
        case 8: transfer = .gamma(1)
        case 4: transfer = .gamma(2.2)
        case 5: transfer = .gamma(2.8)
        default: transfer = .sRGB
        }
        // 2: unspecified primaries, taken as sRGB's.
        if primariesCode == 2 || primaries.isSRGB, transfer == .sRGB { return nil }
        return .chromaticities(primariesCode == 2 ? .sRGB : primaries, transfer: transfer)
    }
}
