import Foundation

/// Reads the protocol's REST inference request: the JSON object and, with the
/// binary data extension, the raw tensor bytes after it
/// (`Inference-Header-Content-Length` gives the JSON's length; each binary
/// input says its `binary_data_size`, in input order).
public enum RESTRequestDecoder {
    /// - Parameters:
    ///   - headerLength: the `Inference-Header-Content-Length` value, if sent.
    ///   - maxJSONBytes: the largest JSON part accepted (``ServerLimits/maxJSONBytes``).
    public static func decode(_ body: Data, headerLength: Int?, maxJSONBytes: Int = ServerLimits().maxJSONBytes) throws -> InferenceRequest {
        let jsonLength = headerLength ?? body.count
        guard jsonLength >= 0 && jsonLength <= body.count else {
            throw InferenceError.invalid("Inference-Header-Content-Length is \(jsonLength) but the body has \(body.count) bytes")
        }
        try checkJSONLength(jsonLength, limit: maxJSONBytes)
        let json = body.prefix(jsonLength)
        guard let object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] else {
            throw InferenceError.invalid("the request body is not a JSON object")
        }
        var binary = body.dropFirst(jsonLength)
        guard let inputs = object["inputs"] as? [[String: Any]], !inputs.isEmpty else {
            throw InferenceError.invalid("the request has no \"inputs\" (a non-empty array of tensors)")
        }
        let tensors = try inputs.map { try tensor($0, binary: &binary) }
        guard binary.isEmpty else {
            throw InferenceError.invalid("\(binary.count) bytes after the JSON belong to no input (check binary_data_size)")
        }
        let parameters = object["parameters"] as? [String: Any] ?? [:]
        let outputs = try (object["outputs"] as? [[String: Any]] ?? []).map(requestedOutput)
        let id: String? = object["id"].map { $0 as? String ?? "\($0)" }
        return InferenceRequest(id: id, inputs: tensors, outputs: outputs,
                                binaryDataOutput: parameters["binary_data_output"] as? Bool ?? false)
    }

    /// A body's declared JSON and binary lengths, from its headers, before it is
    /// read: over a limit is an error at once. Without a Content-Length
    /// (chunked), the limits themselves are what it may cost.
    public struct DeclaredLengths: Sendable, Equatable {
        /// The JSON part's bytes (at most the JSON limit).
        public var json: Int
        /// The binary part's bytes.
        public var binary: Int
        /// `Inference-Header-Content-Length`, if sent.
        public var headerLength: Int?
        /// `Content-Length`, if sent.
        public var contentLength: Int?

        /// - Parameters:
        ///   - contentLength: the `Content-Length` header's value, if sent.
        ///   - headerLength: the `Inference-Header-Content-Length` header's value, if sent.
        public init(contentLength contentValue: String?, headerLength headerValue: String?, limits: ServerLimits) throws {
            func number(_ value: String?, _ field: String) throws -> Int? {
                guard let value else { return nil }
                guard let number = Int(value), number >= 0 else { throw InferenceError.invalid("\(field) '\(value)' is not a number") }
                return number
            }
            headerLength = try number(headerValue, "Inference-Header-Content-Length")
            contentLength = try number(contentValue, "Content-Length")
            if let contentLength, contentLength > limits.maxRequestBytes {
                throw InferenceError(.tooLarge, "the request body has \(contentLength) bytes; the limit is \(limits.maxRequestBytes)")
            }
            let total = contentLength ?? limits.maxRequestBytes
            // Without Inference-Header-Content-Length the whole body is JSON.
            if let declared = headerLength ?? contentLength {
                try RESTRequestDecoder.checkJSONLength(min(declared, total), limit: limits.maxJSONBytes)
            }
            json = min(headerLength ?? contentLength ?? limits.maxJSONBytes, total)
            binary = headerLength == nil ? 0 : total - json
        }
    }

    /// JSON costs tens of bytes of memory per byte once parsed, so its part of a
    /// body has a limit of its own, below the binary one.
    public static func checkJSONLength(_ length: Int, limit: Int) throws {
        guard length <= limit else {
            throw InferenceError(.tooLarge, "the request's JSON has \(length) bytes; the limit is \(limit) (send tensors as binary data for more)")
        }
    }

    private static func tensor(_ object: [String: Any], binary: inout Data.SubSequence) throws -> InferenceTensor {
        guard let name = object["name"] as? String else { throw InferenceError.invalid("an input has no \"name\"") }
        guard let datatypeName = object["datatype"] as? String else { throw InferenceError.invalid("input '\(name)' has no \"datatype\"") }
        guard let shapeValues = object["shape"] as? [Any], let shape = integers(shapeValues) else {
            throw InferenceError.invalid("input '\(name)' has no \"shape\" (an array of integers)")
        }
        let datatype = try InferenceDatatype.parse(datatypeName, input: name)
        let count = try TensorSize.elementCount(shape, name: name)
        let parameters = object["parameters"] as? [String: Any] ?? [:]
        if let size = parameters["binary_data_size"] {
            guard let size = size as? Int, size >= 0, size <= binary.count else {
                throw InferenceError.invalid("input '\(name)': binary_data_size \(size) but \(binary.count) binary bytes remain")
            }
            let bytes = Data(binary.prefix(size))
            binary = binary.dropFirst(size)
            return try InferenceTensor(name: name, shape: shape, elements: RawTensorData.decode(bytes, datatype: datatype, count: count, name: name))
        }
        guard let data = object["data"] else { throw InferenceError.invalid("input '\(name)' has neither \"data\" nor binary_data_size") }
        var flat: [Any] = []
        flatten(data, into: &flat)
        guard flat.count == count else {
            throw InferenceError.invalid("input '\(name)': shape \(shape) holds \(count) elements but \"data\" has \(flat.count)")
        }
        return try InferenceTensor(name: name, shape: shape, elements: elements(flat, datatype: datatype, name: name))
    }

    private static func elements(_ values: [Any], datatype: InferenceDatatype, name: String) throws -> InferenceTensor.Elements {
        func bad(_ kind: String) -> InferenceError {
            InferenceError.invalid("input '\(name)': \"data\" of a \(datatype.rawValue) tensor must hold \(kind)")
        }
        switch datatype {
        case .fp32:
            return .fp32(try values.map { guard let number = $0 as? NSNumber, !isJSONBool($0) else { throw bad("numbers") }; return number.floatValue })
        case .int64:
            return .int64(try values.map { guard let value = integer($0) else { throw bad("integers") }; return value })
        case .bool:
            return .bool(try values.map { guard isJSONBool($0), let value = $0 as? Bool else { throw bad("true or false") }; return value })
        case .bytes:
            return .bytes(try values.map { guard let text = $0 as? String else { throw bad("strings") }; return Data(text.utf8) })
        default:
            throw InferenceError.invalid("input '\(name)': datatype \(datatype.rawValue) is not supported (Fovea takes FP32, INT64, BOOL, and BYTES for photos)")
        }
    }

    private static func requestedOutput(_ object: [String: Any]) throws -> InferenceRequest.RequestedOutput {
        guard let name = object["name"] as? String else { throw InferenceError.invalid("a requested output has no \"name\"") }
        let parameters = object["parameters"] as? [String: Any] ?? [:]
        var classification: Int?
        if let k = parameters["classification"] {
            guard let k = k as? Int, !isJSONBool(k) else {
                throw InferenceError.invalid("output '\(name)': \"classification\" must be an integer")
            }
            classification = k
        }
        return .init(name: name, classification: classification, binaryData: parameters["binary_data"] as? Bool ?? false)
    }

    /// Nested arrays (row-major) or a flat one, flattened.
    private static func flatten(_ value: Any, into flat: inout [Any]) {
        if let array = value as? [Any] {
            for element in array { flatten(element, into: &flat) }
        } else {
            flat.append(value)
        }
    }

    private static func integers(_ values: [Any]) -> [Int]? {
        let integers = values.compactMap { integer($0).flatMap { Int(exactly: $0) } }
        return integers.count == values.count ? integers : nil
    }

    /// A JSON number that is an integer, read exactly (not through a double,
    /// which would round integers above 2^53); `nil` for anything else.
    private static func integer(_ value: Any) -> Int64? {
        guard !isJSONBool(value) else { return nil }
        if let integer = value as? Int64 { return integer }
        if let integer = value as? Int { return Int64(integer) }
        if let number = value as? Double { return Int64(exactly: number) }
        return nil
    }

    /// Whether a JSONSerialization value is JSON's `true` or `false`. Not `is Bool`:
    /// on Linux every NSNumber, 0 and 1 among them, casts to Bool.
    private static func isJSONBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }
}
