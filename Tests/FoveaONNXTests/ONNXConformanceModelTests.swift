import Foundation
import XCTest
import FoveaCore
import FoveaONNX

/// Models and test data of the ONNX backend conformance suite (Debian package
/// libonnx-testdata), loaded the way the conformance runner loads them: every
/// test input is offered as a known input, and only those feeding parameter
/// inputs leave the graph.
final class ONNXConformanceModelTests: XCTestCase {
    private struct Loaded {
        var graph: Graph
        var inputs: [(name: String, tensor: Tensor)]
        var outputs: [(name: String, tensor: Tensor)]
    }

    private func load(_ test: String, file: StaticString = #filePath, line: UInt = #line) throws -> Loaded {
        let directory = "\(TestPaths.conformance)/node/\(test)"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: directory), "libonnx-testdata is not installed")
        func tensors(_ prefix: String) throws -> [(name: String, tensor: Tensor)] {
            var result: [(name: String, tensor: Tensor)] = []
            while case let path = "\(directory)/test_data_set_0/\(prefix)_\(result.count).pb", FileManager.default.fileExists(atPath: path) {
                result.append(try ONNXTensorFile.read(contentsOf: path))
            }
            return result
        }
        let inputs = try tensors("input")
        let outputs = try tensors("output")
        let known = Dictionary(inputs.map { ($0.name, $0.tensor) }, uniquingKeysWith: { first, _ in first })
        let graph = try ONNXLoader.load(contentsOf: "\(directory)/model.onnx", knownInputs: known)
        // The test data fits the declared interface.
        for input in graph.inputs {
            let given = try XCTUnwrap(known[input.name], "no data for input '\(input.name)'", file: file, line: line)
            if let shape = input.knownShape { XCTAssertEqual(given.shape, shape, input.name, file: file, line: line) }
            XCTAssertEqual(given.dataType, input.dataType, file: file, line: line)
        }
        XCTAssertEqual(outputs.count, graph.outputs.count, file: file, line: line)
        for (declared, data) in zip(graph.outputs, outputs) {
            XCTAssertEqual(data.name, declared.name, file: file, line: line)
            if let shape = declared.knownShape { XCTAssertEqual(data.tensor.shape, shape, declared.name, file: file, line: line) }
        }
        return Loaded(graph: graph, inputs: inputs, outputs: outputs)
    }

    func testConvWithStridesPadding() throws {
        let loaded = try load("test_conv_with_strides_padding")
        XCTAssertEqual(loaded.graph.nodes.map(\.op), [.conv(ConvAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1], pads: [1, 1, 1, 1]))])
        XCTAssertEqual(loaded.graph.inputs.map(\.name), ["x", "W"])
        XCTAssertEqual(loaded.inputs.map(\.tensor.shape), [[1, 1, 7, 5], [1, 1, 3, 3]])
        XCTAssertEqual(loaded.outputs.map(\.tensor.shape), [[1, 1, 4, 3]])
    }

    func testClipDefaultMin() throws {
        let loaded = try load("test_clip_default_min")
        XCTAssertEqual(loaded.graph.nodes.map(\.op), [.clip(min: 0, max: nil)])
        XCTAssertEqual(loaded.graph.nodes[0].inputs, ["x"])
        XCTAssertEqual(loaded.graph.inputs.map(\.name), ["x"])
        XCTAssertEqual(loaded.inputs.map(\.tensor.shape), [[3, 4, 5], []])
        XCTAssertEqual(loaded.outputs.first?.tensor.shape, [3, 4, 5])
    }

    func testSqueeze() throws {
        let loaded = try load("test_squeeze")
        XCTAssertEqual(loaded.graph.nodes.map(\.op), [.squeeze(axes: [0])])
        XCTAssertEqual(loaded.graph.inputs.map(\.name), ["x"])
        XCTAssertEqual(loaded.inputs.map(\.tensor.shape), [[1, 3, 4, 5], [1]])
        XCTAssertEqual(loaded.outputs.first?.tensor.shape, [3, 4, 5])
    }

    func testAveragePoolCeil() throws {
        let loaded = try load("test_averagepool_2d_ceil")
        XCTAssertEqual(loaded.graph.nodes.map(\.op), [.averagePool(PoolAttributes(kernelShape: [3, 3], strides: [2, 2], dilations: [1, 1], pads: [0, 0, 0, 0], ceilMode: true))])
        XCTAssertEqual(loaded.inputs.map(\.tensor.shape), [[1, 1, 4, 4]])
        XCTAssertEqual(loaded.outputs.first?.tensor.shape, [1, 1, 2, 2])
        XCTAssertEqual(loaded.outputs.first?.tensor.floats, [6, 7.5, 12, 13.5])
    }

    func testReshapeAndUnsqueezeFromTestInputs() throws {
        let reshape = try load("test_reshape_negative_dim")
        XCTAssertEqual(reshape.graph.nodes.map(\.op), [.reshape(shape: [2, -1, 2], allowZero: false)])
        XCTAssertEqual(reshape.graph.inputs.map(\.name), ["data"])
        XCTAssertEqual(reshape.outputs.first?.tensor.shape, [2, 6, 2])

        let unsqueeze = try load("test_unsqueeze_axis_0")
        XCTAssertEqual(unsqueeze.graph.nodes.map(\.op), [.unsqueeze(axes: [0])])
        XCTAssertEqual(unsqueeze.outputs.first?.tensor.shape, [1, 3, 4, 5])
    }

    func testPadDropoutAndConstant() throws {
        let pad = try load("test_constant_pad")
        XCTAssertEqual(pad.graph.nodes.map(\.op), [.pad(pads: [0, 0, 1, 3, 0, 0, 2, 4], value: 1.2, axes: nil)])
        XCTAssertEqual(pad.outputs.first?.tensor.shape, [1, 3, 7, 12])

        let dropout = try load("test_dropout_default_mask_ratio")
        XCTAssertEqual(dropout.graph.nodes.map(\.op), [.dropout])
        XCTAssertEqual(dropout.graph.nodes[0].inputs, ["x"])
        XCTAssertEqual(dropout.graph.nodes[0].outputs.count, 2)
        XCTAssertEqual(dropout.outputs.map(\.tensor.dataType), [.float32, .bool])

        let constant = try load("test_constant")
        XCTAssertTrue(constant.graph.nodes.isEmpty)
        XCTAssertEqual(constant.graph.initializers["values"], constant.outputs.first?.tensor)
    }

    func testSoftmaxShapeAndBatchNorm() throws {
        XCTAssertEqual(try load("test_softmax_axis_0").graph.nodes.map(\.op), [.softmax(SoftmaxAttributes(axis: 0, coercedTo2D: false))])
        XCTAssertEqual(try load("test_shape_start_1").graph.nodes.map(\.op), [.shape(start: 1, end: nil)])
        XCTAssertEqual(try load("test_batchnorm_epsilon").graph.nodes.map(\.op), [.batchNormalization(epsilon: 0.01)])
        XCTAssertEqual(try load("test_gemm_default_no_bias").graph.nodes.map(\.op), [.gemm(GemmAttributes())])
    }

    func testUnsupportedFormsAreReported() throws {
        try XCTSkipUnless(FileManager.default.fileExists(atPath: TestPaths.conformance), "libonnx-testdata is not installed")
        assertFoveaError(.unsupported, containing: "attribute 'training_mode' is 1") { try self.load("test_batchnorm_example_training_mode") }
        XCTAssertEqual(try load("test_edge_pad").graph.nodes.map(\.op), [.borderPad(pads: [0, 0, 1, 1, 0, 0, 1, 1], mode: .edge)])
        assertFoveaError(.unsupported, containing: "input 'training_mode' is true") { try self.load("test_training_dropout") }
    }
}
