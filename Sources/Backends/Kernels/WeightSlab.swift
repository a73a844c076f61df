import Foundation
import FoveaCore

/// One huge-page chunk of packed weights (``HugePages``), freed when the last
/// ``PackedWeights`` placed in it is.
final class WeightChunk: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        base = HugePages.allocate(byteCount: capacity, alignment: WeightSlab.alignment)
    }

    deinit { HugePages.deallocate(base) }
}

/// Places packed weights side by side in shared huge-page chunks, so that a
/// network's many small weight buffers (most layers pack 10 KB - 2 MB) sit on
/// a few huge pages instead of each on its own 4 KiB pages. A buffer of at
/// least half a chunk gets a chunk of its own.
final class WeightSlab: @unchecked Sendable {
    /// Alignment of every placed buffer (a cache line, as the C kernels expect).
    static let alignment = 64
    /// Bytes of a shared chunk.
    static let chunkBytes = 4 * HugePages.pageBytes

    /// The process-wide slab every packed weight buffer comes from.
    static let shared = WeightSlab()

    private let lock = NSLock()
    /// The chunk being filled; weak, so it is freed with its last buffer.
    private weak var current: WeightChunk?
    private var used = 0

    /// Room for `byteCount` bytes: where they start and the chunk that owns them.
    func place(byteCount: Int) -> (bytes: UnsafeMutableRawPointer, chunk: WeightChunk) {
        let rounded = Swift.max(Self.alignment, (byteCount + Self.alignment - 1) / Self.alignment * Self.alignment)
        if rounded >= Self.chunkBytes / 2 {
            let chunk = WeightChunk(capacity: rounded)
            return (chunk.base, chunk)
        }
        lock.lock()
        defer { lock.unlock() }
        let chunk: WeightChunk
        if let current, used + rounded <= Self.chunkBytes {
            chunk = current
        } else {
            chunk = WeightChunk(capacity: Self.chunkBytes)
            current = chunk
            used = 0
        }
        let bytes = chunk.base + used
        used += rounded
        return (bytes, chunk)
    }
}
