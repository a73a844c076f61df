import FoveaCore

/// Checks a memory plan's one promise: no two buffers alive at the same step
/// share a byte, and every value lies inside the arena.
public enum MemoryPlanCheck {
    /// A description of the first violation, or `nil` if there is none.
    public static func firstConflict(_ memory: MemoryPlan) -> String? {
        let buffers = memory.buffers
        for a in buffers.indices {
            let x = buffers[a]
            if x.offset % ArenaPlanner.alignment != 0 { return "buffer \(a) at unaligned offset \(x.offset)" }
            if x.offset + x.bytes > memory.arenaBytes { return "buffer \(a) ends past the arena" }
            for b in buffers.indices where b > a {
                let y = buffers[b]
                let together = x.firstStep <= y.lastStep && y.firstStep <= x.lastStep
                let shared = x.offset < y.offset + y.bytes && y.offset < x.offset + x.bytes
                if together && shared {
                    return "buffers \(a) \(x.contents) [\(x.firstStep)...\(x.lastStep)] and \(b) \(y.contents) [\(y.firstStep)...\(y.lastStep)] overlap in bytes"
                }
            }
        }
        for value in memory.values {
            let buffer = buffers[value.buffer]
            if value.offset < buffer.offset || value.offset + value.bytes > buffer.offset + buffer.bytes {
                return "value \(value.name) lies outside its buffer"
            }
            if value.firstStep < buffer.firstStep || value.lastStep > buffer.lastStep {
                return "value \(value.name) [\(value.firstStep)...\(value.lastStep)] outlives its buffer [\(buffer.firstStep)...\(buffer.lastStep)]"
            }
        }
        return nil
    }

    /// The arena's size over the lower bound.
    public static func ratio(_ memory: MemoryPlan) -> Double {
        memory.lowerBoundBytes == 0 ? 1 : Double(memory.arenaBytes) / Double(memory.lowerBoundBytes)
    }
}
