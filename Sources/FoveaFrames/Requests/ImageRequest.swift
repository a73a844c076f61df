import Fovea

/// A request an ``ImageRequestHandler`` or a ``SequenceRequestHandler`` can
/// perform (Vision's `VNRequest`). Fovea's requests conform:
/// ``ClassificationRequest``, ``DetectBarcodesRequest`` and
/// ``TranslationalImageRegistrationRequest``. Mix them in one
/// `perform([...])`: the image is decoded and turned upright once for all.
///
/// ```swift
/// try await handler.perform([classify, barcodes] as [any ImageRequest])
/// let labels = classify.results ?? [], codes = barcodes.results ?? []
/// ```
///
/// Requests are classes (as Vision's are), so that a perform can set the
/// `results` of the request the caller holds.
public protocol ImageRequest: AnyObject, Sendable {}

extension ClassificationRequest: ImageRequest {}
