import FoveaCore
import XCTest
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// The planner assigns nodes by preference, falls back to the reference
/// backend and says so; a plan runs concurrently and at any thread count.
final class BackendPlanningTests: XCTestCase {
    /// A backend that runs only Relu, by calling the reference kernel, and counts its preparations.
    struct ReluOnlyBackend: Backend {
        let name: String
        func supports(_ node: NodeContext) -> Bool { node.op == .relu }
        func prepare(_ node: NodeContext) throws -> any PreparedStep { ReluStep(outputTypes: node.outputTypes) }

        struct ReluStep: PreparedStep {
            let outputTypes: [TensorType]
            var algorithm: String { "relu-only" }
            func run(_ buffers: StepBuffers, context: RunContext) throws {
                let x = try buffers.input(0, "Relu"), y = buffers.outputs[0]
                for i in 0..<x.count { y.floats[i] = x.floats[i] > 0 ? x.floats[i] : 0 }
            }
        }
    }

    private func squeezeNetGraph() throws -> Graph {
        try ModelFile.loadGraph(contentsOf: TestData.model("squeezenet1.1.onnx"))
    }

    func testForcedBackendFallsBackToReferenceAndSaysSo() throws {
        let plan = try ExecutionPlan(graph: try squeezeNetGraph(), backends: [ReluOnlyBackend(name: "relu-only")])
        let relus = plan.assignments.filter { $0.opType == "Relu" }
        XCTAssertEqual(relus.count, 26)
        XCTAssertTrue(relus.allSatisfy { $0.backend == "relu-only" && !$0.isFallback })
        let others = plan.assignments.filter { $0.opType != "Relu" }
        XCTAssertEqual(others.count, 39)
        XCTAssertTrue(others.allSatisfy { $0.backend == "reference" && $0.isFallback }, "\(others)")
    }

    func testDefaultOrderDoesNotCallTheReferenceAFallback() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        XCTAssertEqual(model.configuration.backends, nil)
        XCTAssertFalse(try model.plan().assignments.contains(where: \.isFallback))
    }

    func testFirstBackendInPreferenceOrderWins() throws {
        let plan = try ExecutionPlan(graph: try squeezeNetGraph(),
                                     backends: [ReluOnlyBackend(name: "first"), ReluOnlyBackend(name: "second")])
        XCTAssertEqual(Set(plan.assignments.filter { $0.opType == "Relu" }.map(\.backend)), ["first"])
    }

    func testUnknownBackendIsAClearError() {
        XCTAssertThrowsError(try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"),
                                       configuration: ModelConfiguration(backends: ["gpu"]))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidArgument)
            XCTAssertTrue(String(describing: error).contains("unknown backend 'gpu' (available: kernels, simd, blas, reference)"), "\(error)")
        }
    }

    func testConcurrentRunsOfOnePlanGiveIdenticalResults() throws {
        let model = try Model(contentsOfFile: TestData.model("coreml/TinyResNet.onnx"))
        let input = try XCTUnwrap(model.primaryInput)
        var generator = SeededGenerator(seed: 3)
        let inputs = try (0..<8).map { _ in
            try Tensor(shape: [1, 3, 32, 32], floats: (0..<3072).map { _ in Float.random(in: -1...1, using: &generator) })
        }
        let sequential = try inputs.map { try model.predict([input.name: $0]) }
        let results = PlanResultSlots(count: inputs.count)
        DispatchQueue.concurrentPerform(iterations: inputs.count * 2) { i in
            results.set(i % inputs.count, Result { try model.predict([input.name: inputs[i % inputs.count]]) })
        }
        for (index, expected) in sequential.enumerated() {
            XCTAssertEqual(try results.get(index)?.get(), expected)
        }
    }

    func testThreadCountCanChangeBetweenRuns() throws {
        let graph = try ModelFile.loadGraph(contentsOf: TestData.model("coreml/TinyResNet.onnx"))
        let plan = try ExecutionPlan(graph: graph, backends: BackendRegistry.standard.backends)
        let input = try Tensor(shape: [1, 3, 32, 32], floats: (0..<3072).map { Float($0 % 17) / 17 - 0.5 })
        let one = try plan.run(["input": input], context: RunContext(threads: 1))
        let two = try plan.run(["input": input], context: RunContext(threads: 2))
        let three = try plan.run(["input": input], context: RunContext(threads: 3))
        XCTAssertEqual(one, two)
        XCTAssertEqual(one, three)
    }

    func testParityFlagsABackendBeyondItsTolerance() throws {
        /// Returns slightly wrong Relu results.
        struct SloppyBackend: Backend {
            var name: String { "sloppy" }
            func supports(_ node: NodeContext) -> Bool { node.op == .relu }
            func prepare(_ node: NodeContext) throws -> any PreparedStep { Step() }
            struct Step: PreparedStep {
                var algorithm: String { "sloppy" }
                func run(_ buffers: StepBuffers, context: RunContext) throws {
                    let x = try buffers.input(0, "Relu"), y = buffers.outputs[0]
                    for i in 0..<x.count { y.floats[i] = max(0, x.floats[i]) * 1.001 }
                }
            }
        }
        // Unfused, so that the Relu nodes stay nodes (fused, every one rides in a Conv).
        var configuration = ModelConfiguration()
        configuration.optimizations = OptimizationOptions(fuseActivations: false)
        let model = try Model(contentsOfFile: TestData.model("coreml/TinyResNet.onnx"), configuration: configuration)
        let input = try Tensor(shape: [1, 3, 32, 32], floats: (0..<3072).map { Float($0 % 13) / 13 - 0.5 })
        let reports = try ParityCheck(model: model).run(inputs: ["input": input],
                                                         backends: [SloppyBackend(), ReluOnlyBackend(name: "exact")])
        XCTAssertFalse(reports[0].passed)
        XCTAssertGreaterThan(reports[0].maxRelativeError, 5e-4)
        XCTAssertTrue(reports[1].passed)
        XCTAssertEqual(reports[1].maxAbsoluteError, 0)
        XCTAssertFalse(reports[1].fallbacks.isEmpty)
    }
}

/// Thread-safe slots for results written from concurrent work.
final class PlanResultSlots: @unchecked Sendable {
    // @unchecked: every access to `slots` holds `lock`.
    private let lock = NSLock()
    private var slots: [Result<[String: Tensor], Error>?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ value: Result<[String: Tensor], Error>) { lock.withLock { slots[index] = value } }
    func get(_ index: Int) -> Result<[String: Tensor], Error>? { lock.withLock { slots[index] } }
}
