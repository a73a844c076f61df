import Foundation
@_spi(Internals) import Fovea
import FoveaCore

/// A value of a network that can serve as the feature vector: its name, the op
/// that produces it and its shape for one image. A spatial value
/// (`1×C×H×W` with `H·W > 1`) is global-average-pooled to `C` features.
public struct FeatureLayer: Sendable, Equatable {
    /// The value's name in the graph.
    public let name: String
    /// The op type that produces it (`Concat`, `GlobalAveragePool`, ...).
    public let opType: String
    /// Its shape for a batch of one.
    public let shape: [Int]

    /// The length of the feature vector: the channel count.
    public var width: Int { shape.count >= 2 ? shape[1] : shape.reduce(1, *) }
    /// Whether it is pooled over space to make the feature vector.
    public var isPooled: Bool { shape.count == 4 && shape[2] * shape[3] > 1 }

    /// Every value a feature vector can be read from (float, rank 2 or 4,
    /// produced by a node), in graph order.
    public static func candidates(in graph: Graph) throws -> [FeatureLayer] {
        // Shapes for one image: a symbolic batch dimension becomes 1.
        let shapes = Dictionary(uniqueKeysWithValues: graph.inputs.compactMap { input in
            input.dimensions.map { dims in (input.name, dims.map { if case .known(let n) = $0 { n } else { 1 } }) }
        })
        let types = try graph.inferTypes(inputShapes: shapes)
        return graph.nodes.flatMap { node in
            node.outputs.compactMap { name -> FeatureLayer? in
                guard !name.isEmpty, let type = types[name], type.dataType == .float32,
                      type.shape.count == 2 || type.shape.count == 4 else { return nil }
                return FeatureLayer(name: name, opType: node.op.typeName, shape: type.shape)
            }
        }
    }

    /// The default: the input of the network's final classifier (its last
    /// Conv, Gemm or MatMul), pooled if it is spatial. Dropout and Identity
    /// before the classifier are looked through, so the value survives the
    /// graph passes that remove them.
    public static func defaultLayer(in graph: Graph) throws -> FeatureLayer {
        let candidates = try candidates(in: graph)
        guard let classifier = graph.nodes.last(where: { node in
            switch node.op {
            case .conv, .gemm, .matMul: return true
            default: return false
            }
        }), var value = classifier.input(0) else {
            throw FoveaError(.invalidModel, "found no Conv, Gemm or MatMul to read features before; pass a feature layer (see `fovea inspect --model M --feature-layers`)")
        }
        while let producer = graph.nodes.first(where: { $0.outputs.contains(value) }),
              producer.op == .dropout || producer.op == .identity, let input = producer.input(0) {
            value = input
        }
        guard let layer = candidates.first(where: { $0.name == value }) else {
            throw FoveaError(.invalidModel, "the classifier's input '\(value)' is not a float tensor of rank 2 or 4; pass a feature layer")
        }
        return layer
    }

    /// The layer named `name`.
    ///
    /// - Throws: `.invalidArgument` naming the last few candidates when there is none.
    public static func named(_ name: String, in graph: Graph) throws -> FeatureLayer {
        let candidates = try candidates(in: graph)
        guard let layer = candidates.first(where: { $0.name == name }) else {
            let names = candidates.suffix(6).map { "\($0.name) (\($0.width))" }.joined(separator: ", ")
            throw FoveaError(.invalidArgument, "'\(name)' is not a feature layer of the model (the last ones: \(names); all: `fovea inspect --model M --feature-layers`)")
        }
        return layer
    }

    /// The graph that computes this layer's feature vector, `1×width`, as its
    /// only output (named ``outputName``).
    public func featureGraph(from graph: Graph) throws -> Graph {
        var cut = try graph.truncated(at: [name])
        var value = name
        if isPooled {
            cut.nodes.append(Node(name: "fovea_feature_pool", op: .globalAveragePool, inputs: [value], outputs: ["fovea_feature_pooled"]))
            value = "fovea_feature_pooled"
        }
        cut.nodes.append(Node(name: "fovea_feature_flatten", op: .flatten(axis: 1), inputs: [value], outputs: [Self.outputName]))
        cut.outputs = [ValueInfo(name: Self.outputName, dataType: .float32, dimensions: nil)]
        return cut
    }

    /// The name of the feature graph's output.
    public static let outputName = "fovea_features"
}
