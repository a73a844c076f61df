import Foundation
import Fovea

/// Says when a camera has held still long enough to be worth classifying:
/// Apple's FlowerShop rule. It keeps the last ``historyLength`` frame-to-frame
/// translations and calls the scene stable when the history is full and their
/// summed Manhattan distance (`|tx| + |ty|`) is below ``maximumDistance``
/// pixels. Defaults: 15 translations, 20 pixels.
///
/// Feed it translations (``add(_:)``) from your own registration, or frames
/// (``add(frame:)``), which it registers against the previous one itself.
/// A translation measured with too little confidence (a frame without
/// texture, a scene cut) counts as movement: the motion is unknown.
public final class SceneStabilityDetector: @unchecked Sendable {
    // @unchecked: every access to the mutable state holds `lock`.
    private let lock = NSLock()
    private var history: [Double] = []
    private var previousFrame: RGBImage?
    private let sequence = SequenceRequestHandler()

    /// How many translations make a full history (FlowerShop: 15).
    public let historyLength: Int
    /// The stable scene's largest summed movement, in pixels (FlowerShop: 20).
    public let maximumDistance: Double
    /// Translations below this confidence count as unknown motion.
    public let minimumConfidence: Float

    /// - Throws: `.invalidArgument` for a history shorter than 1, or a distance
    ///   or confidence that is negative or not finite.
    public init(historyLength: Int = 15, maximumDistance: Double = 20, minimumConfidence: Float = 0.05) throws {
        guard historyLength >= 1, maximumDistance.isFinite, maximumDistance >= 0,
              minimumConfidence.isFinite, (0...1).contains(minimumConfidence) else {
            throw FoveaError(.invalidArgument, "scene stability needs a history of at least 1, a finite distance >= 0 and a confidence in 0...1; got \(historyLength), \(maximumDistance), \(minimumConfidence)")
        }
        self.historyLength = historyLength
        self.maximumDistance = maximumDistance
        self.minimumConfidence = minimumConfidence
    }

    /// Records one frame-to-frame translation in pixels.
    public func add(tx: Double, ty: Double) {
        record(tx.isFinite && ty.isFinite ? abs(tx) + abs(ty) : .infinity)
    }

    /// Records a registration's result; below ``minimumConfidence`` it counts as unknown motion.
    public func add(_ alignment: ImageTranslationAlignmentObservation) {
        record(alignment.confidence >= minimumConfidence ? alignment.manhattanDistance : .infinity)
    }

    /// Registers `frame` (upright) against the previous frame and records the
    /// translation; returns it, or `nil` for the first frame. A frame of
    /// another size than the previous one starts the history anew.
    @discardableResult
    public func add(frame: RGBImage) throws -> ImageTranslationAlignmentObservation? {
        let previous: RGBImage? = lock.withLock {
            let previous = previousFrame
            previousFrame = frame
            return previous
        }
        guard let previous else { return nil }
        guard previous.width == frame.width, previous.height == frame.height else {
            lock.withLock { history = [] }
            return nil
        }
        let registration = TranslationalImageRegistrationRequest(targetedImage: frame)
        try sequence.performAndWait([registration], on: previous)
        guard let alignment = registration.results?.first else { return nil }
        add(alignment)
        return alignment
    }

    /// Whether the last ``historyLength`` translations add up to less than ``maximumDistance``.
    public var isStable: Bool {
        lock.withLock { history.count == historyLength && history.reduce(0, +) < maximumDistance }
    }

    /// The summed Manhattan distance of the translations in the history.
    public var recentDistance: Double { lock.withLock { history.reduce(0, +) } }

    /// Forgets the history and the previous frame (after a cut, or a pause).
    public func reset() {
        lock.withLock {
            history = []
            previousFrame = nil
        }
    }

    private func record(_ distance: Double) {
        lock.withLock {
            history.append(distance)
            if history.count > historyLength { history.removeFirst(history.count - historyLength) }
        }
    }
}
