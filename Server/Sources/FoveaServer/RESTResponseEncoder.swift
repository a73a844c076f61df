import Foundation
import FoveaServerProtocol

/// Writes the protocol's REST JSON bodies. Floats are written as the exact
/// double of each float32 value, so a client that parses them back to float32
/// gets the same bits the model produced.
public enum RESTResponseEncoder {
    /// An inference response, with the binary outputs' bytes after the JSON;
    /// `headerLength` is the JSON's length when there are any
    /// (`Inference-Header-Content-Length`).
    public static func encode(_ response: InferenceResponse) throws -> (body: Data, headerLength: Int?) {
        var binary = Data()
        let outputs = response.outputs.map { output -> OutputJSON in
            let tensor = output.tensor
            var json = OutputJSON(name: tensor.name, datatype: tensor.datatype.rawValue, shape: tensor.shape, parameters: nil, data: nil)
            if output.binaryData {
                let raw = RawTensorData.encode(tensor.elements)
                json.parameters = ["binary_data_size": raw.count]
                binary.append(raw)
            } else {
                json.data = DataJSON(tensor.elements)
            }
            return json
        }
        let header = try encoder.encode(ResponseJSON(model_name: response.modelName, model_version: response.modelVersion,
                                                     id: response.id, outputs: outputs))
        return binary.isEmpty ? (header, nil) : (header + binary, header.count)
    }

    /// `{"error": "..."}`.
    static func error(_ message: String) -> Data {
        (try? encoder.encode(["error": message])) ?? Data("{\"error\":\"internal error\"}".utf8)
    }

    static func metadata(_ metadata: ModelMetadata) throws -> Data {
        func tensors(_ list: [TensorMetadata]) -> [TensorJSON] {
            list.map { TensorJSON(name: $0.name, datatype: $0.datatype.rawValue, shape: $0.shape) }
        }
        return try encoder.encode(ModelMetadataJSON(name: metadata.name, versions: metadata.versions, platform: metadata.platform,
                                                    inputs: tensors(metadata.inputs), outputs: tensors(metadata.outputs)))
    }

    static func json(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()

    private struct ResponseJSON: Encodable {
        var model_name: String
        var model_version: String
        var id: String?
        var outputs: [OutputJSON]
    }

    private struct OutputJSON: Encodable {
        var name: String
        var datatype: String
        var shape: [Int]
        var parameters: [String: Int]?
        var data: DataJSON?
    }

    private struct TensorJSON: Encodable {
        var name: String
        var datatype: String
        var shape: [Int]
    }

    private struct ModelMetadataJSON: Encodable {
        var name: String
        var versions: [String]
        var platform: String
        var inputs: [TensorJSON]
        var outputs: [TensorJSON]
    }

    /// A tensor's elements as a flat JSON array.
    private enum DataJSON: Encodable {
        case numbers([Double])
        case integers([Int64])
        case bools([Bool])
        case strings([String])

        init(_ elements: InferenceTensor.Elements) {
            switch elements {
            case .fp32(let values): self = .numbers(values.map(Double.init))
            case .int64(let values): self = .integers(values)
            case .bool(let values): self = .bools(values)
            // BYTES as JSON strings: UTF-8 text, as the protocol writes them.
            case .bytes(let values): self = .strings(values.map { String(decoding: $0, as: UTF8.self) })
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .numbers(let values): try container.encode(values)
            case .integers(let values): try container.encode(values)
            case .bools(let values): try container.encode(values)
            case .strings(let values): try container.encode(values)
            }
        }
    }
}
