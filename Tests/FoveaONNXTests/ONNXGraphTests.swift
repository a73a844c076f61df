import Foundation
import XCTest
import FoveaCore
@testable import FoveaONNX

/// Graph-level translation: names, inputs, initializers, metadata, declared types, opsets.
final class ONNXGraphTests: XCTestCase {
    typealias B = ONNXModelBuilder

    func testUnnamedAndDuplicateNodeNames() throws {
        let model = B.model(
            nodes: [
                B.node("Relu", ["x"], ["a"]),
                B.node("Sigmoid", ["a"], ["b"], name: "act"),
                B.node("Relu", ["b"], ["c"], name: "act"),
                B.node("Relu", ["c"], ["y"]),
            ],
            inputs: [B.valueInfo("x", dims: [1])], outputs: [B.valueInfo("y", dims: [1])]
        )
        XCTAssertEqual(try B.load(model).nodes.map(\.name), ["Relu_0", "act", "act_1", "Relu_3"])
    }

    func testInitializersListedAsInputsAreNotInputs() throws {
        // IR 3 lists every initializer among the graph inputs.
        let node = B.node("Add", ["x", "b"], ["y"])
        let model = B.model(opset: 8, irVersion: 3, nodes: [node],
                            inputs: [B.valueInfo("x", dims: [2]), B.valueInfo("b", dims: [2])],
                            outputs: [B.valueInfo("y", dims: [2])],
                            initializers: [B.floatTensor("b", dims: [2], [1, 2]), B.floatTensor("unused", dims: [1], [0])])
        let graph = try B.load(model)
        XCTAssertEqual(graph.inputs.map(\.name), ["x"])
        XCTAssertEqual(graph.initializers.keys.sorted(), ["b"])  // nothing reads "unused"
        XCTAssertEqual(graph.metadata.irVersion, 3)
    }

    func testKnownInputsFoldParameterInputs() throws {
        // As the conformance runner does: every test input is passed; only the
        // one that feeds a parameter input leaves the graph inputs.
        let node = B.node("Reshape", ["data", "shape"], ["y"])
        let model = B.model(nodes: [node],
                            inputs: [B.valueInfo("data", dims: [2, 3]), B.valueInfo("shape", type: .int64, dims: [2])],
                            outputs: [B.valueInfo("y", dims: nil)])
        let known = ["data": try Tensor(shape: [2, 3], floats: [1, 2, 3, 4, 5, 6]), "shape": try Tensor(shape: [2], int64s: [3, 2])]
        let graph = try B.load(model, knownInputs: known)
        XCTAssertEqual(graph.nodes[0].op, .reshape(shape: [3, 2], allowZero: false))
        XCTAssertEqual(graph.nodes[0].inputs, ["data"])
        XCTAssertEqual(graph.inputs.map(\.name), ["data"])
        XCTAssertTrue(graph.initializers.isEmpty)
    }

    func testNonConstantReshapeShape() throws {
        let node = B.node("Reshape", ["data", "shape"], ["y"], name: "r")
        // A shape computed from input shapes loads, and is folded when the types are inferred.
        let model = B.model(nodes: [B.node("Shape", ["x"], ["shape"]), node],
                            inputs: [B.valueInfo("x", dims: [2, 3]), B.valueInfo("data", dims: [3, 2])],
                            outputs: [B.valueInfo("y", dims: nil)])
        let graph = try B.load(model)
        XCTAssertEqual(graph.nodes[1].op, .withComputedParameters(.reshape(allowZero: false)))
        XCTAssertEqual(try graph.inferTypes()["y"], TensorType(.float32, [2, 3]))
        // A shape fed at run time cannot be folded: a typed error when planning.
        let fed = B.model(nodes: [node], inputs: [B.valueInfo("data", dims: [3, 2]), B.valueInfo("shape", type: .int64, dims: [2])],
                          outputs: [B.valueInfo("y", dims: nil)])
        assertFoveaError(.unsupported, containing: "node 'r' (Reshape, opset 13): the parameters of Reshape are computed from values known only at run time") {
            try B.load(fed).inferTypes()
        }
    }

    func testMetadata() throws {
        var model = B.singleNode(B.node("Relu", ["x"], ["y"]), opset: 12)
        model.producerName = "pytorch"
        model.producerVersion = "2.1"
        model.domain = "org.example"
        model.modelVersion = 4
        model.docString = "a test"
        var prop = Onnx_StringStringEntryProto()
        prop.key = "author"
        prop.value = "fovea"
        model.metadataProps = [prop]
        var other = Onnx_OperatorSetIdProto()
        other.domain = "com.example"
        other.version = 2
        model.opsetImport.append(other)
        let metadata = try B.load(model).metadata
        XCTAssertEqual(metadata.format, "ONNX")
        XCTAssertEqual(metadata.producerName, "pytorch")
        XCTAssertEqual(metadata.producerVersion, "2.1")
        XCTAssertEqual(metadata.domain, "org.example")
        XCTAssertEqual(metadata.modelVersion, 4)
        XCTAssertEqual(metadata.docString, "a test")
        XCTAssertEqual(metadata.irVersion, 8)
        XCTAssertEqual(metadata.opset, 12)
        XCTAssertEqual(metadata.properties, ["author": "fovea"])
    }

    func testDeclaredTypes() throws {
        var unshaped = B.valueInfo("u", type: .int32, dims: nil)
        unshaped.type.tensorType.clearShape()
        let model = B.model(
            nodes: [B.node("Identity", ["x"], ["y"]), B.node("Identity", ["u"], ["v"])],
            inputs: [B.valueInfo("x", type: .double, dims: ["N", 3, nil]), unshaped],
            outputs: [B.valueInfo("y", type: .float16, dims: ["N", 3, nil]), B.valueInfo("v", type: .bool, dims: [])]
        )
        let graph = try B.load(model)
        XCTAssertEqual(graph.inputs, [
            ValueInfo(name: "x", dataType: .float32, dimensions: [.symbolic("N"), .known(3), .symbolic("")]),
            ValueInfo(name: "u", dataType: .int64, dimensions: nil),
        ])
        XCTAssertEqual(graph.outputs[0].dataType, .float32)
        XCTAssertEqual(graph.outputs[1], ValueInfo(name: "v", dataType: .bool, dimensions: []))
    }

    func testUnsupportedDeclaredTypes() {
        let uint16 = B.model(nodes: [B.node("Identity", ["x"], ["y"])], inputs: [B.valueInfo("x", type: .uint16, dims: [1])], outputs: [B.valueInfo("y", dims: nil)])
        assertFoveaError(.unsupported, containing: "graph input 'x' has element type UINT16") { try B.load(uint16) }
        var sequence = Onnx_ValueInfoProto()
        sequence.name = "x"
        sequence.type.denotation = "a sequence is not in Fovea's subset"
        let notTensor = B.model(nodes: [B.node("Identity", ["x"], ["y"])], inputs: [sequence], outputs: [B.valueInfo("y", dims: nil)])
        assertFoveaError(.unsupported, containing: "graph input 'x' is not a tensor") { try B.load(notTensor) }
    }

    func testDefaultDomainSpelledOut() throws {
        var model = B.singleNode(B.node("Relu", ["x"], ["y"], domain: "ai.onnx"))
        model.opsetImport[0].domain = "ai.onnx"
        XCTAssertEqual(try B.load(model).nodes[0].op, .relu)
    }

    func testOpsetOutsideRange() {
        for opset: Int64 in [6, 22] {
            let model = B.singleNode(B.node("Relu", ["x"], ["y"]), opset: opset)
            do {
                _ = try B.load(model)
                XCTFail("opset \(opset) loaded")
            } catch let error as FoveaError {
                XCTAssertEqual(error.kind, .unsupported)
                XCTAssertEqual(error.description, "test.onnx: opset \(opset) is not supported (Fovea reads opsets 7 to 21)")
            } catch {
                XCTFail("\(error)")
            }
        }
    }

    func testUnknownOpMessage() {
        let model = B.singleNode(B.node("FooBar", ["x"], ["y"], name: "foo"))
        do {
            _ = try B.load(model)
            XCTFail("FooBar loaded")
        } catch let error as FoveaError {
            XCTAssertEqual(error.kind, .unsupported)
            XCTAssertEqual(error.message, "unsupported op 'FooBar' (opset 13) at node 'foo'")
            XCTAssertEqual(error.location, FoveaError.Location(file: "test.onnx"))
            XCTAssertEqual(error.description, "test.onnx: unsupported op 'FooBar' (opset 13) at node 'foo'")
        } catch {
            XCTFail("\(error)")
        }
    }

    func testOpOfAnotherDomain() {
        let model = B.model(nodes: [B.node("FusedConv", ["x"], ["y"], domain: "com.microsoft")],
                            inputs: [B.valueInfo("x", dims: [1])], outputs: [B.valueInfo("y", dims: nil)],
                            extraOpsets: ["com.microsoft": 1])
        assertFoveaError(.unsupported, containing: "unsupported op 'com.microsoft.FusedConv' (opset 1) at node 'FusedConv_0'") { try B.load(model) }
    }

    func testStructuralErrorsNameTheFile() {
        let model = B.singleNode(B.node("Relu", ["nowhere"], ["y"], name: "r"))
        assertFoveaError(.invalidModel, containing: "test.onnx: node 'r' (Relu, opset 13): input 0 'nowhere' is not produced") { try B.load(model) }
        let twoInputs = B.singleNode(B.node("Relu", ["x", "x"], ["y"], name: "r"))
        assertFoveaError(.invalidModel, containing: "node 'r' (Relu, opset 13): has 2 inputs; expected 1") { try B.load(twoInputs) }
        let twoOutputs = B.singleNode(B.node("Relu", ["x"], ["y", "z"], name: "r"))
        assertFoveaError(.unsupported, containing: "has 2 outputs; Fovea computes at most 1 for Relu") { try B.load(twoOutputs) }
    }

    func testAttributeProblems() {
        let twice = B.node("Flatten", ["x"], ["y"], attributes: [B.attribute("axis", int: 1), B.attribute("axis", int: 2)])
        assertFoveaError(.invalidModel, containing: "attribute 'axis' is given twice") { try B.load(B.singleNode(twice)) }
        let unknown = B.node("Relu", ["x"], ["y"], attributes: [B.attribute("slope", float: 1)])
        assertFoveaError(.invalidAttribute, containing: "unexpected attribute 'slope'; Relu in opset 13 does not define it") { try B.load(B.singleNode(unknown)) }
        // Old files may leave the attribute type unset: it is taken from the field that is set.
        var untyped = B.attribute("axis", int: 0)
        untyped.type = .undefined
        XCTAssertEqual(try B.load(B.singleNode(B.node("Flatten", ["x"], ["y"], attributes: [untyped]))).nodes[0].op, .flatten(axis: 0))
    }
}
