/// The memory of one run of an ``ExecutionPlan``: one arena, and every step's
/// views into it, resolved once when the state is made.
///
/// A plan is shared by every run; a state belongs to one run at a time
/// (``ArenaPool`` hands them out), so concurrent runs never share bytes.
/// Only graph inputs change from run to run: their pointers are patched into
/// the views that read them.
final class ExecutionState: @unchecked Sendable {
    let arena: UnsafeMutableRawPointer
    let arenaBytes: Int
    /// Per step: input views (graph inputs patched per run), output views, workspace.
    var inputs: [[TensorView?]]
    let outputs: [[TensorView]]
    let workspaces: [UnsafeMutableRawPointer?]
    /// Per elided Concat step: (input index, destination view) of the inputs it copies.
    let concatCopies: [[(input: Int, destination: TensorView)]]
    /// Where graph inputs are read: (step, input index, graph input, byte offset).
    private let feedReads: [(step: Int, input: Int, feed: Int, byteOffset: Int)]

    init(memory: MemoryPlan, constants: ConstantBlock) {
        arenaBytes = memory.arenaBytes
        arena = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(ArenaPlanner.alignment, memory.arenaBytes),
                                                 alignment: ArenaPlanner.alignment)
        let buffers = memory.buffers
        let arena = self.arena
        func view(_ placement: MemoryPlan.Placement) -> TensorView {
            let base: UnsafeMutableRawPointer
            switch placement.root {
            case .arena(let buffer): base = arena + buffers[buffer].offset + placement.byteOffset
            case .constant: base = constants.base + placement.byteOffset
            // Patched before every run.
            case .feed: base = constants.base
            }
            return TensorView(base: base, dataType: placement.type.dataType, shape: placement.type.shape,
                              batchStride: placement.batchStride)
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
            workspace.map { arena + buffers[$0.buffer].offset }
        }
        concatCopies = memory.actions.map { action in
            guard case .concat(let copies) = action else { return [] }
            return copies.map { ($0.input, view($0.destination)) }
        }
    }

    deinit { arena.deallocate() }

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
    let bytes: Int

    init(graph: Graph, offsets: [String: Int], bytes: Int) {
        self.bytes = bytes
        base = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(ArenaPlanner.alignment, bytes),
                                                alignment: ArenaPlanner.alignment)
        for (name, offset) in offsets {
            guard let tensor = graph.initializers[name] else { continue }
            TensorView(base: base + offset, dataType: tensor.dataType, shape: tensor.shape).copy(from: tensor)
        }
    }

    deinit { base.deallocate() }
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
