import Foundation
@_spi(Internals) import Fovea
import FoveaONNX

/// Runs ONNX backend node tests: `model.onnx` with `test_data_set_N/input_K.pb`
/// and the expected `output_K.pb`, as packaged by Debian's `libonnx-testdata`.
public struct ConformanceRunner: Sendable {
    /// Where `apt-get install libonnx-testdata` puts the suite.
    public static let defaultDataDirectory = "/usr/share/libonnx-testdata/data"

    /// The ONNX suite's default tolerance: `|actual - expected| <= atol + rtol * |expected|`.
    public var relativeTolerance: Float = 1e-3
    /// The suite's default absolute tolerance (`atol`).
    public var absoluteTolerance: Float = 1e-7

    /// The directory holding `node/`.
    public var dataDirectory: String

    /// Creates a runner over the test data in `dataDirectory` (Debian's `libonnx-testdata` by default).
    public init(dataDirectory: String = ConformanceRunner.defaultDataDirectory) {
        self.dataDirectory = dataDirectory
    }

    /// The outcome of one test.
    public struct Outcome: Sendable {
        /// The test's name, such as `test_conv_with_strides_padding`.
        public var name: String
        /// `nil` when the test passed; otherwise what failed.
        public var failure: String?
        /// Whether the test passed.
        public var passed: Bool { failure == nil }
    }

    /// The directory of node test `name`.
    public func directory(of name: String) -> String {
        (dataDirectory as NSString).appendingPathComponent("node/\(name)")
    }

    /// The names of the node tests present in the data directory.
    public func availableTests() throws -> [String] {
        let nodeDirectory = (dataDirectory as NSString).appendingPathComponent("node")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: nodeDirectory) else {
            throw FoveaError(.io, "no ONNX node tests at \(nodeDirectory); install them with `apt-get install libonnx-testdata` or pass --data DIR")
        }
        return names.filter { $0.hasPrefix("test_") }.sorted()
    }

    /// Runs one test over all its data sets.
    public func run(test name: String) -> Outcome {
        do {
            try check(test: name)
            return Outcome(name: name, failure: nil)
        } catch {
            return Outcome(name: name, failure: String(describing: error))
        }
    }

    private func check(test name: String) throws {
        let directory = directory(of: name)
        let dataSets = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix("test_data_set_") }.sorted()
        guard !dataSets.isEmpty else {
            throw FoveaError(.io, "no test data sets in \(directory)")
        }
        for dataSet in dataSets {
            let (model, feeds, expected) = try load(test: name, dataSet: dataSet)
            let graph = model.graph
            let outputs = try model.predict(feeds)
            for (index, output) in expected.enumerated() {
                let name = output.name.isEmpty && index < graph.outputs.count ? graph.outputs[index].name : output.name
                guard let actual = outputs[name] else {
                    throw FoveaError(.invalidModel, "\(dataSet): the model produced no output '\(name)'")
                }
                try compare(actual, output.tensor, label: "\(dataSet) output '\(name)'")
            }
        }
    }

    /// The model of test `name` loaded for data set `dataSet` (`test_data_set_0`, ...),
    /// its feeds and the expected outputs.
    public func load(test name: String, dataSet: String = "test_data_set_0") throws
        -> (model: Model, feeds: [String: Tensor], expected: [(name: String, tensor: Tensor)]) {
        let directory = directory(of: name)
        let modelPath = (directory as NSString).appendingPathComponent("model.onnx")
        let setDirectory = (directory as NSString).appendingPathComponent(dataSet)
        let inputs = try tensors(named: "input", in: setDirectory)
        let expected = try tensors(named: "output", in: setDirectory)
        // Inputs the model uses as constants (a Reshape shape, Clip bounds)
        // are folded at load time; the rest are fed.
        let known = Dictionary(inputs.map { ($0.name, $0.tensor) }, uniquingKeysWith: { a, _ in a })
        let graph = try ONNXLoader.load(contentsOf: modelPath, knownInputs: known)
        let model = try Model(graph: graph, path: modelPath)
        var feeds: [String: Tensor] = [:]
        for input in graph.inputs {
            guard let tensor = known[input.name] else {
                throw FoveaError(.invalidArgument, "\(dataSet) has no tensor for input '\(input.name)'")
            }
            feeds[input.name] = tensor
        }
        return (model, feeds, expected)
    }

    private func tensors(named prefix: String, in directory: String) throws -> [(name: String, tensor: Tensor)] {
        var result: [(name: String, tensor: Tensor)] = []
        var index = 0
        while true {
            let path = (directory as NSString).appendingPathComponent("\(prefix)_\(index).pb")
            guard FileManager.default.fileExists(atPath: path) else { break }
            result.append(try ONNXTensorFile.read(contentsOf: path))
            index += 1
        }
        return result
    }

    /// Compares element by element with the suite's tolerance; exact for integers and booleans.
    func compare(_ actual: Tensor, _ expected: Tensor, label: String) throws {
        guard actual.shape == expected.shape else {
            throw FoveaError(.shapeMismatch, "\(label): shape \(actual.shape.shapeDescription), expected \(expected.shape.shapeDescription)")
        }
        switch (actual.storage, expected.storage) {
        case (.float32(let a), .float32(let e)):
            for i in a.indices {
                let ok = a[i] == e[i] || (a[i].isNaN && e[i].isNaN) || abs(a[i] - e[i]) <= absoluteTolerance + relativeTolerance * abs(e[i])
                guard ok else {
                    throw FoveaError(.invalidModel, "\(label): element \(i) is \(a[i]), expected \(e[i])")
                }
            }
        case (.int64(let a), .int64(let e)):
            guard a == e else { throw FoveaError(.invalidModel, "\(label): \(a.prefix(8)) differs from expected \(e.prefix(8))") }
        case (.bool(let a), .bool(let e)):
            guard a == e else { throw FoveaError(.invalidModel, "\(label): boolean values differ from expected") }
        case (.uint8, .uint8), (.int8, .int8), (.int32, .int32), (.int32, .int64):
            // Exact; an expected INT32 tensor loads as int64 (ONNXDataType).
            let a = actual.quantizedIntegers ?? [], e = expected.quantizedIntegers ?? []
            guard a == e else {
                let i = a.indices.first { $0 < e.count && a[$0] != e[$0] } ?? 0
                throw FoveaError(.invalidModel, "\(label): element \(i) is \(a[i]), expected \(e[i])")
            }
        default:
            throw FoveaError(.invalidModel, "\(label): data type \(actual.dataType), expected \(expected.dataType)")
        }
    }
}

extension ConformanceRunner {
    /// ONNX operator types Fovea runs (the default domain): the loader's table.
    public static var supportedOperators: Set<String> { Set(ONNXOperatorSupport.opsets.keys) }

    /// The node tests a manifest must account for: those whose model uses only
    /// supported operators, and those named after a supported operator
    /// (`test_softmax_*`, `test_clip_*`, ...) whatever else they use.
    public func testsOfSupportedOperators() throws -> [String] {
        // Test names that do not follow the operator's name (test_batchnorm_*, test_reduce_mean_*, ...).
        let otherNames = ["test_batchnorm", "test_basic_conv", "test_training_dropout", "test_reduce_mean", "test_reduce_sum",
                          "test_reduce_max", "test_reduce_min", "test_reduce_l2", "test_reduce_sum_square",
                          "test_layer_normalization", "test_instancenorm", "test_group_normalization", "test_resize"]
        let prefixes = Self.supportedOperators.map { "test_" + $0.lowercased() } + otherNames
        return try availableTests().filter { name in
            if prefixes.contains(where: { name == $0 || name.hasPrefix($0 + "_") }) { return true }
            let model = (directory(of: name) as NSString).appendingPathComponent("model.onnx")
            guard let types = try? ONNXLoader.operatorTypes(contentsOf: model), !types.isEmpty else { return false }
            return types.allSatisfy(Self.supportedOperators.contains)
        }
    }
}
