import Foundation
import Fovea

/// A barcode found in an image (Vision's `VNBarcodeObservation`).
public struct BarcodeObservation: Sendable, Equatable, Codable {
    /// The kind of code.
    public let symbology: BarcodeSymbology
    /// The payload as text (UTF-8; `nil` when the bytes are not valid UTF-8).
    public let payloadStringValue: String?
    /// The payload's bytes.
    public let payloadData: [UInt8]
    /// Where the code is, normalized to the request's region of interest
    /// (the whole image by default), origin at the lower left as in Vision.
    /// For a linear code it spans the scan lines that read it, so it can be
    /// thinner than the printed bars.
    public let boundingBox: CGRect
    /// Always 1: zbar reports only codes whose check digits or error
    /// correction verified.
    public let confidence: Float

    /// Creates an observation; ``payloadStringValue`` is `payloadData` as UTF-8 when it is valid UTF-8.
    public init(symbology: BarcodeSymbology, payloadData: [UInt8], boundingBox: CGRect, confidence: Float = 1) {
        self.symbology = symbology
        self.payloadData = payloadData
        self.payloadStringValue = String(validating: payloadData, as: UTF8.self)
        self.boundingBox = boundingBox
        self.confidence = confidence
    }
}
