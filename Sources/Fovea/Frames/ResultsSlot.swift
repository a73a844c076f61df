import Foundation

/// The lock-protected slot behind a request's `results` (Vision's
/// `request.results`): copies of a request share it, so that
/// `try handler.perform([request])` fills in the caller's `request`.
final class ResultsSlot<Observation: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `stored` holds `lock`.
    private let lock = NSLock()
    private var stored: [Observation]?

    var value: [Observation]? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
