import Foundation
@_spi(Internals) import Fovea

/// The photos of one run in input order: the path list's lines in this shard.
///
/// The pipelined classifier reads it as a sequence of paths on its background
/// thread, a few photos ahead of the results; each path's line number waits
/// here until its result comes back (in the same order) and takes it with
/// ``takeLineNumber()``. Before that, the calling thread may take lines itself
/// (``nextLine()``: photos an earlier run already did, see ``ResumePoint``).
final class PhotoQueue: Sequence, @unchecked Sendable {
    // @unchecked: `list` is read by one thread at a time (the caller, then the
    // classifier's background thread); `pending` and `readError` under `lock`.
    private let list: PathList
    private let shard: Shard?
    private let lock = NSLock()
    private var pending: [Int] = []
    private var pendingStart = 0
    private var readError: (any Error)?

    init(_ list: PathList, shard: Shard?) {
        self.list = list
        self.shard = shard
    }

    /// The next line of this shard, or `nil` at the end of the list.
    func nextLine() throws -> PathLine? {
        while let line = try list.next() {
            if shard?.contains(line: line.number) ?? true { return line }
        }
        return nil
    }

    func makeIterator() -> AnyIterator<String> {
        AnyIterator { [self] in
            do {
                guard let line = try nextLine() else { return nil }
                lock.withLock { pending.append(line.number) }
                return line.path
            } catch {
                // Ends the sequence; the run reports it (``throwReadError()``).
                lock.withLock { readError = error }
                return nil
            }
        }
    }

    /// The line number of the oldest path handed out and not yet taken back.
    func takeLineNumber() -> Int {
        lock.withLock {
            let number = pending[pendingStart]
            pendingStart += 1
            // Drop the taken ones now and then: the queue stays a few photos long.
            if pendingStart >= 1024 {
                pending.removeFirst(pendingStart)
                pendingStart = 0
            }
            return number
        }
    }

    /// Rethrows an error met while the classifier read the list.
    func throwReadError() throws {
        if let error = lock.withLock({ readError }) { throw error }
    }
}
