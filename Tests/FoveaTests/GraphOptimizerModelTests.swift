import FoveaCore
import XCTest
@_spi(Internals) @testable import Fovea

/// The standard graph passes on real models: same outputs on the reference
/// backend (bit for bit with fusion alone: a fused activation runs on the
/// finished sums, as the separate node did; within 1e-5 with BatchNormalization
/// folded, which reorders the arithmetic), and Model runs the optimized graph.
final class GraphOptimizerModelTests: XCTestCase {
    /// Seeded values in [-1, 1) for every graph input.
    private func seededFeeds(_ graph: Graph, seed: UInt64) throws -> [String: Tensor] {
        var state = seed
        var feeds: [String: Tensor] = [:]
        for input in graph.inputs {
            let shape = try XCTUnwrap(input.knownShape, input.name)
            let values = (0..<shape.elementCount).map { _ -> Float in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Float(state >> 40) / Float(1 << 23) - 1
            }
            feeds[input.name] = try Tensor(shape: shape, floats: values)
        }
        return feeds
    }

    private func checkSameOutputs(_ file: String) throws -> Graph {
        let graph = try ModelFile.loadGraph(contentsOf: TestData.model(file))
        let feeds = try seededFeeds(graph, seed: 42)
        let context = RunContext(threads: 1)
        let expected = try ExecutionPlan(graph: graph, backends: [ReferenceBackend()]).run(feeds, context: context)
        let fusedOnly = try GraphOptimizer(OptimizationOptions(foldBatchNormalization: false)).optimize(graph)
        let exact = try ExecutionPlan(graph: fusedOnly, backends: [ReferenceBackend()]).run(feeds, context: context)
        let optimized = try GraphOptimizer.standard.optimize(graph)
        let actual = try ExecutionPlan(graph: optimized, backends: [ReferenceBackend()]).run(feeds, context: context)
        XCTAssertEqual(Set(actual.keys), Set(graph.outputs.map(\.name)))
        for (name, tensor) in expected {
            XCTAssertEqual(exact[name], tensor, "\(file): output \(name) with fusion only")
            let a = try XCTUnwrap(actual[name]?.floats), e = try XCTUnwrap(tensor.floats)
            let scale = max(1e-30, e.map(abs).max() ?? 0)
            let error = zip(a, e).map { abs($0 - $1) }.max() ?? 0
            XCTAssertLessThanOrEqual(error / scale, 1e-5, "\(file): output \(name) with BatchNormalization folded")
        }
        return optimized
    }

    func testTinyResNetGivesSameOutputsOptimized() throws {
        let graph = try ModelFile.loadGraph(contentsOf: TestData.model("coreml/TinyResNet.onnx"))
        let optimized = try checkSameOutputs("coreml/TinyResNet.onnx")
        XCTAssertLessThanOrEqual(optimized.nodes.count, graph.nodes.count)
    }

    func testSqueezeNetFusesEveryReluIntoItsConv() throws {
        let graph = try ModelFile.loadGraph(contentsOf: TestData.model("squeezenet1.1.onnx"))
        let optimized = try checkSameOutputs("squeezenet1.1.onnx")
        let convs = graph.opHistogram["Conv"] ?? 0
        XCTAssertEqual(convs, 26)
        XCTAssertEqual(optimized.opHistogram["Conv"], convs)
        XCTAssertNil(optimized.opHistogram["Relu"])
        XCTAssertEqual(optimized.nodes.count, graph.nodes.count - (graph.opHistogram["Relu"] ?? 0) - (graph.opHistogram["Dropout"] ?? 0))

        // Model keeps and plans the optimized graph; the plan shows the fusion.
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"),
                              configuration: ModelConfiguration(backends: ["simd"]))
        XCTAssertEqual(model.graph.nodes.map(\.name), optimized.nodes.map(\.name))
        let fused = try model.plan().assignments.filter { $0.opType == "Conv" }
        XCTAssertEqual(fused.count, convs)
        XCTAssertTrue(fused.allSatisfy { $0.algorithm.hasSuffix(" +relu") }, "\(fused.map(\.algorithm))")
    }
}
