/// Whether decoding converts a photo's colours from its embedded colour
/// profile to sRGB, the colour space the models were trained in.
///
/// With `.auto` (the default) a JPEG's ICC profile (APP2), a PNG's `iCCP` or
/// `cHRM` chunk, a HEIC/AVIF's `colr` box (ICC or nclx) and a WebP's `ICCP`
/// chunk are matched to sRGB with lcms2 (perceptual intent), before any crop
/// or scaling; a photo without a profile is taken as sRGB. `.off` keeps the
/// stored values, as if every photo were sRGB (what Fovea did before).
/// See docs/formats.md.
public enum ColorMatching: String, Sendable, Equatable, Hashable, CaseIterable {
    /// Match embedded profiles to sRGB.
    case auto
    /// Keep the stored values.
    case off
}
