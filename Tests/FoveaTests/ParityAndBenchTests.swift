import FoveaCore
import XCTest
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// Issue 3's tools: parity of whole models across backends, the bench report, the plan.
final class ParityAndBenchTests: XCTestCase {
    func testSqueezeNetsMatchTheReferenceOnEveryPhotoCropOnEveryBackend() throws {
        for (file, normalization) in [("squeezenet1.1.onnx", PixelNormalization.imageNet),
                                      ("squeezenet1.0.onnx", try PixelNormalization(mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5]))] {
            let model = try Model(contentsOfFile: TestData.model(file))
            let check = ParityCheck(model: model)
            let others = BackendRegistry.standard.backends.filter { $0.name != ReferenceBackend.name }
            XCTAssertFalse(others.isEmpty)
            for photo in TestData.photoNames {
                let image = try ImageDecoder.decode(contentsOf: TestData.photo("\(photo).224.ppm"))
                let reports = try check.run(inputs: ["data": try normalization.tensor(from: [image])], backends: others)
                for report in reports {
                    XCTAssertTrue(report.passed, "\(file) \(photo) \(report.backend): max rel \(report.maxRelativeError) > \(report.tolerance)")
                    if report.backend == "blas" {
                        // It claims only GEMM-shaped work: every Conv, nothing else.
                        XCTAssertTrue(report.nodes.filter { $0.opType == "Conv" }.allSatisfy { $0.backend == "blas" }, file)
                        XCTAssertTrue(report.nodes.filter { $0.opType != "Conv" }.allSatisfy { $0.backend != "blas" }, file)
                    } else {
                        XCTAssertEqual(report.fallbacks, [], "\(file) \(report.backend) runs every SqueezeNet node itself")
                    }
                    XCTAssertEqual(report.nodes.count, model.graph.nodes.count)
                }
            }
        }
    }

    func testParityCommandOnTheCoffeeCrop() throws {
        let result = try TestData.runFovea(["parity", "--model", TestData.model("squeezenet1.1.onnx"),
                                            "--input", TestData.photo("coffee.224.ppm"), "--backends", "reference,simd"])
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").last.map(String.init), "parity ok")
        XCTAssertTrue(result.stdout.contains("conv0"), result.stdout)
    }

    /// With --json, standard output is one JSON document (the verdict on standard error), at f32 and bf16.
    func testParityJSONIsOneDocument() throws {
        for precision in ["f32", "bf16"] {
            let result = try TestData.runFovea(["parity", "--model", TestData.model("coreml/TinyResNet.onnx"), "--backends", "kernels",
                                                "--threads", "1", "--precision", precision, "--json"])
            XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
            let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
            let backends = precision == "f32" ? json as? [Any] : (json as? [String: Any])?["backends"] as? [Any]
            XCTAssertEqual(backends?.count, 1, precision)
            XCTAssertTrue(result.stderr.contains("parity ok"), result.stderr)
        }
    }

    func testBenchReportsLatenciesAndAProfileAsJSON() throws {
        let result = try TestData.runFovea(["bench", "--model", TestData.model("coreml/TinyResNet.onnx"),
                                            "--backend", "simd", "--threads", "1", "--runs", "3", "--warmup", "1", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let median = try XCTUnwrap(json["median_ms"] as? Double)
        let minimum = try XCTUnwrap(json["min_ms"] as? Double)
        let p90 = try XCTUnwrap(json["p90_ms"] as? Double)
        XCTAssertLessThanOrEqual(minimum, median)
        XCTAssertLessThanOrEqual(median, p90)
        XCTAssertEqual(json["runs"] as? Int, 3)
        XCTAssertEqual(json["threads"] as? Int, 1)
        let nodes = try XCTUnwrap(json["nodes"] as? [[String: Any]])
        XCTAssertFalse(nodes.isEmpty)
        let shares = nodes.compactMap { $0["share"] as? Double }
        XCTAssertEqual(shares.reduce(0, +), 1, accuracy: 1e-6)
        XCTAssertTrue(nodes.allSatisfy { ($0["backend"] as? String) == "simd" }, "\(nodes)")
        XCTAssertTrue(nodes.contains { ($0["op_type"] as? String) == "Conv" && (($0["gflops"] as? Double) ?? 0) > 0 })

        let text = try TestData.runFovea(["bench", "--model", TestData.model("coreml/TinyResNet.onnx"), "--runs", "2"])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("median"), text.stdout)
        let bad = try TestData.runFovea(["bench", "--model", TestData.model("coreml/TinyResNet.onnx"), "--runs", "0"])
        XCTAssertNotEqual(bad.status, 0)
    }

    func testInspectPlanShowsBackendsAlgorithmsAndFallbacks() throws {
        let plan = try TestData.runFovea(["inspect", "--model", TestData.model("squeezenet1.1.onnx"), "--plan", "--backend", "simd", "--json"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let nodes = try XCTUnwrap(report["steps"] as? [[String: Any]])
        // 65 nodes, 26 Relu fused into their convolutions.
        XCTAssertEqual(nodes.count, 39)
        XCTAssertTrue(nodes.allSatisfy { ($0["backend"] as? String) == "simd" && ($0["isFallback"] as? Bool) == false })
        XCTAssertTrue(nodes.contains { ($0["algorithm"] as? String)?.contains("+relu") == true })

        // Core ML's Scale layer is a Mul by a constant, which the simd backend runs; GlobalAveragePool too.
        let reference = try TestData.runFovea(["inspect", "--model", TestData.model("squeezenet1.1.onnx"), "--plan", "--backend", "reference"])
        XCTAssertEqual(reference.status, 0, reference.stderr)
        XCTAssertFalse(reference.stdout.contains("fallback"), reference.stdout)
    }
}
