/// One frame's windowed luminance spectrum (see ``PhaseCorrelator``). Keep it
/// to correlate the frame with the next one without transforming it again.
public struct RegistrationSpectrum: Sendable, Equatable {
    /// The source frame's size.
    public let frameWidth: Int, frameHeight: Int
    /// Source pixels per grid cell side.
    public let factor: Int
    /// The half spectrum, interleaved real and imaginary parts.
    let values: [Float]
    /// False when the frame is too flat to register (see ``PhaseCorrelator/minimumTexture``).
    public let isTextured: Bool
}
