import Foundation
import Fovea

/// Finds and reads barcodes (Vision's `VNDetectBarcodesRequest`) with the zbar
/// library: QR codes and the common linear codes (EAN-13, EAN-8, UPC,
/// Code 128, Code 39, Code 93, Interleaved 2 of 5, Codabar, DataBar).
///
/// Perform it beside a ``ClassificationRequest`` on one handler, so that a
/// printed code can stand in for an item the model was never trained on:
///
/// ```swift
/// let barcodes = DetectBarcodesRequest()
/// try await handler.perform([classify, barcodes] as [any ImageRequest])
/// for code in barcodes.results ?? [] { print(code.symbology, code.payloadStringValue ?? "") }
/// ```
///
/// A class, as ``ClassificationRequest`` is: every reference sees the same
/// settings and ``results``.
public final class DetectBarcodesRequest: ImageRequest {
    /// Called after each perform with the observations or the error.
    public typealias CompletionHandler = @Sendable (DetectBarcodesRequest, Result<[BarcodeObservation], any Error>) -> Void

    /// The kinds of code to report; `nil` (the default) reports every kind.
    public var symbologies: [BarcodeSymbology]? {
        get { settings.value.symbologies }
        set { settings.update { $0.symbologies = newValue } }
    }
    /// The part of the upright image to search (normalized, origin at the lower
    /// left); the whole image by default. Bounding boxes are relative to it.
    public var regionOfInterest: CGRect {
        get { settings.value.regionOfInterest }
        set { settings.update { $0.regionOfInterest = newValue } }
    }
    /// Called after each perform.
    public var completionHandler: CompletionHandler? {
        get { settings.value.completionHandler }
        set { settings.update { $0.completionHandler = newValue } }
    }

    /// What a perform reads, once, when it starts.
    private struct Settings: Sendable {
        var symbologies: [BarcodeSymbology]?
        var regionOfInterest = CGRect(x: 0, y: 0, width: 1, height: 1)
        var completionHandler: CompletionHandler?
    }

    private let settings: Locked<Settings>
    private let latest = Locked<[BarcodeObservation]?>(nil)

    /// Creates a request for every symbology zbar reads (set ``symbologies`` to filter); `completionHandler` runs after each perform.
    public init(completionHandler: CompletionHandler? = nil) {
        settings = Locked(Settings(completionHandler: completionHandler))
    }

    /// The codes found by the last perform; `nil` before the first and after a failed one.
    public var results: [BarcodeObservation]? { latest.value }

    /// The codes in an upright image, inside ``regionOfInterest``.
    public func observations(for image: RGBImage) throws -> [BarcodeObservation] {
        let settings = settings.value
        let region = try settings.regionOfInterest.crop(image)
        let width = Double(region.width), height = Double(region.height)
        return try BarcodeScanner.scan(region).compactMap { code in
            let symbology = BarcodeSymbology(zbarName: code.symbologyName)
            if let symbologies = settings.symbologies, !symbologies.contains(symbology) { return nil }
            // Pixel points (y down) -> a normalized box (y up); a point is a whole pixel.
            let xs = code.points.map(\.x), ys = code.points.map(\.y)
            let left = Double(xs.min() ?? 0), right = Double((xs.max() ?? 0) + 1)
            let top = Double(ys.min() ?? 0), bottom = Double((ys.max() ?? 0) + 1)
            let box = CGRect(x: left / width, y: 1 - bottom / height, width: (right - left) / width, height: (bottom - top) / height)
            return BarcodeObservation(symbology: symbology, payloadData: code.payload, boundingBox: box)
        }
    }

    func record(_ result: Result<[BarcodeObservation], any Error>) {
        latest.value = try? result.get()
        completionHandler?(self, result)
    }
}
