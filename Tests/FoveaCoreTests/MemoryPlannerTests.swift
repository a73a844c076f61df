import XCTest
@testable import FoveaCore
import FoveaTestSupport

/// The memory planner and the executor on graphs built to hit its hazards,
/// and on 1,000 seeded random graphs, each compared with the graph
/// interpreter (no plan, no arena).
final class MemoryPlannerTests: XCTestCase {
    private func input(_ name: String, _ shape: [Int]) -> ValueInfo {
        ValueInfo(name: name, dataType: .float32, dimensions: shape.map { .known($0) })
    }

    private func output(_ name: String) -> ValueInfo {
        ValueInfo(name: name, dataType: .float32, dimensions: nil)
    }

    private func random(_ shape: [Int], seed: UInt64) -> Tensor {
        var generator = SeededGenerator(seed: seed)
        return Tensor(uncheckedShape: shape, floats: (0..<shape.elementCount).map { _ in Float.random(in: -2...2, using: &generator) })
    }

    private let pool1 = PoolAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])

    /// Plans `graph` with and without reuse; checks the plan, and every output
    /// (bitwise) against the interpreter; returns the plan.
    @discardableResult
    private func check(_ graph: Graph, _ feeds: [String: Tensor], backends: [any Backend] = [],
                       options: MemoryPlan.Options = MemoryPlan.Options(), threads: Int = 1,
                       file: StaticString = #filePath, line: UInt = #line) throws -> ExecutionPlan {
        let expected = try GraphInterpreter.evaluate(graph, feeds)
        let plan = try ExecutionPlan(graph: graph, inputShapes: feeds.mapValues(\.shape), backends: backends,
                                     memoryOptions: options, maxThreads: threads)
        if let conflict = MemoryPlanCheck.firstConflict(plan.memory) {
            XCTFail("\(graph.name): \(conflict)", file: file, line: line)
        }
        let context = RunContext(threads: threads)
        let outputs = try plan.run(feeds, context: context)
        let all = try plan.runKeepingAllValues(feeds, context: context)
        for info in graph.outputs {
            guard let actual = outputs[info.name], let wanted = expected[info.name], let kept = all[info.name] else {
                XCTFail("\(graph.name): output \(info.name) missing", file: file, line: line)
                continue
            }
            XCTAssertTrue(sameBits(actual, wanted), "\(graph.name): output \(info.name) differs from the interpreter", file: file, line: line)
            XCTAssertTrue(sameBits(kept, actual), "\(graph.name): output \(info.name) differs without reuse", file: file, line: line)
        }
        for (name, wanted) in expected where graph.initializers[name] == nil {
            guard let kept = all[name] else {
                XCTFail("\(graph.name): value \(name) not kept", file: file, line: line)
                continue
            }
            XCTAssertTrue(sameBits(kept, wanted), "\(graph.name): kept value \(name) differs", file: file, line: line)
        }
        // The inputs are never written.
        for (name, tensor) in feeds { XCTAssertTrue(sameBits(tensor, feeds[name]!)) }
        return plan
    }

    private func action(_ plan: ExecutionPlan, _ node: String) -> String {
        guard let index = plan.graph.nodes.firstIndex(where: { $0.name == node }) else { return "?" }
        return plan.memory.actionDescription(index)
    }

    private func placement(_ plan: ExecutionPlan, _ value: String) -> String? {
        plan.memory.values.first { $0.name == value }?.placement
    }

    func testConcatProducersWriteIntoTheirSlices() throws {
        let graph = Graph(name: "concat", inputs: [input("x", [1, 2, 3, 3])], outputs: [output("y")], nodes: [
            Node(name: "a", op: .relu, inputs: ["x"], outputs: ["a"]),
            Node(name: "b", op: .maxPool(pool1), inputs: ["x"], outputs: ["b"]),
            Node(name: "cat", op: .concat(axis: 1), inputs: ["a", "b"], outputs: ["y"]),
        ])
        let plan = try check(graph, ["x": random([1, 2, 3, 3], seed: 1)])
        XCTAssertEqual(action(plan, "cat"), "elided concat")
        XCTAssertEqual(placement(plan, "a"), "slice of y")
        XCTAssertEqual(placement(plan, "b"), "slice of y")
        let off = try check(graph, ["x": random([1, 2, 3, 3], seed: 1)], options: .init(elideConcat: false))
        XCTAssertEqual(action(off, "cat"), "run")
    }

    func testValueConcatenatedTwiceIsCopied() throws {
        let graph = Graph(name: "twice", inputs: [input("x", [2, 2, 2, 2])], outputs: [output("y")], nodes: [
            Node(name: "a", op: .relu, inputs: ["x"], outputs: ["a"]),
            Node(name: "cat", op: .concat(axis: 1), inputs: ["a", "a"], outputs: ["y"]),
        ])
        let plan = try check(graph, ["x": random([2, 2, 2, 2], seed: 2)])
        XCTAssertEqual(action(plan, "cat"), "run")
    }

    func testGraphInputInsideConcatIsCopied() throws {
        let graph = Graph(name: "input-in-concat", inputs: [input("x", [2, 3, 2, 2])], outputs: [output("y")], nodes: [
            Node(name: "a", op: .maxPool(pool1), inputs: ["x"], outputs: ["a"]),
            Node(name: "cat", op: .concat(axis: 1), inputs: ["x", "a"], outputs: ["y"]),
        ])
        let plan = try check(graph, ["x": random([2, 3, 2, 2], seed: 3)])
        XCTAssertEqual(action(plan, "cat"), "elided concat (copies 1)")
        XCTAssertEqual(placement(plan, "a"), "slice of y")
    }

    func testConcatInputWithAnotherReaderIsCopied() throws {
        // `a` is read by the Concat and by an Add: it is copied, `b` is placed.
        let graph = Graph(name: "other-reader", inputs: [input("x", [1, 2, 2, 2])], outputs: [output("y"), output("z")], nodes: [
            Node(name: "a", op: .relu, inputs: ["x"], outputs: ["a"]),
            Node(name: "b", op: .clip(min: 0, max: 1), inputs: ["x"], outputs: ["b"]),
            Node(name: "cat", op: .concat(axis: 1), inputs: ["a", "b"], outputs: ["y"]),
            Node(name: "z", op: .mul, inputs: ["a", "x"], outputs: ["z"]),
        ])
        let plan = try check(graph, ["x": random([1, 2, 2, 2], seed: 4)])
        XCTAssertEqual(action(plan, "cat"), "elided concat (copies 1)")
        XCTAssertEqual(placement(plan, "b"), "slice of y")
        XCTAssertEqual(placement(plan, "a"), "own")
    }

    func testConcatOutputReadByTwoNodesAndNestedConcats() throws {
        let graph = Graph(name: "nested", inputs: [input("x", [2, 1, 3, 3])], outputs: [output("p"), output("q")], nodes: [
            Node(name: "a", op: .relu, inputs: ["x"], outputs: ["a"]),
            Node(name: "b", op: .maxPool(pool1), inputs: ["x"], outputs: ["b"]),
            Node(name: "inner", op: .concat(axis: 1), inputs: ["a", "b"], outputs: ["c"]),
            Node(name: "d", op: .maxPool(pool1), inputs: ["x"], outputs: ["d"]),
            Node(name: "outer", op: .concat(axis: 1), inputs: ["c", "d"], outputs: ["e"]),
            Node(name: "p", op: .relu, inputs: ["e"], outputs: ["p"]),
            Node(name: "q", op: .clip(min: -1, max: 1), inputs: ["e"], outputs: ["q"]),
        ])
        let plan = try check(graph, ["x": random([2, 1, 3, 3], seed: 5)])
        XCTAssertEqual(action(plan, "inner"), "elided concat")
        // The inner Concat's output is not written into the outer one's slice (nested).
        XCTAssertEqual(action(plan, "outer"), "elided concat (copies 1)")
    }

    func testIntermediateThatIsAlsoAGraphOutput() throws {
        let graph = Graph(name: "intermediate-output", inputs: [input("x", [1, 2, 2, 2])], outputs: [output("a"), output("y")], nodes: [
            Node(name: "a", op: .relu, inputs: ["x"], outputs: ["a"]),
            Node(name: "y", op: .clip(min: 0, max: 0.5), inputs: ["a"], outputs: ["y"]),
            Node(name: "cat", op: .concat(axis: 1), inputs: ["a", "y"], outputs: ["z"]),
        ])
        // `a` is a graph output: not overwritten in place, not placed in a slice.
        var withOutput = graph
        withOutput.outputs.append(output("z"))
        let plan = try check(withOutput, ["x": random([1, 2, 2, 2], seed: 6)])
        XCTAssertEqual(placement(plan, "y"), "own")
        XCTAssertEqual(placement(plan, "a"), "own")
    }

    func testElementwiseOpWhoseInputIsReadLater() throws {
        let graph = Graph(name: "read-later", inputs: [input("x", [1, 4, 2, 2])], outputs: [output("z")], nodes: [
            Node(name: "a", op: .maxPool(pool1), inputs: ["x"], outputs: ["a"]),
            Node(name: "b", op: .relu, inputs: ["a"], outputs: ["b"]),
            Node(name: "c", op: .clip(min: -0.1, max: 0.1), inputs: ["b"], outputs: ["c"]),
            Node(name: "z", op: .add, inputs: ["a", "c"], outputs: ["z"]),
        ])
        let plan = try check(graph, ["x": random([1, 4, 2, 2], seed: 7)])
        // `a` is read again by z: b must not overwrite it; c may overwrite b.
        XCTAssertEqual(placement(plan, "b"), "own")
        XCTAssertEqual(placement(plan, "c"), "in place of b")
    }

    func testGraphInputIsNeverOverwritten() throws {
        let graph = Graph(name: "input", inputs: [input("x", [3, 2])], outputs: [output("y")], nodes: [
            Node(name: "y", op: .relu, inputs: ["x"], outputs: ["y"]),
        ])
        let x = random([3, 2], seed: 8)
        let copy = x
        let plan = try check(graph, ["x": x])
        XCTAssertEqual(placement(plan, "y"), "own")
        XCTAssertTrue(sameBits(x, copy))
    }

    func testViewsShareBytes() throws {
        let graph = Graph(name: "views", inputs: [input("x", [2, 3, 2, 2])], outputs: [output("y")], nodes: [
            Node(name: "a", op: .relu, inputs: ["x"], outputs: ["a"]),
            Node(name: "f", op: .flatten(axis: 1), inputs: ["a"], outputs: ["f"]),
            Node(name: "u", op: .unsqueeze(axes: [0]), inputs: ["f"], outputs: ["u"]),
            Node(name: "s", op: .squeeze(axes: [0]), inputs: ["u"], outputs: ["s"]),
            Node(name: "y", op: .clip(min: 0, max: 1), inputs: ["s"], outputs: ["y"]),
        ])
        let plan = try check(graph, ["x": random([2, 3, 2, 2], seed: 9)])
        XCTAssertEqual(action(plan, "f"), "view")
        XCTAssertEqual(placement(plan, "s"), "view of u")
        XCTAssertEqual(placement(plan, "y"), "in place of s")
    }

    func testViewOfAGraphInputIsAGraphOutput() throws {
        let graph = Graph(name: "view-output", inputs: [input("x", [2, 3])], outputs: [output("y")], nodes: [
            Node(name: "y", op: .flatten(axis: 0), inputs: ["x"], outputs: ["y"]),
        ])
        try check(graph, ["x": random([2, 3], seed: 10)])
    }

    /// 1,000 seeded random graphs, at 1 and 2 threads, with and without elision.
    func testRandomGraphs() throws {
        var ratios: [Double] = []
        for seed in 0..<1000 {
            let (graph, feeds) = RandomGraphs.make(seed: UInt64(seed))
            let options = MemoryPlan.Options(reuseMemory: true, elideConcat: seed % 5 != 0)
            let plan = try check(graph, feeds, options: options, threads: 1 + seed % 2)
            ratios.append(MemoryPlanCheck.ratio(plan.memory))
        }
        ratios.sort()
        print("random graphs: arena/lower bound median \(ratios[ratios.count / 2]), worst \(ratios.last!)")
        XCTAssertLessThanOrEqual(ratios[ratios.count / 2], 1.05)
    }

    /// A chain of five steps whose values could each reuse the bytes of the
    /// value two steps back: one thread reuses them at once; two threads wait
    /// ``MemoryPlanner/multiThreadReuseDelay`` steps past the last read.
    func testTwoThreadsDelayTheReuseOfFreshlyReadBytes() throws {
        let chain = ["a", "b", "c", "d", "e", "y"]
        var nodes: [Node] = []
        var previous = "x"
        for name in chain {
            nodes.append(Node(name: name, op: .maxPool(pool1), inputs: [previous], outputs: [name]))
            previous = name
        }
        let graph = Graph(name: "chain", inputs: [input("x", [1, 8, 4, 4])], outputs: [output("y")], nodes: nodes)
        let feeds = ["x": random([1, 8, 4, 4], seed: 11)]
        let delay = MemoryPlanner.multiThreadReuseDelay
        XCTAssertGreaterThan(delay, 0)

        let one = try check(graph, feeds, threads: 1)
        XCTAssertEqual(offset(one, "c"), offset(one, "a"), "one thread: c takes a's bytes as soon as b has read them")
        XCTAssertEqual(one.memory.arenaBytes, 2 * 8 * 16 * 4)

        let two = try check(graph, feeds, threads: 2)
        XCTAssertNil(firstEarlyReuse(two.memory, delay: delay))
        XCTAssertNotEqual(offset(two, "c"), offset(two, "a"))
        XCTAssertEqual(two.memory.arenaBytes, (2 + delay) * 8 * 16 * 4)
    }

    /// The delay holds on random graphs at two threads.
    func testRandomGraphsAtTwoThreadsDelayReuse() throws {
        for seed in 0..<200 {
            let (graph, feeds) = RandomGraphs.make(seed: UInt64(seed))
            let plan = try check(graph, feeds, threads: 2)
            if let early = firstEarlyReuse(plan.memory, delay: MemoryPlanner.multiThreadReuseDelay) {
                XCTFail("seed \(seed): \(early)")
            }
        }
    }

    private func offset(_ plan: ExecutionPlan, _ value: String) -> Int? {
        plan.memory.values.first { $0.name == value }?.offset
    }

    /// Two values of different buffers (both no larger than the delay's size
    /// limit) that share a byte, the second written within `delay` steps of
    /// the first's last read.
    private func firstEarlyReuse(_ memory: MemoryPlan, delay: Int) -> String? {
        let small = memory.values.filter { memory.buffers[$0.buffer].bytes <= MemoryPlanner.reuseDelayMaxBytes }
        for a in small {
            for b in small where a.buffer != b.buffer && a.lastStep < b.firstStep && b.firstStep - a.lastStep <= delay {
                if a.offset < b.offset + b.bytes && b.offset < a.offset + a.bytes {
                    return "\(b.name) (written at step \(b.firstStep)) reuses \(a.name)'s bytes (last read at step \(a.lastStep))"
                }
            }
        }
        return nil
    }

    func testSixteenConcurrentRunsMatchSequentialOnes() throws {
        let (graph, _) = RandomGraphs.make(seed: 77)
        let plan = try ExecutionPlan(graph: graph, inputShapes: [:], maxThreads: 2)
        let feedsList = (0..<16).map { seed -> [String: Tensor] in
            var feeds: [String: Tensor] = [:]
            for info in graph.inputs { feeds[info.name] = random(info.knownShape!, seed: UInt64(seed + 100)) }
            return feeds
        }
        let sequential = try feedsList.map { try plan.run($0, context: RunContext(threads: 1)) }
        let results = ResultsBox(count: 16)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            results.set(index, try? plan.run(feedsList[index], context: RunContext(threads: 1 + index % 2)))
        }
        for index in 0..<16 {
            guard let concurrent = results.get(index) else { return XCTFail("run \(index) failed") }
            for (name, tensor) in sequential[index] {
                XCTAssertTrue(sameBits(tensor, concurrent[name]!), "run \(index) output \(name)")
            }
        }
    }

    func testFeedOfTheWrongShapeIsATypedError() throws {
        let graph = Graph(name: "g", inputs: [input("x", [1, 2])], outputs: [output("y")], nodes: [
            Node(name: "y", op: .relu, inputs: ["x"], outputs: ["y"]),
        ])
        let plan = try ExecutionPlan(graph: graph)
        XCTAssertThrowsError(try plan.run(["x": Tensor(shape: [2, 2], repeating: 0)])) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .shapeMismatch)
        }
    }
}

/// Results written by concurrent runs.
private final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [[String: Tensor]?]
    init(count: Int) { values = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: [String: Tensor]?) { lock.withLock { values[index] = value } }
    func get(_ index: Int) -> [String: Tensor]? { lock.withLock { values[index] } }
}

import Foundation
