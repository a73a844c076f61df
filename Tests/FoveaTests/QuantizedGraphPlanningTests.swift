import FoveaCore
import XCTest
import FoveaTestSupport
@_spi(Internals) @testable import Fovea

/// A QDQ graph as onnxruntime's quantizer writes it, built in code, with the
/// integer passes off (`fuseActivations: false`; QuantizedIntegerPassTests has
/// them on): the DequantizeLinear of each constant weight and bias folds into
/// float32 weights at load, so the Conv runs on any backend; the activation
/// QuantizeLinear / DequantizeLinear pairs stay, which the plan names.
final class QuantizedGraphPlanningTests: XCTestCase {
    /// x → Q → DQ → Conv(DQ(w int8, per channel), DQ(b int32)) → Relu → Q → DQ → GlobalAveragePool → Q → DQ → y.
    private func graph() throws -> Graph {
        var generator = SeededGenerator(seed: 3)
        let weights = (0..<(4 * 3 * 3 * 3)).map { _ in Int8.random(in: -127...127, using: &generator) }
        let u8 = { (value: UInt8) in try Tensor(shape: [], storage: .uint8([value])) }
        let nodes = [
            Node(name: "q_x", op: .quantizeLinear(QuantizeLinearAttributes()), inputs: ["x", "s_x", "z_x"], outputs: ["x_q"]),
            Node(name: "dq_x", op: .dequantizeLinear(axis: 1), inputs: ["x_q", "s_x", "z_x"], outputs: ["x_dq"]),
            Node(name: "dq_w", op: .dequantizeLinear(axis: 0), inputs: ["w_q", "s_w", "z_w"], outputs: ["w"]),
            Node(name: "dq_b", op: .dequantizeLinear(axis: 0), inputs: ["b_q", "s_b"], outputs: ["b"]),
            Node(name: "conv", op: .conv(ConvAttributes(kernelShape: [3, 3], strides: [1, 1], dilations: [1, 1], pads: [1, 1, 1, 1])),
                 inputs: ["x_dq", "w", "b"], outputs: ["c"]),
            Node(name: "relu", op: .relu, inputs: ["c"], outputs: ["r"]),
            Node(name: "q_r", op: .quantizeLinear(QuantizeLinearAttributes()), inputs: ["r", "s_r", "z_r"], outputs: ["r_q"]),
            Node(name: "dq_r", op: .dequantizeLinear(axis: 1), inputs: ["r_q", "s_r", "z_r"], outputs: ["r_dq"]),
            Node(name: "pool", op: .globalAveragePool, inputs: ["r_dq"], outputs: ["p"]),
            Node(name: "q_p", op: .quantizeLinear(QuantizeLinearAttributes()), inputs: ["p", "s_p", "z_p"], outputs: ["p_q"]),
            Node(name: "dq_p", op: .dequantizeLinear(axis: 1), inputs: ["p_q", "s_p", "z_p"], outputs: ["y"]),
        ]
        return Graph(
            inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.symbolic("N"), .known(3), .known(8), .known(8)])],
            outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: nil)],
            nodes: nodes,
            initializers: [
                "s_x": try Tensor(shape: [], floats: [0.02]), "z_x": try u8(128),
                "w_q": try Tensor(shape: [4, 3, 3, 3], storage: .int8(weights)),
                "s_w": try Tensor(shape: [4], floats: [0.004, 0.006, 0.003, 0.005]),
                "z_w": try Tensor(shape: [4], storage: .int8([0, 0, 0, 0])),
                "b_q": try Tensor(shape: [4], storage: .int32([1200, -800, 40, 0])),
                "s_b": try Tensor(shape: [4], floats: [0.02 * 0.004, 0.02 * 0.006, 0.02 * 0.003, 0.02 * 0.005]),
                "s_r": try Tensor(shape: [], floats: [0.01]), "z_r": try u8(0),
                "s_p": try Tensor(shape: [], floats: [0.005]), "z_p": try u8(0),
            ])
    }

    func testConstantDequantizeFoldsAndEveryBackendRunsTheConv() throws {
        let graph = try graph()
        var generator = SeededGenerator(seed: 11)
        let x = try Tensor(shape: [2, 3, 8, 8], floats: (0..<(2 * 192)).map { _ in Float.random(in: -2.5...2.5, using: &generator) })
        let expected = try GraphInterpreter.evaluate(graph, ["x": x])
        for backend in ["reference", "simd", "kernels"] {
            let model = try Model(graph: graph, configuration: ModelConfiguration(backends: [backend], optimizations: OptimizationOptions(fuseActivations: false)))
            // The weight and bias DequantizeLinear nodes became float32 initializers; the int8 weight is gone.
            XCTAssertEqual(model.graph.nodes.map(\.name).filter { $0.hasPrefix("dq_") }, ["dq_x", "dq_r", "dq_p"], backend)
            XCTAssertEqual(model.graph.initializers["w"]?.dataType, .float32, backend)
            XCTAssertNil(model.graph.initializers["w_q"], backend)
            let plan = try model.plan(inputShapes: ["x": [2, 3, 8, 8]])
            let byNode = Dictionary(uniqueKeysWithValues: plan.assignments.map { ($0.node, $0) })
            XCTAssertEqual(byNode["conv"]?.backend, backend, backend)
            // Per-tensor QuantizeLinear/DequantizeLinear run on the kernels as one pass over memory; the others on the reference.
            for name in ["q_x", "dq_x", "q_r", "dq_r", "q_p", "dq_p"] {
                XCTAssertEqual(byNode[name]?.backend, backend == "kernels" ? "kernels" : "reference", "\(backend): \(name)")
            }
            XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory), backend)
            let y = try XCTUnwrap(try plan.run(["x": x])["y"]?.floats)
            let wanted = try XCTUnwrap(expected["y"]?.floats)
            XCTAssertEqual(y.count, 8)
            // The reference backend computes what the interpreter computes, bit for bit;
            // a fast Conv sums in another order, so a value may land one step (0.005) away.
            for (a, e) in zip(y, wanted) {
                XCTAssertEqual(a, e, accuracy: backend == "reference" ? 0 : 0.0051, backend)
            }
            XCTAssertGreaterThan(Set(y).count, 2, "a non-trivial case")
        }
    }

    func testQuantizedValuesAreTypedInThePlan() throws {
        let types = try graph().inferTypes(inputShapes: ["x": [1, 3, 8, 8]])
        XCTAssertEqual(types["x_q"], TensorType(.uint8, [1, 3, 8, 8]))
        XCTAssertEqual(types["r_q"], TensorType(.uint8, [1, 4, 8, 8]))
        XCTAssertEqual(types["y"], TensorType(.float32, [1, 4, 1, 1]))
        XCTAssertEqual(DataType.uint8.byteSize, 1)
        XCTAssertEqual(DataType.int32.byteSize, 4)
    }
}
