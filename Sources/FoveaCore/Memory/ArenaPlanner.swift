/// Places buffers with known lifetimes in one arena so that no two buffers
/// alive at the same step share a byte, with as small a peak as it can find.
///
/// The method is greedy by size with best fit, as TFLite's `arena_planner`
/// and XNNPACK's memory planner do: take the buffers largest first; give each
/// the smallest gap between the buffers already placed whose lifetimes
/// overlap its own, or the end of the highest of them when no gap fits.
/// Offsets are multiples of ``alignment``.
public enum ArenaPlanner {
    /// Every offset and size is a multiple of this (a cache line; also what AVX-512 loads like).
    public static let alignment = 64

    /// A buffer to place: its size and the steps at which it is alive (inclusive).
    public struct Request: Sendable, Equatable {
        /// The buffer's size in bytes (rounded up to ``ArenaPlanner/alignment`` when placed).
        public var bytes: Int
        /// The first step at which the buffer is alive.
        public var firstStep: Int
        /// The last step at which the buffer is alive (inclusive).
        public var lastStep: Int

        /// Requests `bytes` bytes alive from `firstStep` through `lastStep`.
        public init(bytes: Int, firstStep: Int, lastStep: Int) {
            self.bytes = bytes
            self.firstStep = firstStep
            self.lastStep = lastStep
        }

        func overlaps(_ other: Request) -> Bool {
            firstStep <= other.lastStep && other.firstStep <= lastStep
        }
    }

    /// The placement of every request, in request order.
    public struct Layout: Sendable, Equatable {
        /// Each request's byte offset in the arena, in request order.
        public var offsets: [Int]
        /// The arena's size: the end of the highest buffer.
        public var arenaBytes: Int
        /// The largest sum of (aligned) bytes alive at one step: no placement can use less.
        public var lowerBoundBytes: Int
    }

    /// `bytes` rounded up to ``alignment`` (at least one line, so every buffer has a valid address).
    public static func aligned(_ bytes: Int) -> Int {
        Swift.max(alignment, (bytes + alignment - 1) / alignment * alignment)
    }

    /// Places `requests` (sizes are aligned first).
    public static func place(_ requests: [Request]) -> Layout {
        let sized = requests.map { Request(bytes: aligned($0.bytes), firstStep: $0.firstStep, lastStep: $0.lastStep) }
        // Largest first; ties by earlier first step, then by index, so the layout is deterministic.
        let order = sized.indices.sorted { a, b in
            if sized[a].bytes != sized[b].bytes { return sized[a].bytes > sized[b].bytes }
            if sized[a].firstStep != sized[b].firstStep { return sized[a].firstStep < sized[b].firstStep }
            return a < b
        }
        var offsets = [Int](repeating: 0, count: sized.count)
        var placed: [Int] = []  // request indices, kept sorted by offset
        var arenaBytes = 0
        for index in order {
            let request = sized[index]
            var bestOffset: Int?
            var bestGap = Int.max
            var end = 0  // the end of the placed, overlapping buffers seen so far
            for other in placed where sized[other].overlaps(request) {
                let gap = offsets[other] - end
                if gap >= request.bytes && gap < bestGap {
                    bestGap = gap
                    bestOffset = end
                }
                end = Swift.max(end, offsets[other] + sized[other].bytes)
            }
            let offset = bestOffset ?? end
            offsets[index] = offset
            arenaBytes = Swift.max(arenaBytes, offset + request.bytes)
            let position = placed.firstIndex { offsets[$0] > offset } ?? placed.endIndex
            placed.insert(index, at: position)
        }
        return Layout(offsets: offsets, arenaBytes: arenaBytes, lowerBoundBytes: lowerBound(sized))
    }

    /// The largest sum of bytes alive at one step.
    static func lowerBound(_ requests: [Request]) -> Int {
        guard let last = requests.map(\.lastStep).max(), let first = requests.map(\.firstStep).min() else { return 0 }
        // A sweep over step boundaries: +bytes where a buffer starts, -bytes after it ends.
        var delta = [Int](repeating: 0, count: last - first + 2)
        for request in requests {
            delta[request.firstStep - first] += request.bytes
            delta[request.lastStep - first + 1] -= request.bytes
        }
        var live = 0, peak = 0
        for change in delta {
            live += change
            peak = Swift.max(peak, live)
        }
        return peak
    }

    /// Whether two requests alive at one step share a byte in `layout` (for tests and checks).
    public static func firstOverlap(_ requests: [Request], _ layout: Layout) -> (Int, Int)? {
        for a in requests.indices {
            for b in requests.indices where b > a && requests[a].overlaps(requests[b]) {
                let aEnd = layout.offsets[a] + aligned(requests[a].bytes)
                let bEnd = layout.offsets[b] + aligned(requests[b].bytes)
                if layout.offsets[a] < bEnd && layout.offsets[b] < aEnd { return (a, b) }
            }
        }
        return nil
    }
}
