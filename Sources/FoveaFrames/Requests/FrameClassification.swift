import Foundation
import Fovea

/// What a ``FrameClassifier`` found in one frame.
public struct FrameClassification: Sendable {
    /// The frame's number, counting from 1 in the order frames were offered.
    public let frameNumber: Int
    /// Whether the scene was stable when the frame was offered (`nil` without a
    /// ``SceneStabilityDetector``).
    public let isStable: Bool?
    /// The classes, best first (empty if the run failed).
    public let observations: [ClassificationObservation]
    /// The codes found, when the classifier was given a ``DetectBarcodesRequest``.
    public let barcodes: [BarcodeObservation]
    /// Seconds from the frame's offer to its result, waiting included.
    public let latency: Double
    /// Why the frame could not be classified, if it could not.
    public let error: FoveaError?
}

/// A ``FrameClassifier``'s counts, for a summary line.
public struct FrameClassifierStatistics: Sendable, Equatable {
    /// Frames offered.
    public var offered = 0
    /// Frames classified (or failed while classifying).
    public var classified = 0
    /// Frames that waited and were replaced by a newer one before the classifier was free.
    public var dropped = 0
    /// Frames not offered for classification: the scene was not stable (with
    /// ``FrameClassifier/Gate/stableOnly``) or the frame fell between ``FrameClassifier/classifyEvery`` steps.
    public var skipped = 0
    /// The sum of the classified frames' latencies, in seconds.
    public var totalLatency = 0.0

    /// The mean latency of a classified frame, in seconds (0 before the first).
    public var meanLatency: Double { classified == 0 ? 0 : totalLatency / Double(classified) }
}
