import Foundation
import Fovea

/// How far to move one image so that it lines up with another (Vision's
/// `VNImageTranslationAlignmentObservation`), from a
/// ``TranslationalImageRegistrationRequest``.
///
/// The translation moves the **targeted** (floating) image onto the handler's
/// (reference) image, in pixels of the reference image, with Vision's axes:
/// x to the right, y **up** (origin at the lower left). Content at column c,
/// row r of the targeted image is at column `c + tx`, row `r - ty` of the reference.
public struct ImageTranslationAlignmentObservation: Sendable, Equatable, Codable {
    /// Pixels to the right.
    public let tx: Double
    /// Pixels up.
    public let ty: Double
    /// How sure the estimate is, 0...1: the height of the phase-correlation
    /// peak relative to an image correlated with itself. Near 0 for a frame
    /// without texture or unrelated content, where (tx, ty) means nothing.
    public let confidence: Float

    /// Creates an observation of a shift of `tx` pixels right and `ty` pixels up.
    public init(tx: Double, ty: Double, confidence: Float) {
        self.tx = tx
        self.ty = ty
        self.confidence = confidence
    }

    /// The translation as Vision's `alignmentTransform` (a pure translation).
    public var alignmentTransform: AffineTransform { AffineTransform(translationByX: tx, byY: ty) }

    /// `|tx| + |ty|`: FlowerShop's measure of how much the scene moved.
    public var manhattanDistance: Double { abs(tx) + abs(ty) }
}
