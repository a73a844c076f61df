import CFoveaKernels
import FoveaCore
import FoveaImage
import FoveaKernelsBackend
import XCTest
import FoveaTestSupport
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// Issue 31's precision per plan on the real SqueezeNet 1.1: a bf16 plan's
/// GEMM convolutions run on the bf16 kernels, pass parity with the bf16
/// tolerance, keep the top class of every shared photo, and give the same
/// answers on the portable bf16 kernels, concurrently and in batches.
final class BF16PlanTests: XCTestCase {
    private let bf16Tolerance = KernelsBackend.bf16Tolerance

    private func squeezeNet(_ precision: Precision) throws -> Model {
        try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"),
                  configuration: ModelConfiguration(backends: ["kernels"], threads: 2, precision: precision))
    }

    private func randomFeeds(_ model: Model, seed: UInt64, batch: Int = 1) throws -> [String: Tensor] {
        var generator = SeededGenerator(seed: seed)
        var feeds: [String: Tensor] = [:]
        for (name, type) in try model.plan().inputTypes {
            feeds[name] = LayerCheck.randomTensor([batch] + type.shape.dropFirst(), in: -1...1, using: &generator)
        }
        return feeds
    }

    /// Largest |a - b| over the largest |b|.
    private func relativeError(_ a: [Float], _ b: [Float]) -> Float {
        XCTAssertEqual(a.count, b.count)
        let scale = b.map(abs).max() ?? 0
        return (zip(a, b).map { abs($0 - $1) }.max() ?? .infinity) / scale
    }

    func testTheBF16PlanRunsEveryGEMMConvolutionInBF16AndSaysSo() throws {
        let plan = try squeezeNet(.bf16).plan()
        XCTAssertEqual(plan.precision, .bf16)
        let convs = plan.assignments.filter { $0.opType == "Conv" }
        XCTAssertEqual(convs.count, 26)
        // Winograd's 3×3 steps stay f32 except on AMX (KernelsConvolution says why).
        let keepsWinograd = KernelsBackend.bf16Hardware != "amx"
        var bf16Steps = 0
        for conv in convs {
            if keepsWinograd && conv.algorithm.contains("winograd") {
                XCTAssertEqual(conv.precision, .f32, conv.node)
                XCTAssertFalse(conv.algorithm.contains("bf16_gemm_"), "\(conv.node): \(conv.algorithm)")
                continue
            }
            bf16Steps += 1
            XCTAssertEqual(conv.precision, .bf16, conv.node)
            XCTAssertTrue(conv.algorithm.contains("bf16_gemm_"), "\(conv.node): \(conv.algorithm)")
            XCTAssertEqual(conv.tolerance, bf16Tolerance, conv.node)
        }
        // SqueezeNet 1.1's 1×1 convolutions (17) and its stride-2 conv1 are GEMMs whatever the Winograd table says.
        XCTAssertGreaterThanOrEqual(bf16Steps, 18)
        for other in plan.assignments where other.opType != "Conv" {
            XCTAssertEqual(other.precision, .f32, "\(other.node) (\(other.opType)) stays f32")
        }
        // The f32 plan of the same model has no bf16 step.
        XCTAssertTrue(try squeezeNet(.f32).plan().assignments.allSatisfy { $0.precision == .f32 && !$0.algorithm.contains("bf16_gemm") })
        let report = PlanReport(plan)
        XCTAssertEqual(report.steps.filter { $0.precision == .bf16 }.count, bf16Steps)
    }

    func testParityAtBF16PassesAndReallyRoundsToBF16() throws {
        let model = try squeezeNet(.f32)
        let kernels = try BackendRegistry.standard.backends(named: ["kernels"])
        for seed: UInt64 in [1, 31] {
            let report = try XCTUnwrap(ParityCheck(model: model, threads: 2, precision: .bf16)
                .run(inputs: randomFeeds(model, seed: seed), backends: kernels).first)
            XCTAssertTrue(report.passed, "seed \(seed): max rel \(report.maxRelativeError) > \(report.tolerance)")
            XCTAssertEqual(report.tolerance, bf16Tolerance)
            XCTAssertEqual(report.fallbacks, [])
            // f32 stays near 1e-6; an error this large shows the products were rounded to 8 bits.
            XCTAssertGreaterThan(report.maxRelativeError, 1e-3, "seed \(seed)")
            // Every GEMM convolution runs in bf16 (Winograd's 3×3 steps may stay f32: KernelsConvolution).
            XCTAssertGreaterThanOrEqual(report.nodes.filter { $0.opType == "Conv" && $0.precision == .bf16 }.count, 18)
            // Each step is checked alone too, on the inputs the plan gave it: f32 steps as tightly as in an f32 plan.
            for node in report.nodes {
                let step = try XCTUnwrap(node.stepRelativeError, node.node)
                XCTAssertLessThanOrEqual(step, node.stepTolerance, node.node)
                if node.precision == .bf16 { XCTAssertEqual(node.stepTolerance, bf16Tolerance, node.node) }
            }
        }
        // A float32 plan checks the error from the input on only.
        let f32 = try XCTUnwrap(ParityCheck(model: model, threads: 2).run(inputs: randomFeeds(model, seed: 1), backends: kernels).first)
        XCTAssertTrue(f32.passed)
        XCTAssertTrue(f32.nodes.allSatisfy { $0.stepRelativeError == nil })
    }

    /// The four shared photos (exact 224×224 crops and the full pictures): top-1 as in f32.
    func testTopClassOfEverySharedPhotoIsTheF32One() throws {
        let model = try squeezeNet(.f32)
        let request = try ClassificationRequest(model: model)
        let input = try XCTUnwrap(model.primaryInput).name
        var samples: [[String: Tensor]] = []
        let files = try FileManager.default.contentsOfDirectory(atPath: TestData.models + "/photos").sorted()
        for file in files {
            let image = try ImageRequestHandler(contentsOfFile: TestData.models + "/photos/" + file).image
            samples.append([input: try request.inputTensor(for: image)])
        }
        XCTAssertGreaterThanOrEqual(samples.count, 8)
        let kernels = try BackendRegistry.standard.backends(named: ["kernels"])
        let cost = try XCTUnwrap(ParityCheck(model: model, threads: 2, precision: .bf16).comparePrecision(samples: samples, backends: kernels).first)
        XCTAssertEqual(cost.rows, samples.count)
        XCTAssertEqual(cost.top1Agreements, samples.count, "top-1 changed on some photo")
        XCTAssertEqual(cost.reducedSteps, try squeezeNet(.bf16).plan().assignments.filter { $0.precision == .bf16 }.count)
        XCTAssertGreaterThan(cost.maxRelativeLogitError, 0)
        XCTAssertLessThanOrEqual(cost.maxRelativeLogitError, bf16Tolerance)
    }

    /// `FOVEA_ISA=avx512` / `scalar`: bf16 weights packed for the portable kernels
    /// (same roundings, float32 sums in another order) give the same answers.
    func testForcedNarrowerISAsRunThePortableBF16KernelsWithMatchingResults() throws {
        defer { fovea_kernels_set_isa("auto") }
        let model = try squeezeNet(.bf16)
        let feeds = try randomFeeds(model, seed: 7)
        let output = try XCTUnwrap(model.graph.outputs.first).name
        let best = try XCTUnwrap(model.predict(feeds)[output]?.floats)
        for isa in ["avx512", "avx2", "scalar"] where fovea_kernels_isa_supported(isa) != 0 {
            XCTAssertEqual(fovea_kernels_set_isa(isa), FOVEA_STATUS_OK)
            let forced = try squeezeNet(.bf16)  // a new plan packs for the forced ISA
            let plan = try forced.plan()
            for conv in plan.assignments where conv.opType == "Conv" && !conv.algorithm.contains("winograd") {
                XCTAssertEqual(conv.precision, .bf16, "\(isa) \(conv.node): \(conv.algorithm)")
                XCTAssertFalse(conv.algorithm.contains("avx512bf16"), "\(isa) \(conv.node): \(conv.algorithm)")
            }
            let scores = try XCTUnwrap(forced.predict(feeds)[output]?.floats)
            // bf16 products are exact in f32 on every ISA; only the order of the f32 sums differs.
            // The 3×3 layers Winograd takes stay f32, and each ISA's table may pick another
            // Winograd variant (F(2), F(4), F(6): step tolerances up to 1e-3), hence 2e-3.
            XCTAssertLessThanOrEqual(relativeError(scores, best), 2e-3, isa)
        }
        fovea_kernels_set_isa("auto")
        print("bf16 kernels on this CPU: \(try squeezeNet(.bf16).plan().assignments[0].algorithm)")
    }

    func testSixteenConcurrentRunsOfOneBF16PlanEqualSequentialOnes() throws {
        let model = try squeezeNet(.bf16)
        let plan = try model.plan()
        let feeds = try (0..<16).map { try randomFeeds(model, seed: 100 + UInt64($0)) }
        let output = try XCTUnwrap(model.graph.outputs.first).name
        let sequential = try feeds.map { try XCTUnwrap(plan.run($0, context: RunContext(threads: 1))[output]?.floats) }
        let results = ConcurrentResults(count: feeds.count)
        DispatchQueue.concurrentPerform(iterations: feeds.count) { index in
            results.set(index, Result { try plan.run(feeds[index], context: RunContext(threads: 1 + index % 2))[output]?.floats ?? [] })
        }
        for index in feeds.indices {
            XCTAssertEqual(try results.get(index), sequential[index], "run \(index)")
        }
    }

    func testABatchOfTwoEqualsTwoSingleRuns() throws {
        let model = try squeezeNet(.bf16)
        let pair = try randomFeeds(model, seed: 3, batch: 2)
        let input = try XCTUnwrap(model.primaryInput).name, output = try XCTUnwrap(model.graph.outputs.first).name
        let both = try XCTUnwrap(model.predict(pair)[output])
        XCTAssertEqual(both.shape.first, 2)
        let x = try XCTUnwrap(pair[input]?.floats)
        let half = x.count / 2
        let y = try XCTUnwrap(both.floats)
        let rows = y.count / 2
        for image in 0..<2 {
            let single = try Tensor(shape: [1] + Array(pair[input]!.shape.dropFirst()), floats: Array(x[image * half ..< (image + 1) * half]))
            let alone = try XCTUnwrap(model.predict([input: single])[output]?.floats)
            // The bf16 GEMM's tiles may group pixels of two images: same roundings, f32 sums in another order.
            XCTAssertLessThanOrEqual(relativeError(Array(y[image * rows ..< (image + 1) * rows]), alone), 1e-4, "image \(image)")
        }
    }
}

extension BF16PlanTests {
    func testTopClassesRankLargestFirstNaNLastTiesByIndex() {
        XCTAssertEqual(ParityCheck.topClasses([0.1, 3, -1, 3, .nan, 2][...], 5), [1, 3, 5, 0, 2])
        XCTAssertEqual(ParityCheck.topClasses([5, 1, 9, 7][1...], 2), [1, 2], "indices within the slice")
        XCTAssertEqual(ParityCheck.topClasses([.nan, 1][...], 5), [1, 0])
    }

    /// The command line: parity over the photo folder, the plan's precision column, bench's bf16 line.
    func testTheCommandsReportThePrecision() throws {
        let model = TestData.model("squeezenet1.1.onnx")
        // How many steps run in bf16 depends on the Winograd table of this CPU (KernelsConvolution):
        // the plan says it, and parity and bench must say the same.
        let plan = try TestData.runFovea(["inspect", "--model", model, "--plan", "--backend", "kernels", "--precision", "bf16",
                                          "--threads", "2"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let summary = try XCTUnwrap(plan.stdout.split(separator: "\n").first { $0.hasPrefix("precision bf16: ") }, plan.stdout)
        let steps = try XCTUnwrap(Int(summary.dropFirst("precision bf16: ".count).prefix { $0.isNumber }), String(summary))
        XCTAssertTrue((18...26).contains(steps), String(summary))
        XCTAssertEqual(String(summary), "precision bf16: \(steps) of 39 steps; the others run in f32")
        let conv = try XCTUnwrap(plan.stdout.split(separator: "\n").first { $0.hasPrefix("conv1 ") })
        XCTAssertTrue(conv.contains(" bf16  gemm 1x1 bf16_gemm_"), String(conv))

        let parity = try TestData.runFovea(["parity", "--model", model, "--backends", "kernels", "--precision", "bf16",
                                            "--input", TestData.models + "/photos", "--threads", "2"])
        XCTAssertEqual(parity.status, 0, parity.stdout + parity.stderr)
        let photos = try FileManager.default.contentsOfDirectory(atPath: TestData.models + "/photos").count
        XCTAssertTrue(parity.stdout.contains("bf16 against f32 (kernels, \(steps) of 39 steps in bf16) over \(photos) input(s): max rel logit error "),
                      parity.stdout)
        XCTAssertTrue(parity.stdout.contains("top-1 \(photos)/\(photos)"), parity.stdout)
        XCTAssertTrue(parity.stdout.hasSuffix("parity ok\n"), parity.stdout)
        // f32 parity prints no whole-model line.
        let f32 = try TestData.runFovea(["parity", "--model", model, "--backends", "kernels", "--threads", "2"])
        XCTAssertFalse(f32.stdout.contains("against f32"), f32.stdout)

        let bench = try TestData.runFovea(["bench", "--model", model, "--backend", "kernels", "--precision", "bf16", "--runs", "2",
                                           "--warmup", "0", "--threads", "2"])
        XCTAssertEqual(bench.status, 0, bench.stderr)
        XCTAssertTrue(bench.stdout.contains("; \(steps) step(s) ran in bf16"), bench.stdout)
        let bad = try TestData.runFovea(["bench", "--model", model, "--precision", "fp16"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--precision must be f32 or bf16"), bad.stderr)
    }
}

/// Results written by concurrent runs, read after they finish.
private final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<[Float], Error>?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: Result<[Float], Error>) { lock.withLock { results[index] = result } }
    func get(_ index: Int) throws -> [Float] { try XCTUnwrap(lock.withLock { results[index] }).get() }
}
