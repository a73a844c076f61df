import Foundation
import FoveaCore
import XCTest
@_spi(Internals) @testable import Fovea

/// Task cancellation stops a classification between layers with
/// `CancellationError`, and `perform` is asynchronous even when called from
/// the main actor (as top-level code in `main.swift` is).
final class CancellationTests: XCTestCase {
    /// A Relu backend whose steps record their node's name, and whose step for
    /// ``Gate/blockingNode`` waits, once it has recorded itself, until the test opens the gate.
    struct GatedRelu: Backend {
        let name = "gated-relu"
        let gate: Gate
        func supports(_ node: NodeContext) -> Bool {
            if case .relu = node.op { return node.inputType(0)?.dataType == .float32 }
            return false
        }
        func prepare(_ node: NodeContext) throws -> any PreparedStep { Step(node: node.node.name, gate: gate) }
        struct Step: PreparedStep {
            let node: String
            let gate: Gate
            var algorithm: String { "gated" }
            func run(_ buffers: StepBuffers, context: RunContext) throws {
                let input: TensorView = try buffers.input(0, "Relu")
                let output: TensorView = buffers.outputs[0]
                for i in 0..<input.count { output.floats[i] = max(0, input.floats[i]) }
                gate.ran(node)
            }
        }
    }

    /// Which steps ran, and a gate that holds one of them until it is opened.
    final class Gate: @unchecked Sendable {
        // @unchecked: `names` and `entered` are read and written under `lock`.
        let blockingNode: String
        private let lock = NSLock()
        private var names: [String] = []
        private var entered = false
        private let opened = DispatchSemaphore(value: 0)

        init(blockingNode: String) { self.blockingNode = blockingNode }

        func ran(_ node: String) {
            lock.withLock {
                names.append(node)
                if node == blockingNode { entered = true }
            }
            if node == blockingNode { opened.wait() }
        }
        var ranNodes: [String] { lock.withLock { names } }
        var isHolding: Bool { lock.withLock { entered } }
        func open() { opened.signal() }
    }

    /// `image` 1×3×2×2 → six ReLUs in a row → flatten → `scores` 1×12: one
    /// step per layer, each on the gated backend.
    static func model(gate: Gate) throws -> Model {
        let relus = (0..<6).map { Node(name: "relu\($0)", op: .relu, inputs: [$0 == 0 ? "image" : "r\($0 - 1)"], outputs: ["r\($0)"]) }
        let graph = Graph(
            name: "relus",
            inputs: [ValueInfo(name: "image", dataType: .float32, dimensions: [.known(1), .known(3), .known(2), .known(2)])],
            outputs: [ValueInfo(name: "scores", dataType: .float32, dimensions: [.known(1), .known(12)])],
            nodes: relus + [Node(name: "flatten", op: .flatten(axis: 1), inputs: ["r5"], outputs: ["scores"])],
            initializers: [:])
        let registry = BackendRegistry([GatedRelu(gate: gate)] + BackendRegistry.standard.backends)
        let configuration = ModelConfiguration(backends: ["gated-relu", "reference"], threads: 1, registry: registry,
                                               optimizations: .none)
        return try Model(graph: graph, configuration: configuration)
    }

    func handler() throws -> ImageRequestHandler {
        ImageRequestHandler(image: try RGBImage(width: 2, height: 2, red: 200, green: 10, blue: 10))
    }

    func testACancelledClassificationStopsAfterTheLayerItIsInAndThrowsCancellationError() async throws {
        let gate = Gate(blockingNode: "relu1")
        let request = try ClassificationRequest(model: try Self.model(gate: gate))
        let handler = try handler()
        let task = Task { try await handler.perform(request) }
        while !gate.isHolding { try await Task.sleep(for: .milliseconds(1)) }
        task.cancel()
        gate.open()
        do {
            let observations = try await task.value
            XCTFail("a cancelled classification returned \(observations.count) observations")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        // The layer running when the task was cancelled finished; no later one started.
        XCTAssertEqual(gate.ranNodes, ["relu0", "relu1"])
        XCTAssertNil(request.results)
    }

    func testAClassificationInATaskCancelledBeforehandRunsNoLayer() async throws {
        let gate = Gate(blockingNode: "none")
        let request = try ClassificationRequest(model: try Self.model(gate: gate))
        let handler = try handler()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await handler.perform(request)
        }
        do {
            _ = try await task.value
            XCTFail("a cancelled classification returned")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(gate.ranNodes, [])
    }

    func testPerformAndWaitInACancelledTaskThrowsCancellationErrorToo() async throws {
        let gate = Gate(blockingNode: "none")
        let request = try ClassificationRequest(model: try Self.model(gate: gate))
        let handler = try handler()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try handler.performAndWait(request)
        }
        do {
            _ = try await task.value
            XCTFail("a cancelled classification returned")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(gate.ranNodes, [])
    }

    func testAnUncancelledClassificationRunsEveryLayer() async throws {
        let gate = Gate(blockingNode: "none")
        let request = try ClassificationRequest(model: try Self.model(gate: gate))
        let observations = try await handler().perform(request)
        XCTAssertEqual(observations.count, 12)
        XCTAssertEqual(gate.ranNodes, (0..<6).map { "relu\($0)" })
    }

    /// Top-level code in `main.swift` runs on the main actor; there,
    /// `try await handler.perform(request)` must not run on the main thread
    /// (it once resolved to a synchronous overload of the same name).
    @MainActor
    func testPerformFromTheMainActorRunsOffTheMainThread() async throws {
        XCTAssertTrue(Thread.isMainThread, "the test itself should run on the main thread")
        let onMain = LockedFlag()
        let request = try ClassificationRequest(model: try Self.model(gate: Gate(blockingNode: "none"))) { _, _ in
            onMain.set(Thread.isMainThread)
        }
        _ = try await handler().perform(request)
        XCTAssertEqual(onMain.value, false)
    }

    final class LockedFlag: @unchecked Sendable {
        // @unchecked: `stored` is read and written under `lock`.
        private let lock = NSLock()
        private var stored: Bool?
        func set(_ value: Bool) { lock.withLock { stored = value } }
        var value: Bool? { lock.withLock { stored } }
    }
}
