import FoveaCore
import XCTest
import CMallocCounter
import FoveaTestSupport
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// The memory planner on real models: no overlap, close to the lower bound,
/// the same bits with and without reuse on every backend, and no allocation
/// in a steady-state run.
final class ArenaModelTests: XCTestCase {
    private let modelFiles = ["squeezenet1.1.onnx", "squeezenet1.0.onnx", "coreml/SqueezeNet11.mlmodel",
                              "coreml/TinyMobileNetV2.mlmodel", "coreml/TinyResNet.mlmodel", "coreml/TinyOps.mlmodel",
                              "coreml/TinyMobileNetV2.onnx", "coreml/TinyResNet.onnx"]

    private func randomFeeds(_ plan: ExecutionPlan, seed: UInt64) -> [String: Tensor] {
        var generator = SeededGenerator(seed: seed)
        var feeds: [String: Tensor] = [:]
        for (name, type) in plan.inputTypes {
            feeds[name] = try! Tensor(shape: type.shape, floats: (0..<type.shape.elementCount).map { _ in Float.random(in: -1...1, using: &generator) })
        }
        return feeds
    }

    /// Every model and backend, batch 1 and 3 where the model allows it:
    /// the plan never overlaps two live buffers.
    func testRealModelsPlanWithoutOverlap() throws {
        for file in modelFiles {
            for backend in ["reference", "simd"] {
                // The Core ML models and the tiny ONNX twins reshape to a fixed batch of 1.
                for batch in file.hasPrefix("squeezenet") ? [1, 3] : [1] {
                    let plan = try plan(file, backend: backend, batch: batch)
                    XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory), "\(file) \(backend) batch \(batch)")
                }
            }
        }
    }

    /// The same bits with and without memory reuse, and on a recycled arena.
    /// (The reference backend is slow in debug builds: only the tiny models run on it.)
    func testRealModelsRunBitIdenticalWithoutReuse() throws {
        let cases: [(file: String, backend: String, batch: Int)] = [
            ("squeezenet1.1.onnx", "simd", 1), ("squeezenet1.1.onnx", "simd", 2), ("squeezenet1.0.onnx", "simd", 1),
            ("coreml/TinyMobileNetV2.mlmodel", "simd", 1), ("coreml/TinyResNet.mlmodel", "simd", 1),
            ("coreml/TinyOps.mlmodel", "simd", 1), ("coreml/TinyResNet.onnx", "reference", 1),
            ("coreml/TinyMobileNetV2.onnx", "reference", 1), ("coreml/TinyOps.mlmodel", "reference", 1),
        ]
        for (file, backend, batch) in cases {
            let plan = try plan(file, backend: backend, batch: batch)
            let feeds = randomFeeds(plan, seed: 7)
            let context = RunContext(threads: 2)
            let reused = try plan.run(feeds, context: context)
            let kept = try plan.runKeepingAllValues(feeds, context: context)
            let again = try plan.run(feeds, context: context)
            for (name, tensor) in reused {
                XCTAssertTrue(sameBits(tensor, kept[name]!), "\(file) \(backend) batch \(batch): \(name) differs without reuse")
                XCTAssertTrue(sameBits(tensor, again[name]!), "\(file) \(backend) batch \(batch): \(name) differs on a rerun")
            }
        }
    }

    private func plan(_ file: String, backend: String, batch: Int) throws -> ExecutionPlan {
        let model = try Model(contentsOfFile: TestData.model(file), configuration: ModelConfiguration(backends: [backend], threads: 2))
        var shapes: [String: [Int]] = [:]
        for input in model.graph.inputs { shapes[input.name] = [batch] + (input.knownShape ?? []).dropFirst() }
        return try model.plan(inputShapes: shapes)
    }

    func testSqueezeNet11ArenaIsNearTheLowerBound() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"), configuration: ModelConfiguration(backends: ["simd"], threads: 2))
        let memory = try model.plan().memory
        XCTAssertLessThanOrEqual(Double(memory.arenaBytes), 1.05 * Double(memory.lowerBoundBytes))
        XCTAssertLessThanOrEqual(memory.arenaBytes, 4_200_000)
        XCTAssertLessThan(memory.arenaBytes, memory.naiveBytes / 3)
        // Every fire module's Concat is elided: its expand convolutions write into its halves.
        let plan = try model.plan()
        for (index, node) in plan.graph.nodes.enumerated() where node.op.typeName == "Concat" {
            XCTAssertEqual(plan.memory.actionDescription(index), "elided concat", node.name)
        }
        // Flatten/Reshape after the classifier are views.
        for (index, node) in plan.graph.nodes.enumerated() where node.op.isView {
            XCTAssertEqual(plan.memory.actionDescription(index), "view", node.name)
        }
    }

    func testPlannerOnEveryConformanceModel() throws {
        let runner = ConformanceRunner()
        let manifest = try ConformanceManifest.fovea()
        var ratios: [Double] = []
        for name in manifest.listed {
            let (model, feeds, _) = try runner.load(test: name)
            let plan = try model.plan(inputShapes: feeds.mapValues(\.shape))
            XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory), name)
            let outputs = try plan.run(feeds)
            let kept = try plan.runKeepingAllValues(feeds)
            for (output, tensor) in outputs {
                XCTAssertTrue(sameBits(tensor, kept[output]!), "\(name): \(output) differs without reuse")
            }
            ratios.append(MemoryPlanCheck.ratio(plan.memory))
        }
        ratios.sort()
        print("conformance models: arena/lower bound median \(ratios[ratios.count / 2]), worst \(ratios.last ?? 1) over \(ratios.count)")
    }

    /// After warm-up, a run of SqueezeNet 1.1 on the SIMD backend allocates
    /// only its result (the output tensor and the dictionary holding it).
    func testSteadyStateRunAllocatesOnlyItsOutputs() throws {
        try XCTSkipUnless(fovea_malloc_counter_available() != 0, "no malloc counter under a sanitizer")
        #if DEBUG
        // Unoptimized standard-library code allocates (closure contexts,
        // iterators); scripts/ci/test.sh runs this test again in a release build.
        try XCTSkipIf(true, "counts allocations in release builds only")
        #endif
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"), configuration: ModelConfiguration(backends: ["simd"], threads: 1))
        let plan = try model.plan()
        let feeds = randomFeeds(plan, seed: 3)
        let context = RunContext(threads: 1)
        for _ in 0..<3 { _ = try plan.run(feeds, context: context) }
        // The counter sees allocations (so a zero below would mean something).
        fovea_malloc_counter_start()
        let probe = [Int](repeating: 1, count: 1000 + feeds.count)
        XCTAssertGreaterThanOrEqual(fovea_malloc_counter_stop(), 1)
        XCTAssertEqual(probe.count, 1000 + feeds.count)

        let runs = 10
        fovea_malloc_counter_start()
        for _ in 0..<runs { _ = try plan.run(feeds, context: context) }
        let count = fovea_malloc_counter_stop()
        print("steady-state allocations per run of SqueezeNet 1.1 (simd, 1 thread): \(Double(count) / Double(runs))")
        XCTAssertLessThanOrEqual(count, 4 * runs, "\(count) allocations in \(runs) runs")

        // With 2 threads, each parallel step also allocates its worker-pool job (reported, not asserted).
        let two = RunContext(threads: 2)
        _ = try plan.run(feeds, context: two)
        fovea_malloc_counter_start()
        for _ in 0..<runs { _ = try plan.run(feeds, context: two) }
        print("steady-state allocations per run of SqueezeNet 1.1 (simd, 2 threads): \(Double(fovea_malloc_counter_stop()) / Double(runs))")
    }
}
