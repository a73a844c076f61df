import FoveaCore
import XCTest
import FoveaTestSupport
@_spi(Internals) @testable import Fovea

/// Most operators added for exported classifiers run only on the reference
/// backend: a plan asking for the simd or kernels backend falls back to it for
/// them, says so, plans their memory like any other step, and gives the
/// interpreter's answers. The elementwise ones (here Gelu, Pow and Max) run on the fast backends.
final class NewOperatorPlanningTests: XCTestCase {
    /// x → Relu → LayerNormalization(axis 1) → Pow(·, 2) → ReduceMean(H, W) → Gelu → Max(·, floor) → y,
    /// with ArgMax(C) of the pooled features as a second output.
    private func graph() throws -> Graph {
        let nodes = [
            Node(name: "relu", op: .relu, inputs: ["x"], outputs: ["r"]),
            Node(name: "ln", op: .layerNormalization(axis: 1, epsilon: 1e-5), inputs: ["r", "scale", "bias"], outputs: ["n"]),
            Node(name: "square", op: .pow, inputs: ["n", "two"], outputs: ["s"]),
            Node(name: "mean", op: .reduce(ReduceAttributes(.mean, axes: [2, 3], keepDims: false)), inputs: ["s"], outputs: ["m"]),
            Node(name: "gelu", op: .unary(.gelu(tanhApproximation: false)), inputs: ["m"], outputs: ["g"]),
            Node(name: "max", op: .maximum, inputs: ["g", "floor"], outputs: ["y"]),
            Node(name: "argmax", op: .argMax(axis: 1, keepDims: false, selectLastIndex: false), inputs: ["m"], outputs: ["best"]),
        ]
        var generator = SeededGenerator(seed: 19)
        let scale = (0..<(4 * 6 * 6)).map { _ in Float.random(in: 0.5...1.5, using: &generator) }
        return Graph(
            inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.symbolic("N"), .known(4), .known(6), .known(6)])],
            outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: nil), ValueInfo(name: "best", dataType: .int64, dimensions: nil)],
            nodes: nodes,
            initializers: [
                "scale": try Tensor(shape: [4, 6, 6], floats: scale),
                "bias": try Tensor(shape: [1], floats: [0.25]),
                "two": try Tensor(shape: [], floats: [2]),
                "floor": try Tensor(shape: [4], floats: [0.5, 1, 1.5, 2]),
            ])
    }

    func testFallbackToReferenceForNewOpsGivesTheInterpreterAnswers() throws {
        let graph = try graph()
        var generator = SeededGenerator(seed: 7)
        let x = try Tensor(shape: [3, 4, 6, 6], floats: (0..<(3 * 144)).map { _ in Float.random(in: -2...2, using: &generator) })
        let expected = try GraphInterpreter.evaluate(graph, ["x": x])
        for backend in ["simd", "kernels"] {
            let model = try Model(graph: graph, configuration: ModelConfiguration(backends: [backend]))
            let plan = try model.plan(inputShapes: ["x": [3, 4, 6, 6]])
            let byNode = Dictionary(uniqueKeysWithValues: plan.assignments.map { ($0.node, $0) })
            XCTAssertEqual(byNode["relu"]?.backend, backend)
            XCTAssertEqual(byNode["gelu"]?.backend, backend)
            XCTAssertEqual(byNode["square"]?.backend, backend)
            XCTAssertEqual(byNode["max"]?.backend, backend)
            // The kernels run ReduceMean over the last axes as a global average pool.
            if backend == "kernels" { XCTAssertEqual(byNode["mean"]?.backend, backend) }
            for name in backend == "kernels" ? ["ln", "argmax"] : ["ln", "mean", "argmax"] {
                XCTAssertEqual(byNode[name]?.backend, "reference", "\(backend): \(name)")
                XCTAssertEqual(byNode[name]?.isFallback, true, "\(backend): \(name)")
            }
            XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory), backend)
            let outputs = try plan.run(["x": x])
            XCTAssertNil(GraphInterpreter.firstDifference(["y": outputs["y"]!], expected, graph: Graph(inputs: [], outputs: [graph.outputs[0]], nodes: []), bound: 1e-5), backend)
            XCTAssertEqual(outputs["best"], expected["best"], backend)
            XCTAssertEqual(outputs["y"]?.shape, [3, 4])
        }
    }

    func testShapeInferenceTypesEveryNewValue() throws {
        let types = try graph().inferTypes(inputShapes: ["x": [2, 4, 6, 6]])
        XCTAssertEqual(types["n"], TensorType(.float32, [2, 4, 6, 6]))
        XCTAssertEqual(types["m"], TensorType(.float32, [2, 4]))
        XCTAssertEqual(types["y"], TensorType(.float32, [2, 4]))
        XCTAssertEqual(types["best"], TensorType(.int64, [2]))
    }

    /// Bool and int64 values in the arena, and a node with two outputs:
    /// x → Split(C) → (a, b); Greater(a, b) → Where(·, a, b) → Cast(int64) → Cast(float) → Slice → Tile → y;
    /// Gather(a, indices) → DepthToSpace → z.
    func testBoolIntAndMultiOutputValuesArePlannedAndRun() throws {
        let nodes = [
            Node(name: "split", op: .split(axis: 1, sizes: nil), inputs: ["x"], outputs: ["a", "b"]),
            Node(name: "greater", op: .compare(.greater), inputs: ["a", "b"], outputs: ["mask"]),
            Node(name: "where", op: .select, inputs: ["mask", "a", "b"], outputs: ["larger"]),
            Node(name: "toInt", op: .cast(to: .int64), inputs: ["larger"], outputs: ["whole"]),
            Node(name: "toFloat", op: .cast(to: .float32), inputs: ["whole"], outputs: ["rounded"]),
            Node(name: "slice", op: .slice(starts: [1], ends: [3], axes: [3], steps: nil), inputs: ["rounded"], outputs: ["sliced"]),
            Node(name: "tile", op: .tile(repeats: [1, 2, 1, 1]), inputs: ["sliced"], outputs: ["y"]),
            Node(name: "gather", op: .gather(axis: 1), inputs: ["a", "indices"], outputs: ["picked"]),
            Node(name: "d2s", op: .depthToSpace(blockSize: 2, columnRowDepth: false), inputs: ["picked"], outputs: ["z"]),
        ]
        let graph = Graph(
            inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(2), .known(4), .known(3), .known(3)])],
            outputs: ["y", "z"].map { ValueInfo(name: $0, dataType: .float32, dimensions: nil) },
            nodes: nodes,
            initializers: ["indices": try Tensor(shape: [4], int64s: [1, 0, -1, 0])])
        var generator = SeededGenerator(seed: 11)
        let x = try Tensor(shape: [2, 4, 3, 3], floats: (0..<72).map { _ in Float.random(in: -5...5, using: &generator) })
        let expected = try GraphInterpreter.evaluate(graph, ["x": x])
        XCTAssertEqual(expected["y"]?.shape, [2, 4, 3, 2])
        XCTAssertEqual(expected["z"]?.shape, [2, 1, 6, 6])
        for backend in ["simd", "reference"] {
            let plan = try Model(graph: graph, configuration: ModelConfiguration(backends: [backend])).plan()
            XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory), backend)
            let outputs = try plan.run(["x": x])
            XCTAssertEqual(outputs["y"], expected["y"], backend)
            XCTAssertEqual(outputs["z"], expected["z"], backend)
        }
    }

    /// A model whose Reshape target is computed from the batch (as PyTorch
    /// exports `x.view(x.size(0), -1)`) predicts at any batch size.
    func testModelWithComputedReshapeRunsAtEveryBatch() throws {
        let graph = Graph(
            inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.symbolic("N"), .known(2), .known(3)])],
            outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: [.symbolic("N"), .known(6)])],
            nodes: [
                Node(name: "shape", op: .shape(start: 0, end: nil), inputs: ["x"], outputs: ["s"]),
                Node(name: "gather", op: .gather(axis: 0), inputs: ["s", "zero"], outputs: ["n"]),
                Node(name: "unsqueeze", op: .unsqueeze(axes: [0]), inputs: ["n"], outputs: ["n1"]),
                Node(name: "concat", op: .concat(axis: 0), inputs: ["n1", "minus1"], outputs: ["target"]),
                Node(name: "reshape", op: .withComputedParameters(.reshape(allowZero: false)), inputs: ["x", "target"], outputs: ["flat"]),
                Node(name: "softmax", op: .softmax(SoftmaxAttributes(axis: 1, coercedTo2D: false)), inputs: ["flat"], outputs: ["y"]),
            ],
            initializers: ["zero": try Tensor(shape: [], int64s: [0]), "minus1": try Tensor(shape: [1], int64s: [-1])])
        let model = try Model(graph: graph)
        for batch in [2, 5] {
            let x = try Tensor(shape: [batch, 2, 3], floats: (0..<(batch * 6)).map { Float($0 % 7) })
            let y = try XCTUnwrap(try model.predict(["x": x])["y"])
            XCTAssertEqual(y.shape, [batch, 6])
            // The default backends run the Softmax: equal to the reference within float rounding.
            let expected = try XCTUnwrap(try GraphInterpreter.evaluate(graph.foldingShapeComputations(inputShapes: ["x": x.shape]).graph, ["x": x])["y"]?.floats)
            XCTAssertLessThan(zip(y.floats ?? [], expected).map { abs($0 - $1) }.max() ?? 1, 1e-6)
            XCTAssertEqual((y.floats ?? []).reduce(0, +), Float(batch), accuracy: 1e-4)
        }
    }
}
