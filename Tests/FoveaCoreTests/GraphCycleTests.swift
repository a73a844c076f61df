import XCTest
@testable import FoveaCore

/// Issue 11: a cyclic graph is reported as a cycle naming its nodes.
final class GraphCycleTests: XCTestCase {
    private func graph(_ nodes: [Node]) -> Graph {
        Graph(name: "g", inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [.known(1), .known(2)])],
              outputs: [ValueInfo(name: "c", dataType: .float32, dimensions: nil)], nodes: nodes)
    }

    func testACycleIsReportedWithItsNodes() {
        let g = graph([
            Node(name: "first", op: .relu, inputs: ["c"], outputs: ["a"]),
            Node(name: "second", op: .add, inputs: ["x", "a"], outputs: ["b"]),
            Node(name: "third", op: .relu, inputs: ["b"], outputs: ["c"]),
        ])
        XCTAssertEqual(g.cycle()?.map(\.name), ["second", "third", "first"])
        XCTAssertThrowsError(try g.validateStructure()) { error in
            let error = error as? FoveaError
            XCTAssertEqual(error?.kind, .invalidModel)
            XCTAssertEqual(error?.message, "the graph has a cycle: 'second' (Add) -> 'third' (Relu) -> 'first' (Relu) -> 'second' (Add)")
        }
        XCTAssertThrowsError(try ExecutionPlan(graph: g)) { error in
            XCTAssertTrue("\(error)".contains("cycle"), "\(error)")
        }
    }

    func testASelfLoopIsACycle() {
        let g = graph([Node(name: "loop", op: .add, inputs: ["x", "c"], outputs: ["c"])])
        XCTAssertEqual(g.cycle()?.map(\.name), ["loop"])
        XCTAssertThrowsError(try g.validateStructure()) { error in
            XCTAssertEqual((error as? FoveaError)?.message, "the graph has a cycle: 'loop' (Add) -> 'loop' (Add)")
        }
    }

    func testNodesOutOfOrderAreNotACycle() {
        let g = graph([
            Node(name: "late", op: .relu, inputs: ["a"], outputs: ["c"]),
            Node(name: "early", op: .relu, inputs: ["x"], outputs: ["a"]),
        ])
        XCTAssertNil(g.cycle())
        XCTAssertThrowsError(try g.validateStructure()) { error in
            let error = error as? FoveaError
            XCTAssertEqual(error?.location.node, "late")
            XCTAssertTrue(error?.message.contains("produced by node 'early', which comes later") == true, "\(String(describing: error))")
        }
        let missing = graph([Node(name: "only", op: .relu, inputs: ["nowhere"], outputs: ["c"])])
        XCTAssertThrowsError(try missing.validateStructure()) { error in
            XCTAssertTrue("\(error)".contains("'nowhere' is not produced by any node"), "\(error)")
        }
    }
}
