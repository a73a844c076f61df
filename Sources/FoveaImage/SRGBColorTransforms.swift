import Foundation
import CLCMS2
import FoveaCore

/// lcms2 transforms from a photo's colour space to sRGB, built once per
/// distinct profile (keyed by the profile's bytes, or its chromaticities) and
/// shared by every decode in the process.
///
/// A profile that maps every colour to itself within one step (an embedded
/// sRGB profile: most camera JPEGs carry one) is recorded as the identity,
/// and its photos are not transformed at all. So is a profile of a colour
/// space that is not RGB (a grey or CMYK profile: the decoder has already
/// made RGB of the pixels; see docs/formats.md).
enum SRGBColorTransforms {
    /// What converting from one profile takes.
    enum Conversion {
        case identity
        case transform(LCMSTransform)
    }

    /// The conversion for `profile` with input samples of 8 or 16 bits,
    /// from the cache or built now.
    ///
    /// - Throws: `.invalidImage` for an ICC profile lcms2 cannot read or use as an input profile.
    static func conversion(for profile: ColorProfile, sixteenBit: Bool) throws -> Conversion {
        let key = Key(profile: profile, sixteenBit: sixteenBit)
        if let cached = cache.lock.withLock({ cache.entries[key] }) { return cached }
        let conversion = try build(profile, sixteenBit: sixteenBit)
        cache.lock.withLock {
            // A photo library has a handful of profiles; a stream of distinct
            // ones (hostile input) must not grow the cache without bound.
            if cache.entries.count >= maxCachedProfiles { cache.entries.removeAll() }
            cache.entries[key] = conversion
        }
        return conversion
    }

    /// How many conversions are kept.
    static let maxCachedProfiles = 32

    /// The number of conversions built so far (for tests of the cache).
    static var buildCount: Int { cache.lock.withLock { cache.builds } }

    /// The cache's key: the profile's bytes or chromaticities in plain stored
    /// properties. Not a `ColorProfile`: an enum holding `Data` keeps its
    /// storage pointer with tag bits set, which LeakSanitizer cannot follow,
    /// so every cached profile was reported as leaked under the fuzzer.
    private struct Key: Hashable {
        var icc: [UInt8]?
        var chromaticities: Chromaticities?
        var transfer: TransferCurve?
        var sixteenBit: Bool

        init(profile: ColorProfile, sixteenBit: Bool) {
            self.sixteenBit = sixteenBit
            switch profile {
            case .icc(let bytes): icc = [UInt8](bytes)
            case .chromaticities(let c, let t): chromaticities = c; transfer = t
            }
        }
    }

    private final class Cache: @unchecked Sendable {
        // @unchecked: `entries` and `builds` are only touched while holding `lock`.
        let lock = NSLock()
        var entries: [Key: Conversion] = [:]
        var builds = 0
    }
    private static let cache = Cache()

    private static func build(_ profile: ColorProfile, sixteenBit: Bool) throws -> Conversion {
        cache.lock.withLock { cache.builds += 1 }
        guard let input = try openProfile(profile) else { return .identity }
        defer { cmsCloseProfile(input) }
        guard cmsGetColorSpace(input) == cmsSigRgbData else { return .identity }
        guard let sRGB = cmsCreate_sRGBProfile() else {
            throw FoveaError(.invalidImage, "lcms2 cannot create its sRGB profile")
        }
        defer { cmsCloseProfile(sRGB) }
        let inputFormat = sixteenBit ? fovea_lcms_type_rgb_16() : fovea_lcms_type_rgb_8()
        // NOCACHE: lcms2 then keeps no per-transform state, so one transform
        // may run on several threads at once.
        guard let handle = cmsCreateTransform(input, inputFormat, sRGB, fovea_lcms_type_rgb_8(),
                                              UInt32(INTENT_PERCEPTUAL), UInt32(cmsFLAGS_NOCACHE)) else {
            throw FoveaError(.invalidImage, "the embedded colour profile cannot be converted to sRGB (lcms2 refused it as an input profile)")
        }
        let transform = LCMSTransform(handle, sixteenBit: sixteenBit)
        return transform.isIdentity ? .identity : .transform(transform)
    }

    /// An lcms2 profile for `profile`, `nil` for one that is sRGB by construction.
    private static func openProfile(_ profile: ColorProfile) throws -> cmsHPROFILE? {
        switch profile {
        case .icc(let bytes):
            try ColorProfile.checkICCSize(bytes.count)
            let opened = bytes.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
            guard let opened else {
                throw FoveaError(.invalidImage, "corrupt embedded ICC profile (\(bytes.count) bytes): lcms2 cannot read it")
            }
            return opened
        case .chromaticities(let c, let transfer):
            var white = cmsCIExyY(x: c.whiteX, y: c.whiteY, Y: 1)
            var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: c.redX, y: c.redY, Y: 1),
                                            Green: cmsCIExyY(x: c.greenX, y: c.greenY, Y: 1),
                                            Blue: cmsCIExyY(x: c.blueX, y: c.blueY, Y: 1))
            let curve: OpaquePointer?
            switch transfer {
            case .sRGB:
                // lcms2's parametric type 4: Y = (aX + b)^g for X >= d, else cX.
                var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
                curve = cmsBuildParametricToneCurve(nil, 4, &parameters)
            case .gamma(let gamma):
                curve = cmsBuildGamma(nil, gamma)
            }
            guard let curve else { throw FoveaError(.invalidImage, "lcms2 cannot build a tone curve") }
            defer { cmsFreeToneCurve(curve) }
            var curves: [OpaquePointer?] = [curve, curve, curve]
            guard let created = cmsCreateRGBProfile(&white, &primaries, &curves) else {
                throw FoveaError(.invalidImage, "the declared chromaticities do not make a valid RGB colour space (lcms2 refused them)")
            }
            return created
        }
    }
}

/// One lcms2 transform to 8-bit sRGB; freed when the last photo using it is done.
final class LCMSTransform: @unchecked Sendable {
    // @unchecked: the transform is made with cmsFLAGS_NOCACHE and is immutable,
    // which lcms2 documents as safe to use from several threads.
    private let handle: cmsHTRANSFORM
    let sixteenBit: Bool

    init(_ handle: cmsHTRANSFORM, sixteenBit: Bool) {
        self.handle = handle
        self.sixteenBit = sixteenBit
    }

    deinit { cmsDeleteTransform(handle) }

    /// Converts `count` pixels of interleaved RGB (8-bit input: may be the output buffer).
    func convert(_ input: UnsafeRawPointer, to output: UnsafeMutableRawPointer, count: Int) {
        cmsDoTransform(handle, input, output, UInt32(count))
    }

    /// Whether the transform leaves every colour of a 9×9×9 grid within one step.
    var isIdentity: Bool {
        let levels = (0..<9).map { min(255, $0 * 32) }
        var expected: [UInt8] = []
        for r in levels { for g in levels { for b in levels { expected += [UInt8(r), UInt8(g), UInt8(b)] } } }
        var output = [UInt8](repeating: 0, count: expected.count)
        let count = expected.count / 3
        if sixteenBit {
            let input = expected.map { UInt16($0) * 257 }
            input.withUnsafeBytes { i in output.withUnsafeMutableBytes { convert(i.baseAddress!, to: $0.baseAddress!, count: count) } }
        } else {
            expected.withUnsafeBytes { i in output.withUnsafeMutableBytes { convert(i.baseAddress!, to: $0.baseAddress!, count: count) } }
        }
        return zip(expected, output).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
    }
}
