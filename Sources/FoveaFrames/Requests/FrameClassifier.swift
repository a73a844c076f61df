import Foundation
import Fovea

/// Classifies a stream of frames as fast as the model allows, never falling
/// behind: at most one classification runs at a time, and only the newest
/// waiting frame is kept (a queue of one). A frame offered while another waits
/// replaces it, and the replaced one is counted as dropped. This is what a camera
/// app does when the model is slower than the camera.
///
/// ```swift
/// let classifier = try FrameClassifier(request: classify, stability: SceneStabilityDetector(), gate: .stableOnly)
/// Task { for await result in classifier.results { print(result.frameNumber, result.observations.first?.identifier ?? "") } }
/// while let frame = try video.nextFrame() { try classifier.offer(frame) }   // returns at once
/// classifier.finish()
/// ```
///
/// Offering a frame registers it against the previous one when there is a
/// ``SceneStabilityDetector`` (on the offering thread: stability needs every
/// frame), then hands it to the classification task.
public final class FrameClassifier: @unchecked Sendable {
    // @unchecked: the mutable state below is only touched while holding `lock`.

    /// Which frames may be classified.
    public enum Gate: Sendable {
        /// Every frame (the stability detector, if any, only reports).
        case always
        /// Only frames offered while the scene is stable.
        case stableOnly
    }

    /// What became of an offered frame.
    public enum Disposition: Sendable, Equatable {
        /// Classification started at once.
        case started
        /// It waits for the running classification (and replaced a waiting frame if `dropped` is true).
        case waiting(replacedAnother: Bool)
        /// Not classified: unstable scene, or between ``classifyEvery`` steps.
        case skipped
    }

    /// The classification request run on each frame.
    public let request: ClassificationRequest
    /// Barcodes detected on each classified frame too.
    public let barcodes: DetectBarcodesRequest?
    /// The scene stability detector fed with every frame.
    public let stability: SceneStabilityDetector?
    /// Which frames may be classified.
    public let gate: Gate
    /// Only every n-th frame offered may be classified (1: all).
    public let classifyEvery: Int
    /// Each classified frame's result, in order; ends after ``finish()`` once the last frame is done.
    public let results: AsyncStream<FrameClassification>

    private let continuation: AsyncStream<FrameClassification>.Continuation
    private let lock = NSLock()
    private var counts = FrameClassifierStatistics()
    private var busy = false
    private var finished = false
    private var waiting: PendingFrame?

    private struct PendingFrame {
        let number: Int
        let image: RGBImage
        let isStable: Bool?
        let offeredAt: UInt64
    }

    /// - Throws: `.invalidArgument` for `classifyEvery` below 1, or `.stableOnly`
    ///   without a stability detector.
    public init(request: ClassificationRequest, barcodes: DetectBarcodesRequest? = nil,
                stability: SceneStabilityDetector? = nil, gate: Gate = .always, classifyEvery: Int = 1) throws {
        guard classifyEvery >= 1 else {
            throw FoveaError(.invalidArgument, "classifyEvery must be at least 1, got \(classifyEvery)")
        }
        if case .stableOnly = gate, stability == nil {
            throw FoveaError(.invalidArgument, "gating on stability needs a SceneStabilityDetector")
        }
        self.request = request
        self.barcodes = barcodes
        self.stability = stability
        self.gate = gate
        self.classifyEvery = classifyEvery
        (results, continuation) = AsyncStream.makeStream(of: FrameClassification.self)
    }

    /// The counts so far.
    public var statistics: FrameClassifierStatistics { lock.withLock { counts } }

    /// Offers an upright frame and returns at once (after registering it, with
    /// a stability detector).
    ///
    /// - Throws: `.invalidArgument` after ``finish()``; a registration error.
    @discardableResult
    public func offer(_ frame: RGBImage) throws -> Disposition {
        let offeredAt = DispatchTime.now().uptimeNanoseconds
        let number: Int = try lock.withLock {
            guard !finished else { throw FoveaError(.invalidArgument, "a frame was offered after finish()") }
            counts.offered += 1
            return counts.offered
        }
        var isStable: Bool?
        if let stability {
            try stability.add(frame: frame)
            isStable = stability.isStable
        }
        let allowed = (number - 1) % classifyEvery == 0 && (gate == .always || isStable == true)
        let pending = PendingFrame(number: number, image: frame, isStable: isStable, offeredAt: offeredAt)
        let disposition: Disposition = lock.withLock {
            guard allowed else {
                counts.skipped += 1
                return .skipped
            }
            guard busy else {
                busy = true
                return .started
            }
            let replaced = waiting != nil
            if replaced { counts.dropped += 1 }
            waiting = pending
            return .waiting(replacedAnother: replaced)
        }
        if disposition == .started { startClassifying(pending) }
        return disposition
    }

    /// No more frames: the results stream ends once the running and waiting frames are done.
    public func finish() {
        let idle: Bool = lock.withLock {
            finished = true
            return !busy
        }
        if idle { continuation.finish() }
    }

    /// Classifies `frame`, then whatever frame is waiting, until none is.
    private func startClassifying(_ frame: PendingFrame) {
        Task.detached { [self] in
            var next: PendingFrame? = frame
            while let current = next {
                let result = classify(current)
                // Yield before letting go of `busy`: once idle, finish() may end the stream.
                continuation.yield(result)
                let ended: Bool
                (next, ended) = lock.withLock {
                    counts.classified += 1
                    counts.totalLatency += result.latency
                    let taken = waiting
                    waiting = nil
                    if taken == nil { busy = false }
                    return (taken, taken == nil && finished)
                }
                if ended { continuation.finish() }
            }
        }
    }

    private func classify(_ frame: PendingFrame) -> FrameClassification {
        var observations: [ClassificationObservation] = []
        var codes: [BarcodeObservation] = []
        var failure: FoveaError?
        do {
            observations = try request.observations(for: frame.image)
            if let barcodes { codes = try barcodes.observations(for: frame.image) }
        } catch let error as FoveaError {
            failure = error
        } catch {
            failure = FoveaError(.invalidArgument, "\(error)")
        }
        let latency = Double(DispatchTime.now().uptimeNanoseconds - frame.offeredAt) / 1e9
        return FrameClassification(frameNumber: frame.number, isStable: frame.isStable, observations: observations,
                                   barcodes: codes, latency: latency, error: failure)
    }
}
