import XCTest
import FoveaCore
import FoveaTestSupport
@testable import FoveaKernelsBackend

/// Concat (when the planner does not elide it) and the reshape family
/// (views in a plan, a byte copy when run alone) on the kernels backend.
final class KernelsConcatAndViewTests: XCTestCase {
    /// Concat copies elements: exact.
    static let concatTolerance = Tolerance.exact

    func testRandomConcatMatchesReferenceExactly() throws {
        for (index, c) in OperatorCases.concatCases(seed: 51, count: 30).enumerated() {
            let algorithm = try KernelsTestSupport.check(c.op, c.inputs, tolerance: Self.concatTolerance, threads: 1 + index % 2,
                                                         "case \(index): \(c.description)")
            XCTAssertEqual(algorithm, "block copy")
        }
    }

    func testDeclinesConcatOfOtherDataTypes() {
        XCTAssertTrue(KernelsTestSupport.supports(.concat(axis: 0), [TensorType(.float32, [2]), TensorType(.float32, [3])]))
        XCTAssertFalse(KernelsTestSupport.supports(.concat(axis: 0), [TensorType(.int64, [2]), TensorType(.int64, [3])]))
        XCTAssertFalse(KernelsTestSupport.supports(.concat(axis: 0), [TensorType(.float32, [2]), TensorType(.int64, [3])]))
        XCTAssertFalse(KernelsTestSupport.supports(.concat(axis: 1), [TensorType(.float32, [2, 2]), TensorType(.float32, [3, 2])]))
    }

    /// A fire module (squeeze 1×1, expand 1×1 and 3×3, Concat) planned on
    /// the kernels backend with Concat elision off: the Concat step runs
    /// ("block copy") and the result is the graph interpreter's; with elision
    /// on, the expand convolutions write into its halves and it runs nothing.
    func testFireModuleConcatWithAndWithoutElision() throws {
        var rng = ConvRandom(seed: 61)
        func weights(_ shape: [Int]) throws -> Tensor { try Tensor(shape: shape, floats: rng.floats(shape.elementCount)) }
        let relu = ConvAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0], activation: .relu)
        var three = relu
        three.kernelShape = [3, 3]
        three.pads = [1, 1, 1, 1]
        let graph = Graph(
            name: "fire", inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(2), .known(8), .known(11), .known(11)])],
            outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: nil)],
            nodes: [
                Node(name: "squeeze", op: .conv(relu), inputs: ["x", "ws", "bs"], outputs: ["s"]),
                Node(name: "expand1", op: .conv(relu), inputs: ["s", "w1", "b1"], outputs: ["e1"]),
                Node(name: "expand3", op: .conv(three), inputs: ["s", "w3", "b3"], outputs: ["e3"]),
                Node(name: "concat", op: .concat(axis: 1), inputs: ["e1", "e3"], outputs: ["c"]),
                Node(name: "pool", op: .maxPool(PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [], pads: [0, 0, 0, 0],
                                                               ceilMode: true)),
                     inputs: ["c"], outputs: ["y"]),
            ],
            initializers: ["ws": try weights([4, 8, 1, 1]), "bs": try weights([4]), "w1": try weights([6, 4, 1, 1]), "b1": try weights([6]),
                           "w3": try weights([6, 4, 3, 3]), "b3": try weights([6])])
        let feeds = ["x": try weights([2, 8, 11, 11])]
        let expected = try XCTUnwrap(GraphInterpreter.evaluate(graph, feeds)["y"])
        for elide in [false, true] {
            for policy in [WinogradPolicy.off, .forced(.winogradF4)] {
                let plan = try ExecutionPlan(graph: graph, backends: [KernelsBackend(winograd: policy)],
                                             memoryOptions: MemoryPlan.Options(elideConcat: elide), maxThreads: 2)
                XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory))
                XCTAssertTrue(plan.assignments.allSatisfy { $0.backend == KernelsBackend.name }, "\(plan.assignments)")
                let concat = try XCTUnwrap(plan.graph.nodes.firstIndex { $0.name == "concat" })
                XCTAssertEqual(plan.assignments[concat].algorithm, "block copy")
                XCTAssertEqual(plan.memory.actionDescription(concat), elide ? "elided concat" : "run", "elide \(elide)")
                for threads in [1, 2] {
                    let y = try XCTUnwrap(plan.run(feeds, context: RunContext(threads: threads))["y"])
                    LayerCheck.compareRelative([y], [expected], bound: plan.assignments.map(\.tolerance).max() ?? 0,
                                               "fire module, elide \(elide), \(policy), \(threads) threads")
                }
            }
        }
    }

    /// Flatten, Reshape, Squeeze, Unsqueeze, Identity and Dropout: a byte
    /// copy when run alone (exact), a view of the input in a plan.
    func testReshapeFamilyIsExactAndPlannedAsViews() throws {
        var g = SeededGenerator(seed: 62)
        let x = LayerCheck.randomTensorWithSpecials([2, 3, 1, 5], using: &g)
        let ops: [Op] = [.flatten(axis: 1), .flatten(axis: 0), .reshape(shape: [6, -1], allowZero: false), .reshape(shape: [0, 15], allowZero: false),
                         .squeeze(axes: [2]), .squeeze(axes: nil), .unsqueeze(axes: [0, 5]), .identity, .dropout]
        for op in ops {
            let algorithm = try KernelsTestSupport.check(op, [x], tolerance: .exact, threads: 2, "\(op)")
            XCTAssertEqual(algorithm, "view")
        }
        XCTAssertFalse(KernelsTestSupport.supports(.dropout, [TensorType(.float32, [2, 3])], outputCount: 2), "Dropout with its mask")

        // In a plan, between a pooling and a Relu: views of the pooling's output.
        let graph = Graph(
            name: "views", inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(2), .known(3), .known(4), .known(5)])],
            outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: nil)],
            nodes: [
                Node(name: "pool", op: .globalAveragePool, inputs: ["x"], outputs: ["p"]),
                Node(name: "flatten", op: .flatten(axis: 1), inputs: ["p"], outputs: ["f"]),
                Node(name: "unsqueeze", op: .unsqueeze(axes: [0]), inputs: ["f"], outputs: ["u"]),
                Node(name: "reshape", op: .reshape(shape: [3, 2], allowZero: false), inputs: ["u"], outputs: ["r"]),
                Node(name: "relu", op: .relu, inputs: ["r"], outputs: ["y"]),
            ],
            initializers: [:])
        let feeds = ["x": LayerCheck.randomTensor([2, 3, 4, 5], using: &g)]
        let plan = try ExecutionPlan(graph: graph, backends: [KernelsBackend()], maxThreads: 2)
        for name in ["flatten", "unsqueeze", "reshape"] {
            let index = try XCTUnwrap(plan.graph.nodes.firstIndex { $0.name == name })
            XCTAssertEqual(plan.assignments[index].backend, KernelsBackend.name, name)
            XCTAssertEqual(plan.memory.actionDescription(index), "view", name)
        }
        let expected = try XCTUnwrap(GraphInterpreter.evaluate(graph, feeds)["y"])
        let actual = try XCTUnwrap(plan.run(feeds, context: RunContext(threads: 2))["y"])
        LayerCheck.compare([actual], [expected], tolerance: Tolerance(absolute: 1e-6, relative: 1e-6), "views in a plan")
    }
}
