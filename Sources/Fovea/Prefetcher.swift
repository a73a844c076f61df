import Foundation

/// Makes items `0..<count` in order on a background thread, at most `depth`
/// ahead of the consumer: the first stage of a two-stage pipeline, so that
/// preparing item n + 1 overlaps with whatever the consumer does with item n.
final class Prefetcher<Item: Sendable>: @unchecked Sendable {
    // @unchecked: `ready`, `taken` and `cancelled` are only touched while holding `condition`.
    private let condition = NSCondition()
    private var ready: [Int: Item] = [:]
    /// How many items the consumer has taken.
    private var taken = 0
    private var cancelled = false

    init(count: Int, depth: Int, make: @escaping @Sendable (Int) -> Item) {
        let depth = max(1, depth)
        Thread.detachNewThread { [self] in
            for index in 0..<count {
                condition.lock()
                while index - taken >= depth, !cancelled { condition.wait() }
                let stop = cancelled
                condition.unlock()
                if stop { return }
                let item = make(index)
                condition.lock()
                ready[index] = item
                condition.broadcast()
                condition.unlock()
            }
        }
    }

    /// Item `index`, waiting for it; items must be taken in order, each once.
    func take(_ index: Int) -> Item {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let item = ready.removeValue(forKey: index) {
                taken = index + 1
                condition.broadcast()
                return item
            }
            condition.wait()
        }
    }

    /// Stops making items (the consumer gave up early).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}
