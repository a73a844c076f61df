import Foundation
@_spi(Internals) import Fovea
import FoveaCore
import FoveaTraining

/// `fovea inspect --model M --feature-layers`: the values a classifier can be
/// trained on, with their widths, the default marked.
func printFeatureLayers(modelAt path: String, json: Bool) throws {
    let graph = try ModelFile.loadGraph(contentsOf: path)
    let layers = try FeatureLayer.candidates(in: graph)
    let preferred = try? FeatureLayer.defaultLayer(in: graph)
    if json {
        let rows: [[String: Any]] = layers.map { layer in
            ["name": layer.name, "op": layer.opType, "shape": layer.shape, "width": layer.width,
             "pooled": layer.isPooled, "default": layer == preferred]
        }
        let data = try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
        return
    }
    print("feature layers (width = features after pooling; * = default):")
    for layer in layers {
        let mark = layer == preferred ? "*" : " "
        let pooled = layer.isPooled ? " pooled" : ""
        let name = SafeText.escaped(layer.name).padding(toLength: max(32, layer.name.count), withPad: " ", startingAt: 0)
        print("\(mark) \(name) \(layer.opType.padding(toLength: 18, withPad: " ", startingAt: 0)) \(layer.shape.map(String.init).joined(separator: "×").padding(toLength: 14, withPad: " ", startingAt: 0)) width \(layer.width)\(pooled)")
    }
}
