import FoveaCore
import XCTest
import FoveaTestSupport
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// The blas backend on whole models (the nodes it does not claim fall through
/// to the next backend) and on the arena's hazard graphs in a mixed plan.
final class BLASModelTests: XCTestCase {
    func testParityOnSqueezeNetsAndCoreMLModels() throws {
        for file in ["squeezenet1.1.onnx", "squeezenet1.0.onnx", "coreml/SqueezeNet11.mlmodel", "coreml/TinyResNet.mlmodel",
                     "coreml/TinyMobileNetV2.mlmodel", "coreml/TinyOps.mlmodel"] {
            let model = try Model(contentsOfFile: TestData.model(file))
            var generator = SeededGenerator(seed: 11)
            var feeds: [String: Tensor] = [:]
            for (name, type) in try model.plan().inputTypes {
                feeds[name] = LayerCheck.randomTensor(type.shape, in: -1...1, using: &generator)
            }
            let registry = BackendRegistry.standard
            let reports = try ParityCheck(model: model, threads: 2).run(inputs: feeds, backends: try registry.backends(named: ["blas"]))
            XCTAssertTrue(reports[0].passed, "\(file): max rel \(reports[0].maxRelativeError)")
            XCTAssertTrue(reports[0].nodes.contains { $0.backend == "blas" }, file)
            // Pooling, Concat and the rest are not GEMM-shaped: they fell through.
            XCTAssertFalse(reports[0].fallbacks.isEmpty, file)
        }
    }

    func testMixedPlanOnRandomHazardGraphs() throws {
        let backends = try BackendRegistry.standard.backends(named: ["blas", "simd"])
        for seed in 0..<200 {
            let (graph, feeds) = RandomGraphs.make(seed: UInt64(seed))
            let expected = try GraphInterpreter.evaluate(graph, feeds)
            let plan = try ExecutionPlan(graph: graph, inputShapes: feeds.mapValues(\.shape), backends: backends, maxThreads: 2)
            XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory), graph.name)
            let outputs = try plan.run(feeds, context: RunContext(threads: 1 + seed % 2))
            XCTAssertNil(GraphInterpreter.firstDifference(outputs, expected, graph: graph, bound: 1e-4), graph.name)
            if graph.nodes.contains(where: { $0.op.typeName == "Conv" }) {
                XCTAssertTrue(plan.assignments.contains { $0.backend == "blas" }, graph.name)
            }
        }
    }

    func testCommandLine() throws {
        let plan = try TestData.runFovea(["inspect", "--model", TestData.model("squeezenet1.1.onnx"), "--plan", "--backend", "blas,simd"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.stdout.contains("blas") && plan.stdout.contains("sgemm 1x1 +relu"), plan.stdout)
        let parity = try TestData.runFovea(["parity", "--model", TestData.model("coreml/TinyResNet.onnx"), "--backends", "simd,blas"])
        XCTAssertEqual(parity.status, 0, parity.stdout + parity.stderr)
        XCTAssertTrue(parity.stdout.hasSuffix("parity ok\n"), parity.stdout)
    }
}
