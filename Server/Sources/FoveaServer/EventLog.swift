import Foundation
import Logging

/// Logs events a client can cause in bulk (parser rejections, limit hits,
/// timeouts, resource exhaustion, disconnects) at most once per interval per
/// kind of event, saying how many were left out since the last line, so that a
/// flood of hostile requests cannot flood the log as well.
public final class EventLog: @unchecked Sendable {
    // @unchecked: `last` and `suppressed` are only touched while holding `lock`.
    private let logger: Logger
    private let interval: Duration
    private let lock = NSLock()
    private var last: [String: ContinuousClock.Instant] = [:]
    private var suppressed: [String: Int] = [:]

    public init(logger: Logger, interval: Duration = .seconds(1)) {
        self.logger = logger
        self.interval = interval
    }

    /// Logs `event` unless a line for the same event was written less than an
    /// interval ago (then it is only counted, and the next line says how many).
    /// Returns whether it logged.
    @discardableResult
    public func record(_ event: String, level: Logger.Level = .warning, _ metadata: Logger.Metadata = [:]) -> Bool {
        let now = ContinuousClock.now
        let left: Int? = lock.withLock {
            if let previous = last[event], now - previous < interval {
                suppressed[event, default: 0] += 1
                return nil
            }
            last[event] = now
            return suppressed.removeValue(forKey: event) ?? 0
        }
        guard let left else { return false }
        var fields = metadata
        if left > 0 { fields["suppressed"] = "\(left)" }
        logger.log(level: level, "\(event)", metadata: fields)
        return true
    }
}
