import Foundation
import XCTest
@_spi(Internals) @testable import Fovea
@testable import FoveaTools
@testable import FoveaONNX

/// Issue 11 through the `fovea` tool: memory and image limits, special files,
/// escaped names, one error prefix, the usage exit code for bad flags, bounded
/// run counts, clamped threads, cycles.
final class HardeningCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TestData.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: ONNX models built here

    private func valueInfo(_ name: String, dims: [Int]?) -> Onnx_ValueInfoProto {
        var info = Onnx_ValueInfoProto()
        info.name = name
        var tensor = Onnx_TypeProto.Tensor()
        tensor.elemType = Int32(Onnx_TensorProto.DataType.float.rawValue)
        if let dims {
            var shape = Onnx_TensorShapeProto()
            shape.dim = dims.map { var d = Onnx_TensorShapeProto.TensorDimension(); d.dimValue = Int64($0); return d }
            tensor.shape = shape
        }
        info.type.tensorType = tensor
        return info
    }

    private func node(_ op: String, _ inputs: [String], _ outputs: [String], name: String) -> Onnx_NodeProto {
        var node = Onnx_NodeProto()
        node.opType = op
        node.input = inputs
        node.output = outputs
        node.name = name
        return node
    }

    private func floatTensor(_ name: String, dims: [Int64], raw: [Float]) -> Onnx_TensorProto {
        var tensor = Onnx_TensorProto()
        tensor.name = name
        tensor.dims = dims
        tensor.dataType = Int32(Onnx_TensorProto.DataType.float.rawValue)
        var data = Data()
        for value in raw { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        tensor.rawData = data
        return tensor
    }

    /// Writes an opset-13 model and returns its path.
    private func writeModel(_ name: String, nodes: [Onnx_NodeProto], input: [Int], output: String,
                            initializers: [Onnx_TensorProto] = []) throws -> String {
        var model = Onnx_ModelProto()
        model.irVersion = 8
        var opset = Onnx_OperatorSetIdProto()
        opset.version = 13
        model.opsetImport = [opset]
        var graph = Onnx_GraphProto()
        graph.name = "hardening"
        graph.node = nodes
        graph.input = [valueInfo("x", dims: input)]
        graph.output = [valueInfo(output, dims: nil)]
        graph.initializer = initializers
        model.graph = graph
        let path = directory.appendingPathComponent(name).path
        let bytes: Data = try model.serializedBytes()
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// x → Relu → y: a 1×3×n×n input needs 12·n² bytes, and its output as much again.
    private func reluModel(side: Int) throws -> String {
        try writeModel("relu\(side).onnx", nodes: [node("Relu", ["x"], ["y"], name: "relu")], input: [1, 3, side, side], output: "y")
    }

    /// x → Relu → 1×1 Conv to 64 channels: the Conv's output is 21 times the input.
    private func wideningModel(side: Int) throws -> String {
        let weights = floatTensor("W", dims: [64, 3, 1, 1], raw: [Float](repeating: 0.5, count: 192))
        return try writeModel("widen\(side).onnx", nodes: [node("Relu", ["x"], ["y"], name: "relu"), node("Conv", ["y", "W"], ["z"], name: "widen")],
                              input: [1, 3, side, side], output: "z", initializers: [weights])
    }

    // MARK: helpers

    /// Runs `fovea`, checking it took under `seconds`.
    private func fovea(_ arguments: [String], seconds: Double = 5, file: StaticString = #filePath, line: UInt = #line) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let start = Date()
        let result = try TestData.runFovea(arguments)
        let elapsed = Date().timeIntervalSince(start)
        XCTAssertLessThan(elapsed, seconds, "fovea \(arguments.joined(separator: " ")) took \(elapsed) s", file: file, line: line)
        return result
    }

    /// Asserts one `error: ` line (ArgumentParser's usage may follow) and no raw control characters.
    private func assertErrorLine(_ stderr: String, contains fragments: [String], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(stderr.hasPrefix("error: "), "stderr: \(stderr)", file: file, line: line)
        XCTAssertFalse(stderr.contains("Error:"), "stderr: \(stderr)", file: file, line: line)
        let first = stderr.split(separator: "\n").first.map(String.init) ?? ""
        for fragment in fragments {
            XCTAssertTrue(first.contains(fragment), "'\(first)' lacks '\(fragment)'", file: file, line: line)
        }
        XCTAssertFalse(stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "raw control characters: \(stderr.debugDescription)",
                       file: file, line: line)
    }

    // MARK: memory limits

    func testHugeDeclaredInputsFailFastUnderBenchParityAndRun() throws {
        let tensor = directory.appendingPathComponent("x.npy").path
        try NumpyFile.write(Tensor(shape: [1], floats: [0]), to: tensor)
        let out = directory.appendingPathComponent("y.npy").path
        // 120 GB of input; and 10.8 GB of input feeding 230 GB of Conv output: above the default
        // limit (half of memory) on any machine. Then the 1×3×30000×30000 Relu under --max-memory.
        let cases: [(model: String, extra: [String], fragments: [String])] = [
            (try reluModel(side: 100_000), [], ["input 'x' (float32[1×3×100000×100000]) needs", "120000000000 bytes", "memory limit"]),
            (try wideningModel(side: 30_000), [], ["node 'widen'", "value 'z' (float32[1×64×30000×30000]) needs", "230400000000 bytes"]),
            (try reluModel(side: 30_000), ["--max-memory", "16G"], ["value 'y' (float32[1×3×30000×30000]) with the inputs and weights needs",
                                                                   "21600000000 bytes", "17179869184 bytes"]),
        ]
        for (model, extra, fragments) in cases {
            for command in [["bench", "--runs", "1", "--warmup", "0"], ["parity"], ["run", "--input", tensor, "--output", out]] {
                let result = try fovea(command + ["--model", model] + extra, seconds: 2)
                XCTAssertEqual(result.status, 1, "\(command[0]) \(model): \(result.stderr)")
                assertErrorLine(result.stderr, contains: [model + ":"] + fragments)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }

    func testAnInitializerDeclaringTwoTerabytesFailsAtLoad() throws {
        // 512×1024×1024×1024 floats = 2 TiB declared, 16 bytes stored.
        let huge = floatTensor("W", dims: [512, 1024, 1024, 1024], raw: [1, 2, 3, 4])
        let path = try writeModel("huge-initializer.onnx", nodes: [node("Add", ["x", "W"], ["y"], name: "add")],
                                  input: [1, 3, 4, 4], output: "y", initializers: [huge])
        let start = Date()
        XCTAssertThrowsError(try Model(contentsOfFile: path)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidModel, "\(error)")
            XCTAssertTrue("\(error)".contains("tensor 'W' (FLOAT, shape 512×1024×1024×1024) has 16 bytes of raw_data; expected 2199023255552"), "\(error)")
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        let result = try fovea(["bench", "--model", path], seconds: 2)
        XCTAssertEqual(result.status, 1)
        assertErrorLine(result.stderr, contains: ["tensor 'W'", "expected 2199023255552"])
    }

    func testTheMemoryLimitIsConfigurable() throws {
        let path = try reluModel(side: 64)  // 48 KiB in, 48 KiB out
        let tight = try Model(contentsOfFile: path, configuration: ModelConfiguration(memoryLimit: MemoryLimit(bytes: 96 << 10)))
            .configuration.memoryLimit
        XCTAssertEqual(tight.bytes, 96 << 10)
        XCTAssertThrowsError(try Model(contentsOfFile: path, configuration: ModelConfiguration(memoryLimit: MemoryLimit(bytes: 40 << 10)))) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .limitExceeded, "\(error)")
        }
        let refused = try fovea(["bench", "--model", path, "--runs", "1", "--max-memory", "90K"])
        XCTAssertEqual(refused.status, 1)
        assertErrorLine(refused.stderr, contains: ["value 'y' (float32[1×3×64×64]) with the inputs and weights needs 96.0 KiB (98304 bytes)",
                                                   "memory limit of 90.0 KiB (92160 bytes)"])
        let ok = try fovea(["bench", "--model", path, "--runs", "1", "--warmup", "0", "--max-memory", "1M", "--json"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let bad = try fovea(["bench", "--model", path, "--max-memory", "lots"])
        XCTAssertEqual(bad.status, 64)
        assertErrorLine(bad.stderr, contains: ["--max-memory takes a size"])
    }

    // MARK: special files, images

    func testSpecialFilesAreNamedForWhatTheyAre() throws {
        let model = TestData.model("squeezenet1.1.onnx")
        let image = try fovea(["classify", "--model", model, "/dev/zero"])
        XCTAssertEqual(image.status, 1)
        assertErrorLine(image.stderr, contains: ["/dev/zero: is a character device, not a regular file; expected an image file"])

        let device = try fovea(["inspect", "--model", "/dev/urandom"])
        XCTAssertEqual(device.status, 1)
        assertErrorLine(device.stderr, contains: ["/dev/urandom: is a character device, not a regular file; expected a model file"])

        let fifo = directory.appendingPathComponent("model.onnx").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let pipe = try fovea(["bench", "--model", fifo])
        XCTAssertEqual(pipe.status, 1)
        assertErrorLine(pipe.stderr, contains: ["is a FIFO (named pipe), not a regular file"])

        let folder = directory.appendingPathComponent("folder.onnx").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let dir = try fovea(["run", "--model", folder, "--input", "/dev/zero", "--output", "y.npy"])
        XCTAssertEqual(dir.status, 1)
        assertErrorLine(dir.stderr, contains: ["is a directory, not a regular file"])

        for command in [["run", "--output", "y.npy"], ["parity"], ["bench"]] {
            let device = try fovea(command + ["--model", try reluModel(side: 2), "--input", "/dev/zero"])
            XCTAssertEqual(device.status, 1, "\(command): \(device.stderr)")
            assertErrorLine(device.stderr, contains: ["/dev/zero: is a character device, not a regular file; expected an input tensor"])
        }
        let input = try fovea(["run", "--model", try reluModel(side: 2), "--input", "/dev/zero.npy", "--output", "y.npy"])
        XCTAssertEqual(input.status, 1)
        assertErrorLine(input.stderr, contains: ["/dev/zero.npy: no such file"])
    }

    func testImageBombsFailFastInClassify() throws {
        // 16000×16000 RGB declared in a 68-byte PNG (valid chunks and CRCs).
        let png = directory.appendingPathComponent("bomb.png").path
        try pngBomb(width: 16000, height: 16000).write(to: URL(fileURLWithPath: png))
        let result = try fovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"), png], seconds: 3)
        XCTAssertEqual(result.status, 1)
        assertErrorLine(result.stderr, contains: ["bomb.png: image of 16000×16000 pixels (256.0 megapixels) is larger than the limit of 100000000 pixels"])

        let photo = TestData.photo("red_panda.jpg")
        let tight = try fovea(["classify", "--model", TestData.model("squeezenet1.1.onnx"), "--max-pixels", "1000", photo])
        XCTAssertEqual(tight.status, 1)
        assertErrorLine(tight.stderr, contains: ["red_panda.jpg: image of", "larger than the limit of 1000 pixels"])
        let bad = try fovea(["prepare", photo, "--size", "224x224", "--output", "x.png", "--max-pixels", "0"])
        XCTAssertEqual(bad.status, 64)
        assertErrorLine(bad.stderr, contains: ["--max-pixels must be in 1..."])
    }

    private func pngBomb(width: UInt32, height: UInt32) -> Data {
        func be(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.bigEndian) { Array($0) } }
        func crc(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes { c ^= UInt32(b); for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 } }
            return ~c
        }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return be(UInt32(body.count)) + typed + be(crc(typed))
        }
        let idat: [UInt8] = [0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01]
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be(width) + be(height) + [8, 2, 0, 0, 0])
                    + chunk("IDAT", idat) + chunk("IEND", []))
    }

    // MARK: names, cycles, messages

    func testEscapeSequencesInNamesAreEscapedEverywhere() throws {
        let evil = "evil\u{1B}]0;pwned\u{07}\u{1B}[31m"
        let path = try writeModel("evil.onnx", nodes: [node("Relu", ["x"], ["y\u{1B}[2J"], name: evil),
                                                       node("Relu", ["y\u{1B}[2J"], ["z"], name: "second")],
                                  input: [1, 3, 4, 4], output: "z")
        for arguments in [["inspect", "--model", path, "--plan"], ["inspect", "--model", path, "--optimized"],
                          ["bench", "--model", path, "--runs", "1", "--warmup", "0", "--backend", "reference"],
                          ["parity", "--model", path, "--backends", "simd"]] {
            let result = try fovea(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
            XCTAssertFalse((result.stdout + result.stderr).contains("\u{1B}"), "\(arguments): \(result.stdout.debugDescription)")
            XCTAssertTrue(result.stdout.contains("evil\\x1B]0;pwned\\x07\\x1B[31m"), "\(arguments): \(result.stdout)")
        }
        let unsupported = try writeModel("evil-op.onnx", nodes: [node("Foo\u{1B}[5m", ["x"], ["z"], name: evil)], input: [1, 3, 4, 4], output: "z")
        let result = try fovea(["run", "--model", unsupported, "--input", "x.npy", "--output", "z.npy"])
        XCTAssertEqual(result.status, 1)
        assertErrorLine(result.stderr, contains: ["Foo\\x1B[5m", "evil\\x1B]0;pwned\\x07\\x1B[31m"])
        // Issue 34: `inspect`'s "unsupported operators" list echoes names from the file too.
        let listed = try writeModel("evil-list.onnx", nodes: [node("Re\u{1B}[31mLU\u{1B}[0m", ["x"], ["z"], name: "n\u{1B}]0;pwned\u{07}")],
                                    input: [1, 3, 4, 4], output: "z")
        let inspected = try fovea(["inspect", "--model", listed])
        XCTAssertEqual(inspected.status, 1)
        XCTAssertFalse((inspected.stdout + inspected.stderr).contains("\u{1B}"), inspected.stdout.debugDescription)
        XCTAssertTrue(inspected.stdout.contains("Re\\x1B[31mLU\\x1B[0m"), inspected.stdout)
        XCTAssertTrue(inspected.stdout.contains("n\\x1B]0;pwned\\x07"), inspected.stdout)
    }

    /// Issue 34: the closing line counts only the images classified and says how many failed.
    func testClassifyCountsOnlyTheImagesClassified() throws {
        let model = TestData.model("squeezenet1.1.onnx")
        let notImages = try (1...2).map { index -> String in
            let path = directory.appendingPathComponent("not-\(index).webp").path
            try Data("RIFF\u{4}\u{0}\u{0}\u{0}WEBP".utf8).write(to: URL(fileURLWithPath: path))
            return path
        }
        let failed = try fovea(["classify", "--model", model] + notImages)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains("no image classified; 2 failed"), failed.stderr)
        XCTAssertFalse(failed.stderr.contains("images/s"), failed.stderr)
        let mixed = try fovea(["classify", "--model", model, TestData.photo("red_panda.jpg"), notImages[0]])
        XCTAssertEqual(mixed.status, 1)
        XCTAssertTrue(mixed.stderr.contains("1 image classified in "), mixed.stderr)
        XCTAssertTrue(mixed.stderr.contains("; 1 failed"), mixed.stderr)
    }

    func testACyclicGraphIsReportedAsACycle() throws {
        let path = try writeModel("cycle.onnx", nodes: [node("Relu", ["c"], ["a"], name: "first"),
                                                        node("Add", ["x", "a"], ["b"], name: "second"),
                                                        node("Relu", ["b"], ["c"], name: "third")],
                                  input: [1, 3, 4, 4], output: "c")
        let result = try fovea(["inspect", "--model", path])
        XCTAssertEqual(result.status, 1)
        assertErrorLine(result.stderr, contains: ["the graph has a cycle: 'second' (Add) -> 'third' (Relu) -> 'first' (Relu) -> 'second' (Add)"])
        XCTAssertThrowsError(try Model(contentsOfFile: path)) { error in
            XCTAssertEqual((error as? FoveaError)?.kind, .invalidModel)
            XCTAssertTrue("\(error)".contains("cycle"), "\(error)")
        }
    }

    // MARK: flags

    func testEveryBadFlagValueExitsWithTheUsageCode() throws {
        let model = try reluModel(side: 4)
        let cases: [([String], String)] = [
            (["bench", "--model", model, "--backend", "nope"], "--backend: unknown backend 'nope' (available: "),
            (["run", "--model", model, "--backend", "simd,nope", "--input", "x.npy", "--output", "y.npy"], "unknown backend 'nope'"),
            (["classify", "--model", model, "--backend", "nope", "x.jpg"], "unknown backend 'nope'"),
            (["inspect", "--model", model, "--plan", "--backend", ","], "--backend needs at least one name"),
            (["parity", "--model", model, "--backends", "nope"], "--backends: unknown backend 'nope'"),
            (["bench", "--model", model, "--layers", "--backends", "nope"], "--backends: unknown backend 'nope'"),
            (["bench", "--model", model, "--warmup", "9999999999999"], "--warmup must be in 0...10000"),
            (["bench", "--model", model, "--warmup=-1"], "--warmup must be in 0...10000"),
            (["bench", "--model", model, "--runs", "0"], "--runs must be in 1...100000"),
            (["bench", "--model", model, "--runs", "100001"], "--runs must be in 1...100000"),
            (["bench", "--model", model, "--runs", "many"], "--runs"),
            (["bench", "--model", model, "--threads", "0"], "--threads must be at least 1"),
            (["parity", "--model", model, "--threads=-3"], "--threads must be at least 1"),
            (["bench", "--model", model, "--winograd", "f9"], "--winograd must be"),
            (["bench", "--model", model, "--max-memory=-1G"], "--max-memory takes a size"),
            (["bench", "--model", model, "--no-such-flag"], "Unknown option"),
        ]
        for (arguments, fragment) in cases {
            let result = try fovea(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            assertErrorLine(result.stderr, contains: [fragment])
        }
    }

    func testThreadsAboveTheCoresAreClampedAndTheUsedCountReported() throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let model = try reluModel(side: 8)
        let result = try fovea(["bench", "--model", model, "--threads", "100000", "--runs", "2", "--warmup", "0", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["threads"] as? Int, cores)
        XCTAssertTrue(result.stderr.hasPrefix("warning: --threads 100000 is more than this machine's \(cores) active cores; using \(cores)"),
                      result.stderr)
        XCTAssertEqual(ModelConfiguration(threads: 100_000).effectiveThreads, cores)
        XCTAssertEqual(ModelConfiguration(threads: 100_000).runContext.threads, cores)
        XCTAssertEqual(ModelConfiguration(threads: 1).effectiveThreads, 1)
        let plan = try fovea(["inspect", "--model", model, "--plan", "--threads", "100000", "--json"])
        XCTAssertEqual(plan.status, 0, plan.stderr)
        let report = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(report["max_threads"] as? Int, cores)
    }
}
