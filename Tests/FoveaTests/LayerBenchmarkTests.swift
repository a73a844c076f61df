import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import FoveaCore
import XCTest
@_spi(Internals) @testable import Fovea
@testable import FoveaTools

/// `LayerBenchmark` (distinct layers, one backend at a time), its SVG chart,
/// the FMA peak probe, and `fovea bench --layers`. No test asserts a duration.
final class LayerBenchmarkTests: XCTestCase {
    /// A fixed peak, so the tests do not pay for the probe and percentages are checkable.
    private let peak = FMAPeak(isa: "test", gflopsPerCore: 100)

    /// x → conv_a → conv_b (the same layer as conv_a, other weights) → conv_s (stride 2)
    ///   → pool → flatten (a view) → y.
    private func smallGraph() throws -> Graph {
        func conv(_ name: String, _ input: String, _ output: String, _ weight: String, stride: Int) -> Node {
            Node(name: name, op: .conv(ConvAttributes(kernelShape: [3, 3], strides: [stride, stride], dilations: [1, 1],
                                                     pads: [1, 1, 1, 1], activation: .relu)),
                 inputs: [input, weight, weight + "_bias"], outputs: [output])
        }
        var generator = SeededGenerator(seed: 7)
        func weights(_ shape: [Int]) throws -> Tensor {
            try Tensor(shape: shape, floats: (0..<shape.elementCount).map { _ in generator.nextGaussian() * 0.1 })
        }
        var initializers: [String: Tensor] = [:]
        for name in ["wa", "wb", "ws"] {
            initializers[name] = try weights([4, 4, 3, 3])
            initializers[name + "_bias"] = try weights([4])
        }
        let pool = Node(name: "pool", op: .maxPool(PoolAttributes(kernelShape: [2, 2], strides: [2, 2], dilations: [1, 1],
                                                                   pads: [0, 0, 0, 0])),
                        inputs: ["s"], outputs: ["p"])
        return Graph(name: "small",
                     inputs: [ValueInfo(name: "x", dataType: .float32, dimensions: [1, 4, 8, 8].map { .known($0) })],
                     outputs: [ValueInfo(name: "y", dataType: .float32, dimensions: nil)],
                     nodes: [conv("conv_a", "x", "a", "wa", stride: 1), conv("conv_b", "a", "b", "wb", stride: 1),
                             conv("conv_s", "b", "s", "ws", stride: 2), pool,
                             Node(name: "flatten", op: .flatten(axis: 1), inputs: ["p"], outputs: ["y"])],
                     initializers: initializers)
    }

    private func smallBenchmark() throws -> LayerBenchmark {
        let graph = try smallGraph()
        return LayerBenchmark(graph: graph, valueTypes: try graph.inferTypes())
    }

    func testIdenticalNodesAreOneLayerAndViewsAreLeftOut() throws {
        let layers = try smallBenchmark().layers
        XCTAssertEqual(layers.map(\.nodeNames), [["conv_a", "conv_b"], ["conv_s"], ["pool"]])
        XCTAssertEqual(layers.map(\.count), [2, 1, 1])
        XCTAssertEqual(layers.map(\.summary), ["Conv 3×3 +relu", "Conv 3×3/2 +relu", "MaxPool 2×2/2"])
        XCTAssertEqual(layers[0].shapeDescription, "1×4×8×8 → 1×4×8×8")
        XCTAssertEqual(layers[1].shapeDescription, "1×4×8×8 → 1×4×4×4")
        // 256 outputs × (4 input channels × 9 taps); 64 outputs for the strided one; pooling has none.
        XCTAssertEqual(layers.map(\.multiplyAccumulates), [256 * 36, 64 * 36, 0])
        // Bytes: input, weights, bias and output, once each (pooling: input and output).
        XCTAssertEqual(layers.map(\.bytesMoved), [4 * (256 + 144 + 4 + 256), 4 * (256 + 144 + 4 + 64), 4 * (64 + 16)])
        // The weights travel with the layer: the representative's own.
        XCTAssertEqual(Set(layers[0].constantInputs.keys), [1, 2])
        let graph = LayerBenchmark.graph(of: layers[0])
        XCTAssertEqual(graph.nodes.count, 1)
        XCTAssertEqual(graph.inputs.map(\.name), ["x"])
        XCTAssertEqual(Set(graph.initializers.keys), ["wa", "wa_bias"])
        XCTAssertEqual(graph.outputs.map(\.knownShape), [[1, 4, 8, 8]])
    }

    func testSameOperatorWithOtherShapesOrAttributesIsAnotherLayer() throws {
        var graph = try smallGraph()
        // conv_b without its activation: no longer the same layer as conv_a.
        guard case .conv(var attributes) = graph.nodes[1].op else { return XCTFail("conv_b is a Conv") }
        attributes.activation = nil
        graph.nodes[1].op = .conv(attributes)
        let layers = LayerBenchmark(graph: graph, valueTypes: try graph.inferTypes()).layers
        XCTAssertEqual(layers.map(\.nodeNames), [["conv_a"], ["conv_b"], ["conv_s"], ["pool"]])
        // A batch of 2 changes every shape but not the grouping.
        let batched = LayerBenchmark(graph: try smallGraph(), valueTypes: try smallGraph().inferTypes(inputShapes: ["x": [2, 4, 8, 8]]))
        XCTAssertEqual(batched.layers.map(\.count), [2, 1, 1])
        XCTAssertEqual(batched.layers[0].shapeDescription, "2×4×8×8 → 2×4×8×8")
    }

    func testEverySupportingBackendIsMeasuredAndGFLOPSFollowFromTheTime() throws {
        let benchmark = try smallBenchmark()
        let backends = BackendRegistry.standard.backends
        let bandwidth = MemoryBandwidth(threads: 1, gigabytesPerSecond: 50)
        let result = try benchmark.run(backends: backends, threads: 1, runs: 2, warmup: 1, peak: peak, bandwidth: bandwidth)
        XCTAssertEqual(result.layers.count, 3)
        XCTAssertEqual(result.bandwidth, bandwidth)
        XCTAssertEqual(result.threads, 1)
        XCTAssertEqual(result.runs, 2)
        XCTAssertEqual(result.peak, peak)
        for (layer, measured) in zip(benchmark.layers, result.layers) {
            let expected = backends.filter { $0.supports(layer.context) }.map(\.name)
            XCTAssertEqual(measured.backends.map(\.backend), expected, measured.op)
            XCTAssertTrue(expected.contains(ReferenceBackend.name), "the reference backend runs every layer")
            XCTAssertEqual(measured.nodes, layer.nodeNames)
            XCTAssertEqual(measured.multiplyAccumulates, layer.multiplyAccumulates)
            for entry in measured.backends {
                XCTAssertFalse(entry.algorithm.isEmpty, "\(measured.op) on \(entry.backend)")
                XCTAssertGreaterThan(entry.milliseconds, 0, "\(measured.op) on \(entry.backend)")
                if layer.multiplyAccumulates > 0 {
                    let gflops = 2 * Double(layer.multiplyAccumulates) / (entry.milliseconds * 1e6)
                    XCTAssertEqual(entry.gflops, gflops, accuracy: gflops * 1e-9)
                    XCTAssertEqual(entry.percentOfPeak, 100 * entry.gflops / peak.gflopsPerCore, accuracy: 1e-9 * entry.percentOfPeak)
                } else {
                    XCTAssertEqual(entry.gflops, 0)
                    XCTAssertEqual(entry.percentOfPeak, 0)
                }
                // GB/s for every layer: its bytes over the time, and a share of the given bandwidth.
                let gigabytes = Double(layer.bytesMoved) / (entry.milliseconds * 1e6)
                XCTAssertEqual(entry.gigabytesPerSecond, gigabytes, accuracy: gigabytes * 1e-9)
                XCTAssertEqual(entry.percentOfBandwidth, 100 * gigabytes / 50, accuracy: 1e-9 * entry.percentOfBandwidth)
            }
        }
        // The convolutions run on simd and blas too; the pooling not on blas.
        XCTAssertTrue(Set(result.layers[0].backends.map(\.backend)).isSuperset(of: ["simd", "blas", "reference"]))
        XCTAssertTrue(Set(result.layers[2].backends.map(\.backend)).isSuperset(of: ["simd", "reference"]))
        XCTAssertFalse(result.layers[2].backends.contains { $0.backend == "blas" })
        XCTAssertEqual(result.measurementCount, benchmark.layers.reduce(0) { count, layer in
            count + backends.filter { $0.supports(layer.context) }.count
        })

        // Two threads: the percentage is of twice the peak.
        let two = try benchmark.run(backends: [ReferenceBackend()], threads: 2, runs: 1, warmup: 0, peak: peak)
        XCTAssertEqual(two.peakGFLOPS, 200)
        let entry = try XCTUnwrap(two.layers.first?.backends.first)
        XCTAssertEqual(entry.percentOfPeak, 100 * entry.gflops / 200, accuracy: 1e-9 * entry.percentOfPeak)

        // The JSON keys.
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: JSONEncoder().encode(result)) as? [String: Any])
        XCTAssertEqual(Set(json.keys), ["cpu", "peak", "bandwidth", "threads", "runs", "warmup", "layers"])
        let layer = try XCTUnwrap((json["layers"] as? [[String: Any]])?.first)
        XCTAssertEqual(layer["macs"] as? Int, 256 * 36)
        XCTAssertEqual(layer["op_type"] as? String, "Conv")
        XCTAssertEqual(layer["bytes"] as? Int, 4 * (256 + 144 + 4 + 256))
        XCTAssertEqual((json["bandwidth"] as? [String: Any])?["gb_per_s"] as? Double, 50)
        let first = try XCTUnwrap((layer["backends"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(first.keys), ["backend", "algorithm", "ms", "gflops", "peak_percent", "gb_per_s", "bandwidth_percent"])
    }

    func testBadArgumentsAreClearErrors() throws {
        let benchmark = try smallBenchmark()
        func message(_ body: () throws -> Any) -> String {
            do {
                _ = try body()
                return "no error"
            } catch let error as FoveaError {
                XCTAssertEqual(error.kind, .invalidArgument)
                return error.description
            } catch {
                return "unexpected \(error)"
            }
        }
        XCTAssertTrue(message { try benchmark.run(backends: [ReferenceBackend()], runs: 0, peak: self.peak) }
            .contains("runs must be at least 1"))
        XCTAssertTrue(message { try benchmark.run(backends: [ReferenceBackend()], runs: 1, warmup: -1, peak: self.peak) }
            .contains("warmup must be at least 0"))
        XCTAssertTrue(message { try benchmark.run(backends: [ReferenceBackend()], threads: 0, peak: self.peak) }
            .contains("threads must be at least 1"))
        XCTAssertTrue(message { try benchmark.run(backends: [], peak: self.peak) }.contains("the backend list is empty"))
        XCTAssertTrue(message { try benchmark.run(backends: [ReferenceBackend(), ReferenceBackend()], peak: self.peak) }
            .contains("listed twice"))

        let unknown = message { try LayerBenchmark.backends(named: ["simd", "cuda"]) }
        XCTAssertTrue(unknown.contains("unknown backend 'cuda'")
                      && unknown.contains(BackendRegistry.standard.names.joined(separator: ", ")), unknown)
        XCTAssertTrue(message { try LayerBenchmark.backends(named: []) }.contains("empty"))
        XCTAssertTrue(message { try LayerBenchmark.backends(named: ["simd", "simd"]) }.contains("listed twice"))
        XCTAssertEqual(try LayerBenchmark.backends(named: nil).map(\.name), BackendRegistry.standard.names)
        XCTAssertEqual(try LayerBenchmark.backends(named: ["reference", "simd"]).map(\.name), ["reference", "simd"])
    }

    // MARK: - The chart

    /// A result with made-up numbers (and text that needs escaping).
    private func syntheticResult() -> LayerBenchmark.Result {
        let conv = LayerBenchmark.LayerResult(
            index: 1, op: "Conv 3×3 +relu", opType: "Conv", shape: "1×64×55×55 → 1×64×55×55", count: 2,
            nodes: ["fire<2>/expand3x3", "fire&3"], multiplyAccumulates: 1_000_000,
            backends: [.init(backend: "simd", algorithm: "im2col+gemm 8x32", milliseconds: 0.02, gflops: 100, percentOfPeak: 85),
                       .init(backend: "blas", algorithm: "sgemm \"im2col\"", milliseconds: 0.05, gflops: 40, percentOfPeak: 34),
                       .init(backend: "reference", algorithm: "reference", milliseconds: 3.5, gflops: 0.6, percentOfPeak: 0.5)])
        let pool = LayerBenchmark.LayerResult(
            index: 2, op: "MaxPool 3×3/2", opType: "MaxPool", shape: "1×64×55×55 → 1×64×27×27", count: 1,
            nodes: ["pool"], multiplyAccumulates: 0,
            backends: [.init(backend: "simd", algorithm: "direct", milliseconds: 0.004, gflops: 0, percentOfPeak: 0),
                       .init(backend: "reference", algorithm: "reference", milliseconds: 0.4, gflops: 0, percentOfPeak: 0)])
        return LayerBenchmark.Result(cpu: CPUDescription(modelName: "Test CPU <1>", family: 25, model: 17, activeProcessors: 2),
                                     peak: FMAPeak(isa: "avx512", gflopsPerCore: 117.5), threads: 1, runs: 5, warmup: 1,
                                     layers: [conv, pool])
    }

    func testChartIsWellFormedSVGWithOneBarPerRow() throws {
        let result = syntheticResult()
        for metric in LayerBenchmarkChart.Metric.allCases {
            let svg = LayerBenchmarkChart.svg(result, metric: metric, title: "model & co")
            let document = try XMLDocumentSummary(svg)
            XCTAssertEqual(document.root, "svg", metric.rawValue)
            XCTAssertEqual(document.bars.count, result.measurementCount, metric.rawValue)
            XCTAssertTrue(document.bars.allSatisfy { $0 >= 0 && $0.isFinite }, "\(document.bars)")
            XCTAssertTrue(document.text.contains("im2col+gemm 8x32"), metric.rawValue)
            XCTAssertTrue(document.text.contains("fire<2>/expand3x3"), "node names are in the tooltips")
            XCTAssertTrue(document.text.contains("Test CPU <1> (family 25, model 17)"))
            XCTAssertTrue(document.text.contains("117.5"), "the measured peak is in the heading")
            for name in ["simd", "blas", "reference"] { XCTAssertTrue(document.text.contains(name)) }
        }
        // Time: a slower backend has a longer bar. Peak: the layer without multiply-adds has none.
        let time = try XMLDocumentSummary(LayerBenchmarkChart.svg(result, metric: .milliseconds)).bars
        XCTAssertLessThan(time[0], time[1])
        XCTAssertLessThan(time[1], time[2])
        XCTAssertGreaterThan(time[3], 0)
        let peak = try XMLDocumentSummary(LayerBenchmarkChart.svg(result, metric: .percentOfPeak)).bars
        XCTAssertGreaterThan(peak[0], peak[1])
        XCTAssertEqual(peak[3], 0)
        XCTAssertEqual(peak[4], 0)
    }

    func testChartOfARealRun() throws {
        let result = try smallBenchmark().run(backends: BackendRegistry.standard.backends, threads: 1, runs: 1, warmup: 0, peak: peak)
        let document = try XMLDocumentSummary(LayerBenchmarkChart.svg(result))
        XCTAssertEqual(document.bars.count, result.measurementCount)
    }

    // MARK: - The machine

    func testCPUDescriptionFromProcCPUInfo() {
        let text = """
        processor\t: 0
        vendor_id\t: AuthenticAMD
        cpu family\t: 25
        model\t\t: 17
        model name\t: AMD EPYC 9R14 96-Core Processor

        processor\t: 1
        cpu family\t: 99
        model name\t: Other
        """
        let cpu = CPUDescription.parse(cpuinfo: text, activeProcessors: 2)
        XCTAssertEqual(cpu, CPUDescription(modelName: "AMD EPYC 9R14 96-Core Processor", family: 25, model: 17, activeProcessors: 2))
        XCTAssertEqual(cpu.description, "AMD EPYC 9R14 96-Core Processor (family 25, model 17), 2 processors")
        XCTAssertEqual(CPUDescription.parse(cpuinfo: "", activeProcessors: 1).description, "unknown, 1 processor")
    }

    func testFMAPeakProbeMeasuresSupportedISAsOnly() {
        XCTAssertEqual(FMAPeak.measure(isa: "sse9", seconds: 0.01).gflopsPerCore, 0)
        let best = FMAPeak.measure(isa: nil, seconds: 0.02)
        XCTAssertEqual(best.isa, FMAPeak.bestISA)
        XCTAssertGreaterThan(best.gflopsPerCore, 0)
        XCTAssertGreaterThan(FMAPeak.measure(isa: "scalar", seconds: 0.01).gflopsPerCore, 0)
    }

    func testMemoryBandwidthProbeIsPositiveAndCachedPerThreadCount() {
        let one = MemoryBandwidth.measure(threads: 1, seconds: 0.02)
        XCTAssertEqual(one.threads, 1)
        XCTAssertGreaterThan(one.gigabytesPerSecond, 0)
        let cached = MemoryBandwidth.measured(threads: 2)
        XCTAssertEqual(cached.threads, 2)
        XCTAssertGreaterThan(cached.gigabytesPerSecond, 0)
        XCTAssertEqual(MemoryBandwidth.measured(threads: 2), cached, "measured once per thread count")
    }

    // MARK: - The command

    func testBenchLayersCommand() throws {
        let model = TestData.model("coreml/TinyResNet.onnx")
        let directory = try TestData.temporaryDirectory()
        let svg = directory.appendingPathComponent("layers.svg").path
        let json = try TestData.runFovea(["bench", "--model", model, "--layers", "--backends", "simd,reference",
                                          "--threads", "1", "--runs", "2", "--warmup", "0", "--json", "--svg", svg])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["threads"] as? Int, 1)
        XCTAssertEqual(object["runs"] as? Int, 2)
        let peak = try XCTUnwrap(object["peak"] as? [String: Any])
        XCTAssertGreaterThan(peak["gflops_per_core"] as? Double ?? 0, 0)
        XCTAssertEqual(peak["isa"] as? String, FMAPeak.bestISA)
        let bandwidth = try XCTUnwrap(object["bandwidth"] as? [String: Any])
        XCTAssertGreaterThan(bandwidth["gb_per_s"] as? Double ?? 0, 0)
        XCTAssertEqual(bandwidth["threads"] as? Int, 1)
        let layers = try XCTUnwrap(object["layers"] as? [[String: Any]])
        XCTAssertFalse(layers.isEmpty)
        var measurements = 0
        for layer in layers {
            let backends = try XCTUnwrap(layer["backends"] as? [[String: Any]])
            let names = backends.compactMap { $0["backend"] as? String }
            XCTAssertTrue(names.contains("reference"), "\(layer)")
            XCTAssertTrue(Set(names).isSubset(of: ["simd", "reference"]), "\(names)")
            measurements += backends.count
        }
        XCTAssertTrue(layers.contains { ($0["op_type"] as? String) == "Conv" && (($0["macs"] as? Int) ?? 0) > 0 })
        XCTAssertEqual(try XMLDocumentSummary(String(contentsOfFile: svg, encoding: .utf8)).bars.count, measurements)

        let text = try TestData.runFovea(["bench", "--model", model, "--layers", "--threads", "1", "--runs", "1", "--warmup", "0"])
        XCTAssertEqual(text.status, 0, text.stderr)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("cpu: ") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("peak: ") && $0.contains("GFLOP/s per core, measured") }, text.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("bandwidth: ") && $0.contains("GB/s, measured") }, text.stdout)
        let header = try XCTUnwrap(lines.first { $0.hasPrefix("#") })
        for column in ["layer", "shape", "backend", "algorithm", "ms", "GFLOP/s", "% peak", "GB/s", "% bw"] {
            XCTAssertTrue(header.contains(column), header)
        }
        // Without --backends, every registered backend that runs a layer appears.
        for name in BackendRegistry.standard.names {
            XCTAssertTrue(lines.contains { $0.contains(" \(name) ") }, "\(name) missing:\n\(text.stdout)")
        }
    }

    /// The registry's settings reach the layer benchmark: --winograd off keeps the kernels backend on its GEMM.
    func testBenchLayersCommandHonoursWinogradSetting() throws {
        let result = try TestData.runFovea(["bench", "--model", TestData.model("coreml/TinyResNet.onnx"), "--layers",
                                            "--backends", "kernels", "--winograd", "off", "--threads", "1",
                                            "--runs", "1", "--warmup", "0", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let algorithms = (object["layers"] as? [[String: Any]] ?? []).flatMap { layer in
            (layer["backends"] as? [[String: Any]] ?? []).compactMap { $0["algorithm"] as? String }
        }
        XCTAssertTrue(algorithms.contains { $0.contains("gemm") }, "\(algorithms)")
        XCTAssertFalse(algorithms.contains { $0.contains("winograd") }, "\(algorithms)")
    }

    func testBenchLayersCommandRejectsBadInput() throws {
        let model = TestData.model("coreml/TinyResNet.onnx")
        let cases: [([String], String)] = [
            (["--layers", "--backends", "simd,bogus"], "unknown backend 'bogus'"),
            (["--layers", "--runs", "0"], "--runs must be in 1...100000"),
            (["--layers", "--backends", ","], "--backends needs at least one name"),
            (["--backends", "simd"], "--backends needs --layers"),
            (["--svg", "/tmp/x.svg"], "--svg needs --layers"),
            (["--layers", "--svg-metric", "peak"], "--svg-metric needs --svg"),
            (["--layers", "--svg", "/tmp/x.svg", "--svg-metric", "watts"], "svg-metric"),
            (["--layers", "--backend", "simd"], "--backends"),
        ]
        for (arguments, expected) in cases {
            let result = try TestData.runFovea(["bench", "--model", model, "--runs", "1"] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): every bad flag value exits with the usage code")
            XCTAssertTrue(result.stderr.contains(expected), "\(arguments): \(result.stderr)")
        }
    }
}

/// What the tests read from an SVG document: it must parse as XML.
private struct XMLDocumentSummary {
    var root = ""
    /// The width of every `<rect class="bar">`, in document order.
    var bars: [Double] = []
    /// All text content and attribute values, unescaped.
    var text = ""

    init(_ svg: String) throws {
        let delegate = Delegate()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw FoveaError(.invalidArgument, "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "?")")
        }
        root = delegate.root ?? ""
        bars = delegate.bars
        text = delegate.text
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        var root: String?
        var bars: [Double] = []
        var text = ""

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = elementName }
            if elementName == "rect", attributes["class"] == "bar" {
                bars.append(Double(attributes["width"] ?? "") ?? -1)
            }
            text += attributes.values.joined(separator: " ") + " "
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }
    }
}
