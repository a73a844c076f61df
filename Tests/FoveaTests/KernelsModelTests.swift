import FoveaCore
import XCTest
import FoveaTestSupport
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// The kernels backend on whole models against the reference (each node
/// within the loosest step tolerance upstream of it: a node after a Winograd
/// F6 step inherits its bound), under every Winograd policy, and on the
/// arena's hazard graphs.
final class KernelsModelTests: XCTestCase {
    /// Every Winograd policy: the measured table, the GEMM only, each variant forced.
    private static let policies: [WinogradPolicy] = [.measured, .off, .forced(.winogradF2), .forced(.winogradF4), .forced(.winogradF6)]

    /// The kernels backend with `policy`, as the registry builds it.
    private func kernels(_ policy: WinogradPolicy = .measured) throws -> any Backend {
        try BackendRegistry.standard(winograd: policy).backends(named: ["kernels"])[0]
    }

    private func randomFeeds(_ model: Model, seed: UInt64, batch: Int? = nil) throws -> [String: Tensor] {
        var generator = SeededGenerator(seed: seed)
        var feeds: [String: Tensor] = [:]
        for (name, type) in try model.plan().inputTypes {
            let shape = batch.map { [$0] + type.shape.dropFirst() } ?? type.shape
            feeds[name] = LayerCheck.randomTensor(shape, in: -1...1, using: &generator)
        }
        return feeds
    }

    /// The path of a convolution's algorithm string.
    private func isWinograd(_ algorithm: String, _ variant: String) -> Bool { algorithm.hasPrefix("winograd_\(variant)") }

    /// SqueezeNet 1.1 at batch 8 against the reference node by node: the
    /// GEMM convolutions run one product over all eight images' pixels
    /// (13×13 planes put image boundaries inside column panels).
    func testSqueezeNet11BatchOfEightParity() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        let feeds = try randomFeeds(model, seed: 18, batch: 8)
        let report = try XCTUnwrap(ParityCheck(model: model, threads: 2).run(inputs: feeds, backends: [try kernels()]).first)
        XCTAssertTrue(report.passed, "batch 8: max rel \(report.maxRelativeError) > bound \(report.tolerance)")
        XCTAssertLessThanOrEqual(report.maxRelativeError, 1e-4, "batch 8")
        XCTAssertEqual(report.fallbacks, [])
    }

    /// SqueezeNet 1.1 under each policy: parity with the reference, and the
    /// routing each policy promises (forced: every 3×3 stride-1 convolution
    /// on that variant, conv1's stride 2 on im2col; off: no Winograd).
    func testSqueezeNet11ParityUnderEveryWinogradPolicy() throws {
        let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"))
        let feeds = try randomFeeds(model, seed: 11)
        // Each Conv's shape: 1x1, 3x3 stride 1 (the fire modules' expand 3x3) or 3x3 stride 2 (conv1).
        var shapes: [String: String] = [:]
        for node in model.graph.nodes {
            guard case .conv(let attributes) = node.op, let w = model.graph.initializers[node.inputs[1]] else { continue }
            let stride = attributes.strides.isEmpty ? [1, 1] : attributes.strides
            shapes[node.name] = w.shape.dropFirst(2) == [1, 1] ? "1x1" : "3x3s\(stride[0])"
        }
        let reports = try ParityCheck(model: model, threads: 2).run(inputs: feeds, backends: Self.policies.map { try kernels($0) })
        for (policy, report) in zip(Self.policies, reports) {
            XCTAssertTrue(report.passed, "squeezenet1.1 \(policy): max rel \(report.maxRelativeError) > bound \(report.tolerance)")
            // The parity bound after an F6 step is 1e-3; measured, the whole network stays near 3e-6 under
            // every policy. 1e-4 (the GEMM's bound) catches a Winograd transform that is off by a little.
            XCTAssertLessThanOrEqual(report.maxRelativeError, 1e-4, "squeezenet1.1 \(policy)")
            XCTAssertEqual(report.backend, "kernels")
            // Every node runs on the kernels backend: SqueezeNet has nothing it lacks.
            XCTAssertEqual(report.fallbacks, [], "\(policy)")
            let convs = report.nodes.filter { $0.opType == "Conv" }
            XCTAssertEqual(convs.count, 26)
            XCTAssertEqual(convs.filter { shapes[$0.node] == "3x3s1" }.count, 8)
            for node in convs {
                switch (shapes[node.node], policy) {
                case ("1x1", _): XCTAssertTrue(node.algorithm.hasPrefix("gemm 1x1"), "\(policy) \(node.node): \(node.algorithm)")
                case ("3x3s2", _), ("3x3s1", .off):
                    XCTAssertTrue(node.algorithm.hasPrefix("im2col+gemm 3x3"), "\(policy) \(node.node): \(node.algorithm)")
                case ("3x3s1", .forced(let variant)):
                    XCTAssertTrue(isWinograd(node.algorithm, String(variant.rawValue.dropFirst("winograd-".count))),
                                  "\(policy) \(node.node): \(node.algorithm)")
                case ("3x3s1", .measured):
                    XCTAssertTrue(node.algorithm.hasPrefix("im2col+gemm 3x3") || node.algorithm.hasPrefix("winograd_f"), node.algorithm)
                default: XCTFail("\(node.node): unexpected shape \(shapes[node.node] ?? "?")")
                }
            }
            print("squeezenet1.1 kernels winograd \(policy): max rel \(report.maxRelativeError), bound \(report.tolerance)")
        }
        // A node on Winograd F6 has a looser step bound than its neighbours on
        // the GEMM, and the parity bound of every node after it inherits it.
        let f6Plan = try ExecutionPlan(graph: model.graph, backends: [try kernels(.forced(.winogradF6))], maxThreads: 2)
        let first = try XCTUnwrap(f6Plan.assignments.firstIndex { isWinograd($0.algorithm, "f6") })
        // The fire module's squeeze and expand 1x1 convolutions.
        let neighbours = f6Plan.assignments[..<first].filter { $0.opType == "Conv" }.suffix(2)
        XCTAssertEqual(neighbours.count, 2)
        let (squeeze, expand1) = (neighbours.first!, neighbours.last!)
        XCTAssertTrue(squeeze.algorithm.hasPrefix("gemm 1x1") && expand1.algorithm.hasPrefix("gemm 1x1"),
                      "\(squeeze.algorithm), \(expand1.algorithm)")
        XCTAssertGreaterThan(f6Plan.assignments[first].tolerance, squeeze.tolerance)
        XCTAssertGreaterThan(f6Plan.assignments[first].tolerance, expand1.tolerance)
        let f6 = reports[4].nodes
        XCTAssertEqual(f6[first].tolerance, f6Plan.assignments[first].tolerance)
        XCTAssertLessThan(f6[first - 1].tolerance, f6[first].tolerance, "before the first Winograd step")
        XCTAssertTrue(f6[first...].allSatisfy { $0.tolerance >= f6Plan.assignments[first].tolerance }, "downstream of it")
    }

    /// The other models (ONNX and Core ML) on the kernels backend with the
    /// measured table: parity, and the nodes it lacks (Gemm, BatchNorm, ...)
    /// fall through to the reference.
    func testParityOnSqueezeNet10AndCoreMLModels() throws {
        // (SqueezeNet11FP16 and SqueezeNet11Int8LUT, the same network with other
        // weights, are checked against Core ML's outputs on photos below: the
        // reference backend is slow in a debug build.)
        for file in ["squeezenet1.0.onnx", "coreml/SqueezeNet11.mlmodel", "coreml/TinyResNet.mlmodel", "coreml/TinyMobileNetV2.mlmodel",
                     "coreml/TinyOps.mlmodel"] {
            let model = try Model(contentsOfFile: TestData.model(file))
            let feeds = try randomFeeds(model, seed: 12)
            let report = try XCTUnwrap(ParityCheck(model: model, threads: 2).run(inputs: feeds, backends: [try kernels()]).first)
            XCTAssertTrue(report.passed, "\(file): max rel \(report.maxRelativeError) > bound \(report.tolerance)")
            XCTAssertTrue(report.nodes.contains { $0.backend == "kernels" && $0.opType == "Conv" }, file)
            print("\(file) kernels: max rel \(report.maxRelativeError), bound \(report.tolerance), fallbacks \(report.fallbacks.count)")
        }
    }

    /// Real photos (the exact 224×224 crops) through the kernels backend give
    /// the expected outputs: onnxruntime's logits for SqueezeNet 1.1 (measured
    /// table and Winograd F6) and probabilities for 1.0, Core ML's
    /// probabilities for the three SqueezeNet 1.1 .mlmodel files.
    func testRealPhotosGiveTheExpectedOutputs() throws {
        let imageNet = PixelNormalization.imageNet, half = try PixelNormalization(mean: [0.5, 0.5, 0.5], std: [0.5, 0.5, 0.5])
        let cases: [(file: String, expected: String, normalization: PixelNormalization?, policy: WinogradPolicy, bound: Float)] = [
            ("squeezenet1.1.onnx", "expected/%@.squeezenet1.1.logits.f32", imageNet, .measured, 1e-3),
            ("squeezenet1.1.onnx", "expected/%@.squeezenet1.1.logits.f32", imageNet, .forced(.winogradF6), 1e-3),
            ("squeezenet1.0.onnx", "expected/%@.squeezenet1.0.prob.f32", half, .measured, 1e-3),
            ("coreml/SqueezeNet11.mlmodel", "coreml/expected/%@.SqueezeNet11.probs.f32", nil, .measured, 1e-3),
            ("coreml/SqueezeNet11FP16.mlmodel", "coreml/expected/%@.SqueezeNet11FP16.probs.f32", nil, .forced(.winogradF4), 1e-3),
            ("coreml/SqueezeNet11Int8LUT.mlmodel", "coreml/expected/%@.SqueezeNet11Int8LUT.probs.f32", nil, .off, 1e-3),
        ]
        for (file, expectedPath, normalization, policy, bound) in cases {
            var model = try Model(contentsOfFile: TestData.model(file),
                                  configuration: ModelConfiguration(backends: ["kernels"], threads: 2, registry: .standard(winograd: policy)))
            if let normalization { model = try model.describing { $0.imageInput?.normalization = normalization } }
            let image = try XCTUnwrap(model.modelDescription.imageInput)
            let output = try XCTUnwrap(model.modelDescription.scoresOutputName)
            for photo in TestData.photoNames.prefix(file == "squeezenet1.1.onnx" ? 4 : 2) {
                let pixels = try ImageDecoder.decode(contentsOf: TestData.photo("\(photo).224.ppm"))
                let scores = try XCTUnwrap(model.predict([image.name: image.normalization.tensor(from: [pixels])])[output]?.floats)
                let expected = try TestData.floats(at: TestData.model(expectedPath.replacingOccurrences(of: "%@", with: photo)))
                XCTAssertEqual(scores.count, expected.count, "\(file) \(photo)")
                let largest = expected.map(abs).max() ?? 0
                let error = zip(scores, expected).map { abs($0 - $1) }.max() ?? .infinity
                XCTAssertLessThanOrEqual(error, bound * largest, "\(file) \(policy) on \(photo): max |Δ| \(error), max |expected| \(largest)")
                XCTAssertEqual(scores.indices.max { scores[$0] < scores[$1] }, expected.indices.max { expected[$0] < expected[$1] },
                               "\(file) \(policy) on \(photo): top-1")
            }
        }
    }

    // MARK: Arena hazards

    /// Random graphs that stress the memory planner (branches, Concats of
    /// shared values, in-place elementwise steps next to later readers,
    /// views, batch > 1) planned on the kernels backend alone and mixed with
    /// the SIMD backend: no overlap, and the graph interpreter's outputs.
    func testRandomHazardGraphs() throws {
        let alone: [any Backend] = [try kernels(.off)]
        let mixed = [try kernels(.forced(.winogradF2))] + (try BackendRegistry.standard.backends(named: ["simd"]))
        var kernelsSteps = 0
        for seed in 0..<150 {
            let (graph, feeds) = RandomGraphs.make(seed: UInt64(seed))
            let expected = try GraphInterpreter.evaluate(graph, feeds)
            for backends in [alone, mixed] {
                let plan = try ExecutionPlan(graph: graph, inputShapes: feeds.mapValues(\.shape), backends: backends, maxThreads: 2)
                XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory), graph.name)
                kernelsSteps += plan.assignments.filter { $0.backend == "kernels" }.count
                XCTAssertFalse(plan.assignments.contains { $0.isFallback }, "\(graph.name): \(plan.assignments.filter(\.isFallback))")
                let outputs = try plan.run(feeds, context: RunContext(threads: 1 + seed % 2))
                XCTAssertNil(GraphInterpreter.firstDifference(outputs, expected, graph: graph, bound: 1e-4),
                             "\(graph.name) on \(backends.map(\.name))")
            }
        }
        XCTAssertGreaterThan(kernelsSteps, 1000)
    }

    /// Real models on the kernels backend: the plan never overlaps two live
    /// buffers (batch 1 and 3 for the SqueezeNets), and a run is bit-identical
    /// with and without memory reuse and on a recycled arena with another
    /// thread count.
    func testRealModelsPlanWithoutOverlapAndRunBitIdenticalWithoutReuse() throws {
        let cases: [(file: String, batches: [Int], runs: [Int], policy: WinogradPolicy)] = [
            ("squeezenet1.1.onnx", [1, 3], [1, 2], .measured), ("squeezenet1.1.onnx", [1, 3], [], .forced(.winogradF6)),
            ("squeezenet1.0.onnx", [1, 3], [1], .forced(.winogradF4)), ("coreml/SqueezeNet11.mlmodel", [1], [], .off),
            ("coreml/TinyMobileNetV2.mlmodel", [1], [1], .measured), ("coreml/TinyResNet.mlmodel", [1], [1], .forced(.winogradF2)),
            ("coreml/TinyOps.mlmodel", [1], [1], .measured), ("coreml/TinyMobileNetV2.onnx", [1], [1], .off),
            ("coreml/TinyResNet.onnx", [1], [1], .measured),
        ]
        for (file, batches, runs, policy) in cases {
            let model = try Model(contentsOfFile: TestData.model(file),
                                  configuration: ModelConfiguration(backends: ["kernels"], threads: 2, registry: .standard(winograd: policy)))
            for batch in Set(batches + runs).sorted() {
                var shapes: [String: [Int]] = [:]
                for input in model.graph.inputs { shapes[input.name] = [batch] + (input.knownShape ?? []).dropFirst() }
                let plan = try model.plan(inputShapes: shapes)
                let label = "\(file) \(policy) batch \(batch)"
                XCTAssertNil(MemoryPlanCheck.firstConflict(plan.memory), label)
                XCTAssertTrue(plan.assignments.contains { $0.backend == "kernels" }, label)
                guard runs.contains(batch) else { continue }
                let feeds = try randomFeeds(model, seed: 7, batch: batch)
                let reused = try plan.run(feeds, context: RunContext(threads: 2))
                let kept = try plan.runKeepingAllValues(feeds, context: RunContext(threads: 2))
                let again = try plan.run(feeds, context: RunContext(threads: 1))
                for (name, tensor) in reused {
                    XCTAssertTrue(sameBits(tensor, kept[name]!), "\(label): \(name) differs without reuse")
                    XCTAssertTrue(sameBits(tensor, again[name]!), "\(label): \(name) differs on a rerun with 1 thread")
                }
            }
        }
    }

    /// SqueezeNet 1.1 on the kernels backend: an arena near the lower bound,
    /// every fire Concat elided (the expand convolutions, GEMM or Winograd,
    /// write into its halves), Flatten a view.
    func testSqueezeNet11ArenaOnKernels() throws {
        for policy in [WinogradPolicy.off, .forced(.winogradF4)] {
            let model = try Model(contentsOfFile: TestData.model("squeezenet1.1.onnx"),
                                  configuration: ModelConfiguration(backends: ["kernels"], threads: 2,
                                                                    registry: .standard(winograd: policy)))
            let plan = try model.plan()
            let memory = plan.memory
            XCTAssertLessThanOrEqual(Double(memory.arenaBytes), 1.05 * Double(memory.lowerBoundBytes), "\(policy)")
            XCTAssertLessThan(memory.arenaBytes, memory.naiveBytes / 3, "\(policy)")
            for (index, node) in plan.graph.nodes.enumerated() where node.op.typeName == "Concat" {
                XCTAssertEqual(plan.memory.actionDescription(index), "elided concat", "\(policy) \(node.name)")
            }
            for (index, node) in plan.graph.nodes.enumerated() where node.op.isView {
                XCTAssertEqual(plan.memory.actionDescription(index), "view", "\(policy) \(node.name)")
            }
        }
    }
}
