import XCTest
@testable import FoveaCore

/// Graph.truncated(at:): an intermediate value becomes the output, and only
/// what it depends on is kept.
final class GraphTruncationTests: XCTestCase {
    /// x -> relu(a) -> [neg(b), abs(c)] -> add(d); plus an unused initializer branch.
    private var graph: Graph {
        Graph(inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(1), .known(4)])],
              outputs: [ValueInfo(name: "d", dataType: .float32, dimensions: [.known(1), .known(4)])],
              nodes: [
                Node(name: "relu", op: .relu, inputs: ["x"], outputs: ["a"]),
                Node(name: "neg", op: .unary(.neg), inputs: ["a"], outputs: ["b"]),
                Node(name: "abs", op: .unary(.abs), inputs: ["a"], outputs: ["c"]),
                Node(name: "add", op: .add, inputs: ["b", "w"], outputs: ["bw"]),
                Node(name: "sum", op: .add, inputs: ["bw", "c"], outputs: ["d"]),
              ],
              initializers: ["w": Tensor(shape: [4], repeating: 1), "unused": Tensor(shape: [2], repeating: 0)])
    }

    func testKeepsOnlyWhatTheValueNeedsAndRunsIt() throws {
        let cut = try graph.truncated(at: ["bw"])
        XCTAssertEqual(cut.nodes.map(\.name), ["relu", "neg", "add"])
        XCTAssertEqual(cut.outputs.map(\.name), ["bw"])
        XCTAssertEqual(Set(cut.initializers.keys), ["w"])
        XCTAssertEqual(cut.inputs.map(\.name), ["x"])
        let x = try Tensor(shape: [1, 4], floats: [-2, -1, 1, 2])
        let out = try ExecutionPlan(graph: cut).run(["x": x], context: RunContext(threads: 1))
        XCTAssertEqual(out["bw"]?.floats, [1, 1, 0, -1])
    }

    func testSeveralValuesAndTheWholeGraph() throws {
        let cut = try graph.truncated(at: ["a", "c"])
        XCTAssertEqual(cut.nodes.map(\.name), ["relu", "abs"])
        XCTAssertEqual(cut.outputs.map(\.name), ["a", "c"])
        XCTAssertEqual(try graph.truncated(at: ["d"]).nodes.count, 5)
        XCTAssertEqual(try graph.truncated(at: ["x"]).nodes.count, 0)
    }

    func testUnknownValueIsAnErrorNamingTheLastValues() {
        XCTAssertThrowsError(try graph.truncated(at: ["nope"])) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("'nope' is not a value of the model"), text)
            XCTAssertTrue(text.contains("bw, d"), text)
        }
    }
}
