import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// Where the shared test data lives: `../shared/models` beside the package.
enum TestPaths {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let models = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/models")
    static func model(_ name: String) -> String { models.appendingPathComponent(name).path }
    /// The ONNX conformance suite (Debian package libonnx-testdata).
    static let conformance = "/usr/share/libonnx-testdata/data"
}

/// Small ONNX models built in code with the generated protobuf types.
enum ONNXModelBuilder {
    static func model(
        opset: Int64 = 13,
        irVersion: Int64 = 8,
        nodes: [Onnx_NodeProto],
        inputs: [Onnx_ValueInfoProto],
        outputs: [Onnx_ValueInfoProto],
        initializers: [Onnx_TensorProto] = [],
        extraOpsets: [String: Int64] = [:]
    ) -> Onnx_ModelProto {
        var model = Onnx_ModelProto()
        model.irVersion = irVersion
        var defaultSet = Onnx_OperatorSetIdProto()
        defaultSet.domain = ""
        defaultSet.version = opset
        model.opsetImport = [defaultSet]
        for (domain, version) in extraOpsets.sorted(by: { $0.key < $1.key }) {
            var set = Onnx_OperatorSetIdProto()
            set.domain = domain
            set.version = version
            model.opsetImport.append(set)
        }
        var graph = Onnx_GraphProto()
        graph.name = "test"
        graph.node = nodes
        graph.input = inputs
        graph.output = outputs
        graph.initializer = initializers
        model.graph = graph
        return model
    }

    static func serialized(_ model: Onnx_ModelProto) throws -> Data {
        try model.serializedBytes()
    }

    /// Serializes and loads `model` as the file `test.onnx`.
    static func load(_ model: Onnx_ModelProto, knownInputs: [String: Tensor] = [:]) throws -> Graph {
        try ONNXLoader.load(data: serialized(model), fileName: "test.onnx", knownInputs: knownInputs)
    }

    /// A model with one node reading the float input `x` (1×2×4×4) and writing `y`.
    static func singleNode(
        _ node: Onnx_NodeProto, opset: Int64 = 13,
        extraInputs: [Onnx_ValueInfoProto] = [], initializers: [Onnx_TensorProto] = [],
        constants: [Onnx_NodeProto] = [], outputs: [String] = ["y"]
    ) -> Onnx_ModelProto {
        model(
            opset: opset, nodes: constants + [node],
            inputs: [valueInfo("x", dims: [1, 2, 4, 4])] + extraInputs,
            outputs: outputs.map { valueInfo($0, dims: nil) },
            initializers: initializers
        )
    }

    static func node(_ opType: String, _ inputs: [String], _ outputs: [String], name: String = "",
                     domain: String = "", attributes: [Onnx_AttributeProto] = []) -> Onnx_NodeProto {
        var node = Onnx_NodeProto()
        node.opType = opType
        node.input = inputs
        node.output = outputs
        node.name = name
        if !domain.isEmpty { node.domain = domain }
        node.attribute = attributes
        return node
    }

    /// A tensor value info; `dims` entries: a number, or a string for a symbolic dim, or nil for an absent dim.
    static func valueInfo(_ name: String, type: Onnx_TensorProto.DataType = .float, dims: [Any?]?) -> Onnx_ValueInfoProto {
        var info = Onnx_ValueInfoProto()
        info.name = name
        var tensorType = Onnx_TypeProto.Tensor()
        tensorType.elemType = Int32(type.rawValue)
        if let dims {
            var shape = Onnx_TensorShapeProto()
            shape.dim = dims.map { value in
                var dim = Onnx_TensorShapeProto.TensorDimension()
                if let n = value as? Int { dim.dimValue = Int64(n) }
                if let s = value as? String { dim.dimParam = s }
                return dim
            }
            tensorType.shape = shape
        }
        info.type.tensorType = tensorType
        return info
    }

    // MARK: attributes

    static func attribute(_ name: String, int value: Int64) -> Onnx_AttributeProto {
        var a = Onnx_AttributeProto(); a.name = name; a.type = .int; a.i = value; return a
    }
    static func attribute(_ name: String, float value: Float) -> Onnx_AttributeProto {
        var a = Onnx_AttributeProto(); a.name = name; a.type = .float; a.f = value; return a
    }
    static func attribute(_ name: String, ints values: [Int64]) -> Onnx_AttributeProto {
        var a = Onnx_AttributeProto(); a.name = name; a.type = .ints; a.ints = values; return a
    }
    static func attribute(_ name: String, floats values: [Float]) -> Onnx_AttributeProto {
        var a = Onnx_AttributeProto(); a.name = name; a.type = .floats; a.floats = values; return a
    }
    static func attribute(_ name: String, string value: String) -> Onnx_AttributeProto {
        var a = Onnx_AttributeProto(); a.name = name; a.type = .string; a.s = Data(value.utf8); return a
    }
    static func attribute(_ name: String, tensor value: Onnx_TensorProto) -> Onnx_AttributeProto {
        var a = Onnx_AttributeProto(); a.name = name; a.type = .tensor; a.t = value; return a
    }

    // MARK: tensors

    /// A FLOAT tensor stored as little-endian `raw_data`.
    static func floatTensor(_ name: String, dims: [Int64], _ values: [Float]) -> Onnx_TensorProto {
        var t = Onnx_TensorProto()
        t.name = name
        t.dims = dims
        t.dataType = Int32(Onnx_TensorProto.DataType.float.rawValue)
        t.rawData = littleEndianBytes(values.map { $0.bitPattern })
        return t
    }

    /// An INT64 tensor stored in `int64_data`.
    static func int64Tensor(_ name: String, dims: [Int64], _ values: [Int64]) -> Onnx_TensorProto {
        var t = Onnx_TensorProto()
        t.name = name
        t.dims = dims
        t.dataType = Int32(Onnx_TensorProto.DataType.int64.rawValue)
        t.int64Data = values
        return t
    }

    static func littleEndianBytes<T: FixedWidthInteger>(_ values: [T]) -> Data {
        var data = Data()
        for value in values {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// A `Constant` node writing `output` from a `value` tensor.
    static func constant(_ output: String, _ tensor: Onnx_TensorProto) -> Onnx_NodeProto {
        node("Constant", [], [output], attributes: [attribute("value", tensor: tensor)])
    }
}

/// Asserts that `body` throws a `FoveaError` of `kind` whose description contains `fragment`.
func assertFoveaError<T>(
    _ kind: FoveaError.Kind, containing fragment: String,
    file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T
) {
    do {
        _ = try body()
        XCTFail("expected a \(kind) error containing \"\(fragment)\"", file: file, line: line)
    } catch let error as FoveaError {
        XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
        XCTAssertTrue(error.description.contains(fragment), "\"\(error)\" does not contain \"\(fragment)\"", file: file, line: line)
    } catch {
        XCTFail("expected a FoveaError, got \(error)", file: file, line: line)
    }
}
