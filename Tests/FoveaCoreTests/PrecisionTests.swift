import XCTest
@testable import FoveaCore

/// `Precision`: its spelling, its defaults, and the planner handing the plan's
/// precision to every backend and recording each step's own.
final class PrecisionTests: XCTestCase {
    func testNamesParseInAnyCaseAndNothingElseDoes() {
        XCTAssertEqual(Precision(name: "f32"), .f32)
        XCTAssertEqual(Precision(name: "bf16"), .bf16)
        XCTAssertEqual(Precision(name: "BF16"), .bf16)
        XCTAssertEqual(Precision(name: "F32"), .f32)
        for bad in ["", "fp32", "float32", "bfloat16", "f16", "int8", " bf16", "bf16 "] {
            XCTAssertNil(Precision(name: bad), bad)
        }
        XCTAssertEqual(Precision.allCases.map(\.description), ["f32", "bf16"])
        // 8 significant bits: half a unit in the last place is 2⁻⁹ of a value's magnitude.
        XCTAssertEqual(Precision.bf16.unitRoundoff, 1.0 / 512)
        XCTAssertEqual(Precision.f32.unitRoundoff, Float.ulpOfOne / 2)
    }

    /// A backend that records the precision each node's context asked for,
    /// and prepares steps that report `stepPrecision`.
    private final class RecordingBackend: Backend, @unchecked Sendable {
        let name = "recording"
        let stepPrecision: Precision?
        private let lock = NSLock()
        private(set) var asked: [Precision] = []
        init(stepPrecision: Precision?) { self.stepPrecision = stepPrecision }
        func supports(_ node: NodeContext) -> Bool { if case .relu = node.op { true } else { false } }
        func prepare(_ node: NodeContext) throws -> any PreparedStep {
            lock.withLock { asked.append(node.precision) }
            return Relu(reported: stepPrecision)
        }
        struct Relu: PreparedStep {
            let reported: Precision?
            var algorithm: String { "relu" }
            var precision: Precision { reported ?? .f32 }
            func run(_ buffers: StepBuffers, context: RunContext) throws {
                let x = try buffers.input(0, "Relu"), y = buffers.outputs[0]
                for i in 0..<x.count { y.floats[i] = Swift.max(0, x.floats[i]) }
            }
        }
    }

    private func reluGraph() -> Graph {
        Graph(name: "relus", inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(1), .known(4)])],
              outputs: [ValueInfo(name: "z", dataType: .float32, dimensions: nil)],
              nodes: [Node(name: "a", op: .relu, inputs: ["x"], outputs: ["y"]),
                      Node(name: "b", op: .relu, inputs: ["y"], outputs: ["z"])],
              initializers: [:])
    }

    func testEverythingDefaultsToF32() throws {
        let context = NodeContext(node: Node(name: "r", op: .relu, inputs: ["x"], outputs: ["y"]),
                                  inputTypes: [TensorType(.float32, [1])], outputTypes: [TensorType(.float32, [1])], constantInputs: [:])
        XCTAssertEqual(context.precision, .f32)
        let backend = RecordingBackend(stepPrecision: nil)
        let plan = try ExecutionPlan(graph: reluGraph(), backends: [backend])
        XCTAssertEqual(plan.precision, .f32)
        XCTAssertEqual(backend.asked, [.f32, .f32])
        XCTAssertEqual(plan.assignments.map(\.precision), [.f32, .f32])
        // The reference backend's steps say f32 through the protocol's default.
        let reference = try ExecutionPlan(graph: reluGraph(), backends: [ReferenceBackend()], precision: .bf16)
        XCTAssertEqual(reference.assignments.map(\.precision), [.f32, .f32])
    }

    func testThePlanAsksEveryBackendForItsPrecisionAndRecordsWhatEachStepChose() throws {
        let declines = RecordingBackend(stepPrecision: nil)
        let plan = try ExecutionPlan(graph: reluGraph(), backends: [declines], precision: .bf16)
        XCTAssertEqual(plan.precision, .bf16)
        XCTAssertEqual(declines.asked, [.bf16, .bf16])
        XCTAssertEqual(plan.assignments.map(\.precision), [.f32, .f32], "a backend that runs f32 says so")
        let takes = RecordingBackend(stepPrecision: .bf16)
        let reduced = try ExecutionPlan(graph: reluGraph(), backends: [takes], precision: .bf16)
        XCTAssertEqual(reduced.assignments.map(\.precision), [.bf16, .bf16])
        let out = try reduced.run(["x": try Tensor(shape: [1, 4], floats: [-1, 2, -3, 4])])
        XCTAssertEqual(out["z"]?.floats, [0, 2, 0, 4])
    }
}
