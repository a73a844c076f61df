import Foundation
import XCTest
import FoveaCore
import FoveaKernelsBackend
import FoveaTestSupport
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// MobileNetV2 (BatchNormalization folded, and explicit: folded by Fovea, and
/// kept as nodes) and ResNet-50 as published, with seeded random weights,
/// written by `scripts/ci/arch-models.sh`: every backend against the reference
/// node by node (`ParityCheck`, each step within its written tolerance), and
/// the default backends' output against onnxruntime's on the same input.
///
/// Release builds only: the reference backend and the C kernels compiled at
/// -O0 take minutes on ResNet-50's 4 GMACs. `scripts/ci/test.sh` writes the
/// models and runs this class in its (release) swift test step; elsewhere it is skipped
/// when the models are absent, with the command that writes them.
final class ArchModelTests: XCTestCase {
    /// `FOVEA_ARCH_MODELS`, or `.build-arch-models` in the package (the script's default).
    private static var directory: String {
        ProcessInfo.processInfo.environment["FOVEA_ARCH_MODELS"]
            ?? TestData.packageRoot.appendingPathComponent(".build-arch-models").path
    }

    private func files(_ name: String) throws -> (model: String, input: Tensor, onnxruntime: Tensor) {
        #if DEBUG
        throw XCTSkip("runs in release builds only (swift test -c release --filter ArchModelTests)")
        #else
        let folder = "\(Self.directory)/\(name)"
        guard FileManager.default.fileExists(atPath: "\(folder)/ort_output.npy") else {
            throw XCTSkip("\(folder) is missing: run scripts/ci/arch-models.sh")
        }
        return ("\(folder)/\(name).onnx", try NumpyFile.read(contentsOf: "\(folder)/input.npy"),
                try NumpyFile.read(contentsOf: "\(folder)/ort_output.npy"))
        #endif
    }

    /// Parity of kernels, simd and blas with the reference, and the default plan against onnxruntime.
    private func check(_ name: String, optimizations: OptimizationOptions = OptimizationOptions(),
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let (path, input, onnxruntime) = try files(name)
        var configuration = ModelConfiguration(threads: 2)
        configuration.optimizations = optimizations
        let model = try Model(contentsOfFile: path, configuration: configuration)
        let feeds = [model.graph.inputs[0].name: input]

        let backends = try BackendRegistry.standard.backends(named: ["kernels", "simd", "blas"])
        for report in try ParityCheck(model: model, threads: 2).run(inputs: feeds, backends: backends) {
            XCTAssertTrue(report.passed, "\(name) \(report.backend): max rel \(report.maxRelativeError) above \(report.tolerance)",
                          file: file, line: line)
            // MaxPool, GlobalAveragePool and Flatten fall back on simd; the kernels backend runs every node.
            if report.backend == "kernels" {
                XCTAssertEqual(report.fallbacks, [], "\(name)", file: file, line: line)
            }
        }

        let output = try XCTUnwrap(model.predict(feeds).values.first?.floats, file: file, line: line)
        let expected = try XCTUnwrap(onnxruntime.floats, file: file, line: line)
        XCTAssertEqual(output.count, expected.count, file: file, line: line)
        let scale = expected.map(abs).max() ?? 1
        let error = zip(output, expected).map { abs($0 - $1) }.max() ?? .infinity
        XCTAssertLessThanOrEqual(error / scale, 1e-4, "\(name): against onnxruntime", file: file, line: line)
        XCTAssertEqual(output.indices.max { output[$0] < output[$1] }, expected.indices.max { expected[$0] < expected[$1] },
                       "\(name): top-1", file: file, line: line)
    }

    func testResNet50() throws {
        try check("resnet50")
    }

    func testResNet50Unfused() throws {
        try check("resnet50", optimizations: OptimizationOptions(foldBatchNormalization: false, fuseActivations: false))
    }

    func testMobileNetV2() throws {
        try check("mobilenetv2")
    }

    func testMobileNetV2WithBatchNormalizationFolded() throws {
        try check("mobilenetv2_bn")
    }

    func testMobileNetV2WithBatchNormalizationKept() throws {
        try check("mobilenetv2_bn", optimizations: OptimizationOptions(foldBatchNormalization: false))
    }

    /// Issue 31 on the published architectures: the kernels backend's bf16 plan,
    /// every step within its own tolerance on the inputs it was given (a bf16
    /// step really rounding: above float32's error), and the whole model's
    /// output within the bf16 bound of the same backend in float32. The error
    /// from the input on is not bounded: 17 blocks of bf16 roundings compound
    /// to about 12% on MobileNetV2's seeded weights (ParityCheck says why).
    private func checkBF16(_ name: String, bf16Steps: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let (path, input, _) = try files(name)
        let model = try Model(contentsOfFile: path, configuration: ModelConfiguration(threads: 2))
        let feeds = [model.graph.inputs[0].name: input]
        let kernels = try BackendRegistry.standard.backends(named: ["kernels"])
        let check = ParityCheck(model: model, threads: 2, precision: .bf16)
        let report = try XCTUnwrap(check.run(inputs: feeds, backends: kernels).first, file: file, line: line)
        XCTAssertTrue(report.passed, "\(name): " + report.nodes.filter { !$0.passed }.map(\.node).joined(separator: ", "),
                      file: file, line: line)
        let reduced = report.nodes.filter { $0.precision == .bf16 }
        XCTAssertGreaterThanOrEqual(reduced.count, bf16Steps, name, file: file, line: line)
        for node in report.nodes {
            let step = try XCTUnwrap(node.stepRelativeError, "\(name) \(node.node)", file: file, line: line)
            XCTAssertLessThanOrEqual(step, node.stepTolerance, "\(name) \(node.node)", file: file, line: line)
        }
        XCTAssertGreaterThan(reduced.compactMap(\.stepRelativeError).max() ?? 0, 1e-4, "\(name): no step rounded to bf16",
                             file: file, line: line)
        let cost = try XCTUnwrap(check.comparePrecision(samples: [feeds], backends: kernels).first, file: file, line: line)
        XCTAssertEqual(cost.reducedSteps, reduced.count, name, file: file, line: line)
        XCTAssertLessThanOrEqual(cost.maxRelativeLogitError, KernelsBackend.bf16Tolerance, name, file: file, line: line)
    }

    func testResNet50AtBF16() throws {
        try checkBF16("resnet50", bf16Steps: 30)
    }

    func testMobileNetV2AtBF16() throws {
        try checkBF16("mobilenetv2", bf16Steps: 30)
    }

    func testMobileNetV2WithBatchNormalizationAtBF16() throws {
        try checkBF16("mobilenetv2_bn", bf16Steps: 30)
    }

    /// The residual Adds are fused into the Convs before them (16 in ResNet-50, 10 in MobileNetV2).
    func testResidualAddsAreFused() throws {
        for (name, adds) in [("resnet50", 16), ("mobilenetv2", 10)] {
            let (path, _, _) = try files(name)
            let model = try Model(contentsOfFile: path)
            XCTAssertNil(model.graph.opHistogram["Add"], name)
            let fused = try model.plan().assignments.filter { $0.algorithm.contains("+add") }
            XCTAssertEqual(fused.count, adds, name)
        }
    }

    /// Batch 8 on the kernels backend (one GEMM per layer over the batch):
    /// each image of the batch agrees with the same image run alone, and the
    /// image that is the script's input agrees with onnxruntime's output.
    func testBatchOfEightMatchesSingleImages() throws {
        for name in ["mobilenetv2", "resnet50"] {
            let (path, input, onnxruntime) = try files(name)
            let model = try Model(contentsOfFile: path, configuration: ModelConfiguration(backends: ["kernels"], threads: 2))
            let inputName = model.graph.inputs[0].name
            let base = try XCTUnwrap(input.floats)
            var generator = SeededGenerator(seed: 18)
            // Image 3 is the script's input; the others are it plus noise, so every image differs.
            let images = (0..<8).map { index in
                index == 3 ? base : base.map { $0 + 0.5 * generator.nextGaussian() }
            }
            let batch = try Tensor(shape: [8] + input.shape.dropFirst(), floats: images.flatMap { $0 })
            let batched = try XCTUnwrap(model.predict([inputName: batch]).values.first?.floats)
            let classes = batched.count / 8
            for (index, image) in images.enumerated() {
                let alone = try XCTUnwrap(model.predict([inputName: try Tensor(shape: input.shape, floats: image)]).values.first?.floats)
                let row = Array(batched[index * classes..<(index + 1) * classes])
                let scale = alone.map(abs).max() ?? 1
                let error = zip(row, alone).map { abs($0 - $1) }.max() ?? .infinity
                XCTAssertLessThanOrEqual(error / scale, 1e-4, "\(name) image \(index): batch of 8 against alone")
            }
            let expected = try XCTUnwrap(onnxruntime.floats)
            let row = Array(batched[3 * classes..<4 * classes])
            let scale = expected.map(abs).max() ?? 1
            XCTAssertLessThanOrEqual((zip(row, expected).map { abs($0 - $1) }.max() ?? .infinity) / scale, 1e-4,
                                     "\(name): batch of 8 against onnxruntime")
        }
    }
}
