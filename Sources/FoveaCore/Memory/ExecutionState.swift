/// The memory of one run of an ``ExecutionPlan``: one arena, and every step's
/// views into it, resolved once when the state is made.
///
/// A plan is shared by every run; a state belongs to one run at a time
/// (``ArenaPool`` hands them out), so concurrent runs never share bytes.
/// Only graph inputs change from run to run: their pointers are patched into
/// the views that read them.
final class ExecutionState: @unchecked Sendable {
    let arena: UnsafeMutableRawPointer
    /// Per step: input views (graph inputs patched per run), output views, workspace.
    var inputs: [[TensorView?]]
    let outputs: [[TensorView]]
    let workspaces: [UnsafeMutableRawPointer?]
    /// Per elided Concat step: (input index, destination view) of the inputs it copies.
    let concatCopies: [[(input: Int, destination: TensorView)]]
    /// Where graph inputs are read: (step, input index, graph input, byte offset).
    private let feedReads: [(step: Int, input: Int, feed: Int, byteOffset: Int)]
    /// Each arena buffer's offset, by index in ``MemoryPlan/buffers``.
    private let bufferOffsets: [Int]
    private let constants: ConstantBlock

    init(memory: MemoryPlan, constants: ConstantBlock) {
        let arena = HugePages.allocate(byteCount: Swift.max(ArenaPlanner.alignment, memory.arenaBytes),
                                       alignment: ArenaPlanner.alignment)
        let bufferOffsets = memory.buffers.map(\.offset)
        self.arena = arena
        self.bufferOffsets = bufferOffsets
        self.constants = constants
        func view(_ placement: MemoryPlan.Placement) -> TensorView {
            Self.view(placement, arena: arena, bufferOffsets: bufferOffsets, constants: constants, feeds: nil)
        }
        var feedReads: [(Int, Int, Int, Int)] = []
        inputs = memory.inputPlacements.enumerated().map { step, placements in
            placements.enumerated().map { index, placement in
                guard let placement else { return nil }
                if case .feed(let feed) = placement.root { feedReads.append((step, index, feed, placement.byteOffset)) }
                return view(placement)
            }
        }
        self.feedReads = feedReads
        outputs = memory.outputPlacements.map { $0.map(view) }
        workspaces = memory.workspaces.map { workspace in
            workspace.map { arena + bufferOffsets[$0.buffer] }
        }
        concatCopies = memory.actions.map { action in
            guard case .concat(let copies) = action else { return [] }
            return copies.map { ($0.input, view($0.destination)) }
        }
    }

    /// The view of a value placed at `placement` in this run; a graph input is
    /// read from `feeds`.
    func view(_ placement: MemoryPlan.Placement, feeds: UnsafeBufferPointer<UnsafeRawPointer>) -> TensorView {
        Self.view(placement, arena: arena, bufferOffsets: bufferOffsets, constants: constants, feeds: feeds)
    }

    /// Without `feeds`, a graph input's view points at a placeholder that ``bind(feeds:)`` patches.
    private static func view(_ placement: MemoryPlan.Placement, arena: UnsafeMutableRawPointer, bufferOffsets: [Int],
                             constants: ConstantBlock, feeds: UnsafeBufferPointer<UnsafeRawPointer>?) -> TensorView {
        let base: UnsafeMutableRawPointer
        switch placement.root {
        case .arena(let buffer): base = arena + bufferOffsets[buffer] + placement.byteOffset
        case .constant: base = constants.base + placement.byteOffset
        case .feed(let feed):
            base = feeds.map { UnsafeMutableRawPointer(mutating: $0[feed] + placement.byteOffset) } ?? constants.base
        }
        return TensorView(base: base, dataType: placement.type.dataType, shape: placement.type.shape,
                          batchStride: placement.batchStride)
    }

    deinit { HugePages.deallocate(arena) }

    /// Points every view that reads a graph input at this run's tensor.
    func bind(feeds: UnsafeBufferPointer<UnsafeRawPointer>) {
        for read in feedReads {
            inputs[read.step][read.input]?.base = UnsafeMutableRawPointer(mutating: feeds[read.feed] + read.byteOffset)
        }
    }
}

/// The plan's initializers that steps read at run time, in one aligned block
/// shared (read-only) by every run.
final class ConstantBlock: @unchecked Sendable {
    let base: UnsafeMutableRawPointer

    init(graph: Graph, offsets: [String: Int], bytes: Int) {
        base = HugePages.allocate(byteCount: Swift.max(ArenaPlanner.alignment, bytes), alignment: ArenaPlanner.alignment)
        for (name, offset) in offsets {
            guard let tensor = graph.initializers[name] else { continue }
            TensorView(base: base + offset, dataType: tensor.dataType, shape: tensor.shape).copy(from: tensor)
        }
    }

    deinit { HugePages.deallocate(base) }
}

/// Execution states checked out per run: one arena per concurrent run, never
/// a lock around a run. A state goes back to the pool when its run ends, so N
/// concurrent runs cost N arenas, and the pool keeps as many as the most runs
/// that were ever in flight at once.
final class ArenaPool: @unchecked Sendable {
    private let lock = NSLock()
    private var free: [ExecutionState] = []
    private let make: () -> ExecutionState

    init(make: @escaping () -> ExecutionState) {
        self.make = make
    }

    func withState<Result>(_ body: (ExecutionState) throws -> Result) rethrows -> Result {
        let state = lock.withLock { free.popLast() } ?? make()
        defer { lock.withLock { free.append(state) } }
        return try body(state)
    }

    /// Arenas made so far and now idle.
    var idleCount: Int { lock.withLock { free.count } }
}

import Foundation
