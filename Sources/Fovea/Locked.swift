import Foundation

/// A value behind a lock: the mutable state of Fovea's `Sendable` request
/// classes (their settings and `results`), which several tasks may read and
/// change at once.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access to `stored` holds `lock`.
    private let lock = NSLock()
    private var stored: Value

    package init(_ value: Value) {
        stored = value
    }

    package var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place, under the lock.
    package func update(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}
