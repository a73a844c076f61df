@_spi(Internals) import Fovea
import Foundation
import FoveaServerProtocol

extension ServedModel {
    /// The requested outputs (all, when none is named) of the rows' results,
    /// the rows joined back along the batch dimension.
    func responseOutputs(_ request: InferenceRequest, rows: [[String: Tensor]]) throws -> [InferenceResponse.Output] {
        let requested = request.outputs.isEmpty
            ? model.graph.outputs.map { InferenceRequest.RequestedOutput(name: $0.name) }
            : request.outputs
        return try requested.map { output in
            guard model.graph.outputs.contains(where: { $0.name == output.name }) else {
                throw InferenceError.invalid("model '\(name)' has no output '\(output.name)' (outputs: \(model.graph.outputs.map(\.name).joined(separator: ", ")))")
            }
            let parts = try rows.map { row -> Tensor in
                guard let tensor = row[output.name] else {
                    throw InferenceError(.internalError, "the model produced no output '\(output.name)'")
                }
                return tensor
            }
            let joined = try batchable ? Self.joined(parts) : parts[0]
            let tensor: InferenceTensor
            if let k = output.classification {
                tensor = try classification(of: joined, name: output.name, k: k)
            } else {
                tensor = try InferenceTensor(name: output.name, tensor: joined)
            }
            return InferenceResponse.Output(tensor: tensor, binaryData: output.binaryData || request.binaryDataOutput)
        }
    }

    /// The classification extension: per row, the top `k` classes as
    /// `"score:index:label"` (`"score:index"` without labels), BYTES of shape
    /// `[N, k]`. The score is the class probability: the output itself when
    /// the model outputs probabilities, its softmax when it outputs logits,
    /// the same confidence `fovea classify` prints.
    func classification(of scores: Tensor, name: String, k: Int) throws -> InferenceTensor {
        guard k >= 1 else { throw InferenceError.invalid("output '\(name)': classification needs k ≥ 1, got \(k)") }
        guard let values = scores.floats, let classes = scores.shape.last, classes > 0 else {
            throw InferenceError.invalid("output '\(name)' is not a float tensor of class scores; it cannot be classified")
        }
        let rowCount = values.count / classes
        let top = min(k, classes)
        let labels = model.modelDescription.classLabels
        var strings: [String] = []
        for row in 0..<rowCount {
            let probabilities = model.modelDescription.probabilities(fromScores: Array(values[row * classes ..< (row + 1) * classes]))
            // Highest first; ties keep the lower index first, as a stable sort would.
            let ranked = probabilities.indices.sorted { probabilities[$0] > probabilities[$1] || (probabilities[$0] == probabilities[$1] && $0 < $1) }
            for index in ranked.prefix(top) {
                var text = "\(probabilities[index]):\(index)"
                if let label = labels?.label(at: index) { text += ":" + label }
                strings.append(text)
            }
        }
        return try InferenceTensor(name: name, shape: [rowCount, top], elements: .bytes(strings.map { Data($0.utf8) }))
    }

    /// `1×…` tensors stacked into one `N×…` tensor.
    static func joined(_ parts: [Tensor]) throws -> Tensor {
        guard parts.count > 1, let first = parts.first else { return parts[0] }
        let shape = [parts.reduce(0) { $0 + ($1.shape.first ?? 1) }] + first.shape.dropFirst()
        switch first.storage {
        case .float32: return try Tensor(shape: shape, floats: parts.flatMap { $0.floats ?? [] })
        case .int64: return try Tensor(shape: shape, int64s: parts.flatMap { $0.int64s ?? [] })
        case .bool: return try Tensor(shape: shape, storage: .bool(parts.flatMap { $0.bools ?? [] }))
        case .uint8: return try Tensor(shape: shape, storage: .uint8(parts.flatMap { $0.uint8s ?? [] }))
        case .int8: return try Tensor(shape: shape, storage: .int8(parts.flatMap { $0.int8s ?? [] }))
        case .int32: return try Tensor(shape: shape, storage: .int32(parts.flatMap { $0.int32s ?? [] }))
        }
    }
}
