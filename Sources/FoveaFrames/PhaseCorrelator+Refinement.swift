import FoveaImage

extension PhaseCorrelator {
    /// A shift larger than this fraction of the frame is measured again on the
    /// two frames' overlap: the fixed Hann window biases a large shift towards 0
    /// by up to a fifth of a grid cell, and on the overlap the residual shift is small.
    public static let refinementThreshold = 1.0 / 16

    /// The translation from `floating` onto `reference` (see
    /// ``translation(reference:floating:)``): measured on both whole frames,
    /// then, when large, again on their overlap to remove the window's bias.
    public func refinedTranslation(reference: RGBImage, floating: RGBImage,
                                   referenceSpectrum: RegistrationSpectrum, floatingSpectrum: RegistrationSpectrum) throws
        -> (dx: Double, dy: Double, confidence: Double) {
        let coarse = try translation(reference: referenceSpectrum, floating: floatingSpectrum)
        let ix = Int(coarse.dx.rounded()), iy = Int(coarse.dy.rounded())
        let overlapWidth = frameWidth - abs(ix), overlapHeight = frameHeight - abs(iy)
        let large = Double(abs(ix)) > Double(frameWidth) * Self.refinementThreshold
            || Double(abs(iy)) > Double(frameHeight) * Self.refinementThreshold
        guard coarse.confidence > 0, large, overlapWidth >= 8, overlapHeight >= 8 else { return coarse }
        // Floating pixel q is reference pixel q + (ix, iy): crop both to the shared part.
        let a = try reference.cropped(x: Swift.max(0, ix), y: Swift.max(0, iy), width: overlapWidth, height: overlapHeight)
        let b = try floating.cropped(x: Swift.max(0, -ix), y: Swift.max(0, -iy), width: overlapWidth, height: overlapHeight)
        let overlap = try PhaseCorrelator(width: overlapWidth, height: overlapHeight, maxSide: maxSide)
        let residual = try overlap.translation(reference: overlap.spectrum(of: a), floating: overlap.spectrum(of: b))
        guard residual.confidence > 0 else { return coarse }
        return (Double(ix) + residual.dx, Double(iy) + residual.dy, residual.confidence)
    }
}
