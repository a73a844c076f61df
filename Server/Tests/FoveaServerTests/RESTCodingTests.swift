import Foundation
import FoveaServer
import XCTest

final class RESTCodingTests: XCTestCase {
    func testJSONRequestsWithNestedDataOutputsAndParameters() throws {
        let json = """
        {"id": "r1", "parameters": {"binary_data_output": true},
         "inputs": [{"name": "x", "shape": [2, 2], "datatype": "FP32", "data": [[1, 2.5], [-3, 4]]},
                    {"name": "n", "shape": [3], "datatype": "INT64", "data": [1, -2, 9007199254740993]},
                    {"name": "b", "shape": [1], "datatype": "BOOL", "data": [true]},
                    {"name": "s", "shape": [1], "datatype": "BYTES", "data": ["héllo"]}],
         "outputs": [{"name": "y", "parameters": {"classification": 3, "binary_data": false}}]}
        """
        let request = try RESTRequestDecoder.decode(Data(json.utf8), headerLength: nil)
        XCTAssertEqual(request.id, "r1")
        XCTAssertTrue(request.binaryDataOutput)
        XCTAssertEqual(request.inputs.map(\.shape), [[2, 2], [3], [1], [1]])
        XCTAssertEqual(request.inputs[0].elements, .fp32([1, 2.5, -3, 4]))
        XCTAssertEqual(request.inputs[2].elements, .bool([true]))
        XCTAssertEqual(request.inputs[3].elements, .bytes([Data("héllo".utf8)]))
        XCTAssertEqual(request.outputs, [.init(name: "y", classification: 3, binaryData: false)])
        // 2^53 + 1 is read exactly, not through a double.
        XCTAssertEqual(request.inputs[1].elements, .int64([1, -2, 9_007_199_254_740_993]))
    }

    func testBinaryDataFollowsTheJSONInInputOrder() throws {
        let header = Data("""
        {"inputs": [{"name": "a", "shape": [2], "datatype": "FP32", "parameters": {"binary_data_size": 8}},
                    {"name": "b", "shape": [1], "datatype": "FP32", "data": [7]},
                    {"name": "c", "shape": [1], "datatype": "BYTES", "parameters": {"binary_data_size": 7}}]}
        """.utf8)
        let body = header + RawTensorData.encode(.fp32([1, 2])) + RawTensorData.encode(.bytes([Data("abc".utf8)]))
        let request = try RESTRequestDecoder.decode(body, headerLength: header.count)
        XCTAssertEqual(request.inputs.map(\.elements), [.fp32([1, 2]), .fp32([7]), .bytes([Data("abc".utf8)])])
        // Bytes left over, a size past the end, a header length past the body.
        XCTAssertThrowsError(try RESTRequestDecoder.decode(body + Data([1]), headerLength: header.count))
        XCTAssertThrowsError(try RESTRequestDecoder.decode(body.dropLast(), headerLength: header.count))
        XCTAssertThrowsError(try RESTRequestDecoder.decode(body, headerLength: body.count + 1))
    }

    func testMalformedRequestsNameWhatIsWrong() {
        func message(_ json: String) -> String? {
            do {
                _ = try RESTRequestDecoder.decode(Data(json.utf8), headerLength: nil)
                return nil
            } catch {
                return (error as? InferenceError)?.message
            }
        }
        XCTAssertEqual(message("[1]"), "the request body is not a JSON object")
        XCTAssertEqual(message("{}"), "the request has no \"inputs\" (a non-empty array of tensors)")
        XCTAssertEqual(message(#"{"inputs": [{"name": "x", "shape": [2], "datatype": "FP32", "data": [1]}]}"#),
                       "input 'x': shape [2] holds 2 elements but \"data\" has 1")
        XCTAssertEqual(message(#"{"inputs": [{"name": "x", "shape": [1], "datatype": "FP32", "data": ["a"]}]}"#),
                       "input 'x': \"data\" of a FP32 tensor must hold numbers")
        XCTAssertEqual(message(#"{"inputs": [{"name": "x", "shape": [1], "datatype": "F32", "data": [1]}]}"#)?.hasPrefix("input 'x': unknown datatype 'F32'"), true)
        XCTAssertEqual(message(#"{"inputs": [{"name": "x", "datatype": "FP32", "data": [1]}]}"#),
                       "input 'x' has no \"shape\" (an array of integers)")
        XCTAssertEqual(message(#"{"inputs": [{"name": "x", "shape": [1], "datatype": "FP32", "data": [1]}], "outputs": [{"name": "y", "parameters": {"classification": "3"}}]}"#),
                       "output 'y': \"classification\" must be an integer")
    }

    func testFloatOutputsAreWrittenExactly() throws {
        let values: [Float] = [0.1, 1.0 / 3.0, -2.5e-38, 123456.79, .ulpOfOne]
        let response = InferenceResponse(modelName: "m", modelVersion: "1", id: "7",
                                         outputs: [.init(tensor: try InferenceTensor(name: "y", shape: [5], elements: .fp32(values)), binaryData: false)])
        let (body, headerLength) = try RESTResponseEncoder.encode(response)
        XCTAssertNil(headerLength)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: Any])
        XCTAssertEqual(json["id"] as? String, "7")
        let output = try XCTUnwrap((json["outputs"] as? [[String: Any]])?.first)
        let decoded = try XCTUnwrap(output["data"] as? [NSNumber]).map { Float($0.doubleValue) }
        XCTAssertEqual(decoded.map(\.bitPattern), values.map(\.bitPattern))
    }

    func testBinaryOutputsFollowTheJSON() throws {
        let tensor = try InferenceTensor(name: "y", shape: [2], elements: .fp32([1, 2]))
        let response = InferenceResponse(modelName: "m", modelVersion: "1", id: nil, outputs: [.init(tensor: tensor, binaryData: true)])
        let (body, headerLength) = try RESTResponseEncoder.encode(response)
        let length = try XCTUnwrap(headerLength)
        XCTAssertEqual(body.dropFirst(length), RawTensorData.encode(.fp32([1, 2])))
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: body.prefix(length)) as? [String: Any])
        let output = try XCTUnwrap((json["outputs"] as? [[String: Any]])?.first)
        XCTAssertEqual((output["parameters"] as? [String: Int])?["binary_data_size"], 8)
        XCTAssertNil(output["data"])
    }
}
