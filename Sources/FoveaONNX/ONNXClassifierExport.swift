import Foundation
import FoveaCore
import SwiftProtobuf

/// Writes a new ONNX classifier made of a base network's graph up to a feature
/// value, then (if that value is spatial) `GlobalAveragePool`, `Flatten`, a
/// `Gemm` with the given weights and `Softmax`: the model `fovea train` exports.
/// The base network's nodes and weights are copied once, unchanged.
public enum ONNXClassifierExport {
    /// The name of the exported probabilities output.
    public static let outputName = "classLabelProbs"

    /// The serialized model.
    ///
    /// - Parameters:
    ///   - baseModel: the base network's `.onnx` file.
    ///   - featureValue: the value the features are read from.
    ///   - pool: whether to global-average-pool it first (an `N×C×H×W` value).
    ///   - weights: `classCount × featureCount`, row-major (the `Gemm`'s `B`, transposed).
    ///   - bias: one per class.
    ///   - metadata: `metadata_props` entries (Fovea reads its description from `fovea`).
    /// - Throws: `FoveaError` if the base model cannot be read or has no such value.
    public static func data(baseModel path: String, featureValue: String, pool: Bool,
                            weights: [Float], bias: [Float], metadata: [String: String],
                            producerName: String = "fovea train") throws -> Data {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var options = BinaryDecodingOptions()
        options.discardUnknownFields = true
        var model = try FoveaError.at(.init(file: path)) {
            do { return try Onnx_ModelProto(serializedBytes: bytes, options: options) } catch {
                throw FoveaError(.invalidModel, "not a valid ONNX model (\(error))")
            }
        }
        let classCount = bias.count
        guard classCount > 0, weights.count % classCount == 0 else {
            throw FoveaError(.invalidArgument, "the head has \(weights.count) weights for \(classCount) classes")
        }
        let featureCount = weights.count / classCount
        var graph = model.graph
        let producers = Dictionary(graph.node.enumerated().flatMap { index, node in node.output.map { ($0, index) } },
                                   uniquingKeysWith: { first, _ in first })
        guard producers[featureValue] != nil else {
            throw FoveaError(.invalidArgument, "'\(featureValue)' is not produced by a node of the model", location: .init(file: path))
        }
        // Keep what the feature value depends on.
        var needed: Set<String> = [featureValue]
        var keep = Set<Int>()
        var pending = [featureValue]
        while let value = pending.popLast() {
            guard let index = producers[value], keep.insert(index).inserted else { continue }
            for input in graph.node[index].input where !input.isEmpty && needed.insert(input).inserted { pending.append(input) }
        }
        var nodes = graph.node.indices.filter(keep.contains).map { graph.node[$0] }
        graph.initializer = graph.initializer.filter { needed.contains($0.name) }
        graph.input = graph.input.filter { needed.contains($0.name) }

        var value = featureValue
        func node(_ op: String, _ inputs: [String], _ output: String, _ attributes: [Onnx_AttributeProto] = []) -> Onnx_NodeProto {
            var node = Onnx_NodeProto()
            node.opType = op
            node.name = "fovea_head_" + op.lowercased()
            node.input = inputs
            node.output = [output]
            node.attribute = attributes
            return node
        }
        func intAttribute(_ name: String, _ value: Int64) -> Onnx_AttributeProto {
            var attribute = Onnx_AttributeProto()
            attribute.name = name
            attribute.type = .int
            attribute.i = value
            return attribute
        }
        if pool {
            nodes.append(node("GlobalAveragePool", [value], "fovea_head_pooled"))
            value = "fovea_head_pooled"
        }
        nodes.append(node("Flatten", [value], "fovea_head_features", [intAttribute("axis", 1)]))
        nodes.append(node("Gemm", ["fovea_head_features", "fovea_head_weights", "fovea_head_bias"], "fovea_head_logits",
                          [intAttribute("transB", 1)]))
        nodes.append(node("Softmax", ["fovea_head_logits"], outputName, [intAttribute("axis", 1)]))
        graph.node = nodes
        graph.initializer.append(floatTensor("fovea_head_weights", [classCount, featureCount], weights))
        graph.initializer.append(floatTensor("fovea_head_bias", [classCount], bias))

        var output = Onnx_ValueInfoProto()
        output.name = outputName
        var type = Onnx_TypeProto.Tensor()
        type.elemType = Int32(Onnx_TensorProto.DataType.float.rawValue)
        var batch = Onnx_TensorShapeProto.TensorDimension()
        if let inputBatch = graph.input.first?.type.tensorType.shape.dim.first { batch = inputBatch } else { batch.dimValue = 1 }
        var classes = Onnx_TensorShapeProto.TensorDimension()
        classes.dimValue = Int64(classCount)
        type.shape.dim = [batch, classes]
        output.type.tensorType = type
        graph.output = [output]
        model.graph = graph
        model.producerName = producerName
        model.metadataProps = metadata.sorted { $0.key < $1.key }.map { key, value in
            var entry = Onnx_StringStringEntryProto()
            entry.key = key
            entry.value = value
            return entry
        }
        return try model.serializedData()
    }

    private static func floatTensor(_ name: String, _ dims: [Int], _ values: [Float]) -> Onnx_TensorProto {
        var tensor = Onnx_TensorProto()
        tensor.name = name
        tensor.dims = dims.map(Int64.init)
        tensor.dataType = Int32(Onnx_TensorProto.DataType.float.rawValue)
        var raw = Data(capacity: values.count * 4)
        for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { raw.append(contentsOf: $0) } }
        tensor.rawData = raw
        return tensor
    }
}
