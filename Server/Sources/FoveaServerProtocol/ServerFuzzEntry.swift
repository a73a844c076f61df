import Foundation
import SwiftProtobuf

/// What one fuzzer input goes through, per request decoder: the REST request
/// (headers, JSON, binary data extension) and the gRPC ModelInfer message.
/// `fovea-serve-fuzz` runs them under libFuzzer (scripts/ci/fuzz.sh); a clean
/// ``InferenceError`` is the expected answer to a bad input, and anything
/// else (a trap, an abort, an allocation past the fuzzer's limit) is a bug.
public enum ServerFuzzEntry: String, CaseIterable, Sendable {
    /// `serve-rest`: header lines (`Content-Length`, `Inference-Header-Content-Length`),
    /// a blank line, then the body.
    case rest = "serve-rest"
    /// `serve-grpc`: a serialized `inference.ModelInferRequest`.
    case grpc = "serve-grpc"

    /// Small limits, so that inputs within libFuzzer's size stay within them.
    public static let limits = ServerLimits(maxRequestBytes: 1 << 20, maxJSONBytes: 256 << 10)

    /// Decodes one input; returns the request when it was valid.
    @discardableResult
    public func run(_ data: Data) -> InferenceRequest? {
        let request: InferenceRequest?
        switch self {
        case .rest:
            // The photo header reader sees hostile bytes too: first the input itself.
            _ = PhotoHeader.pixels(data)
            request = Self.rest(data)
        case .grpc:
            guard let message = try? Inference_ModelInferRequest(serializedBytes: data) else { return nil }
            request = try? ModelInferRequestDecoder.decode(message, limit: Self.limits.maxRequestBytes)
        }
        // What the server does next with BYTES elements: read each photo's header for the pixel budget.
        for input in request?.inputs ?? [] {
            if case .bytes(let photos) = input.elements { for photo in photos { _ = PhotoHeader.pixels(photo) } }
        }
        return request
    }

    /// The route's steps without the socket: the declared lengths from the
    /// headers, the received body against them, then the body.
    private static func rest(_ data: Data) -> InferenceRequest? {
        var headers: [String: String] = [:]
        var body = data
        if let blank = data.range(of: Data("\n\n".utf8)) {
            for line in String(decoding: data[..<blank.lowerBound], as: UTF8.self).split(separator: "\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
            body = data[blank.upperBound...]
        }
        guard let lengths = try? RESTRequestDecoder.DeclaredLengths(contentLength: headers["content-length"],
                                                                    headerLength: headers["inference-header-content-length"], limits: limits),
              lengths.contentLength.map({ $0 == body.count }) ?? true else { return nil }
        return try? RESTRequestDecoder.decode(Data(body), headerLength: lengths.headerLength, maxJSONBytes: limits.maxJSONBytes)
    }

    /// Valid inputs to start from: each datatype, JSON and binary, nested and flat.
    public var seeds: [Data] {
        switch self {
        case .rest:
            let binary = RawTensorData.encode(.bytes([Data("ab".utf8), Data()]))
            let json = #"{"inputs":[{"name":"image","datatype":"BYTES","shape":[2],"parameters":{"binary_data_size":\#(binary.count)}}]}"#
            return [
                Data(#"{"id":"a","inputs":[{"name":"data","datatype":"FP32","shape":[2,2],"data":[[1,2],[3.5,-4e3]]}],"outputs":[{"name":"logits","parameters":{"classification":3}}]}"#.utf8),
                Data(#"{"inputs":[{"name":"x","datatype":"INT64","shape":[3],"data":[1,-2,9007199254740993]},{"name":"b","datatype":"BOOL","shape":[1],"data":[true]}],"parameters":{"binary_data_output":true}}"#.utf8),
                Data("Content-Length: \(json.utf8.count + binary.count)\nInference-Header-Content-Length: \(json.utf8.count)\n\n".utf8) + Data(json.utf8) + binary,
            ]
        case .grpc:
            var raw = Inference_ModelInferRequest()
            raw.modelName = "squeezenet"
            raw.id = "a"
            raw.inputs = [.with { $0.name = "data"; $0.datatype = "FP32"; $0.shape = [1, 2] }]
            raw.rawInputContents = [RawTensorData.encode(.fp32([1, 2]))]
            raw.outputs = [.with { $0.name = "logits"; $0.parameters["classification"] = .with { $0.int64Param = 2 } }]
            var typed = Inference_ModelInferRequest()
            typed.inputs = [.with { $0.name = "image"; $0.datatype = "BYTES"; $0.shape = [1]; $0.contents.bytesContents = [Data("x".utf8)] },
                            .with { $0.name = "i"; $0.datatype = "INT64"; $0.shape = [2]; $0.contents.int64Contents = [1, -1] }]
            return [raw, typed].compactMap { try? $0.serializedData() }
        }
    }
}
