import FoveaCore

/// Seeded random graphs that stress the memory planner: branches, Concats of
/// shared values and of graph inputs, values read many times, several graph
/// outputs (some of them intermediates read again), elementwise ops next to
/// later readers of their input, views, and batch > 1.
public enum RandomGraphs {
    /// A random graph over NCHW float tensors of one spatial size, with its feeds.
    public static func make(seed: UInt64) -> (graph: Graph, feeds: [String: Tensor]) {
        var random = SeededGenerator(seed: seed)
        let batch = Int.random(in: 1...3, using: &random)
        let size = Int.random(in: 1...4, using: &random)
        var nodes: [Node] = []
        var initializers: [String: Tensor] = [:]
        // Values available so far with their channel counts.
        var available: [(name: String, channels: Int)] = []
        var feeds: [String: Tensor] = [:]
        var inputs: [ValueInfo] = []
        for i in 0..<Int.random(in: 1...2, using: &random) {
            let channels = Int.random(in: 1...4, using: &random)
            let name = "in\(i)"
            let shape = [batch, channels, size, size]
            inputs.append(ValueInfo(name: name, dataType: .float32, dimensions: shape.map { .known($0) }))
            feeds[name] = try! Tensor(shape: shape, floats: (0..<shape.elementCount).map { _ in Float.random(in: -2...2, using: &random) })
            available.append((name, channels))
        }
        func pick() -> (name: String, channels: Int) { available[Int.random(in: 0..<available.count, using: &random)] }
        let count = Int.random(in: 2...14, using: &random)
        for index in 0..<count {
            let out = "v\(index)"
            let name = "n\(index)"
            switch Int.random(in: 0..<8, using: &random) {
            case 0, 1:
                // Concat of 1-3 values, possibly the same one twice.
                let parts = (0..<Int.random(in: 1...3, using: &random)).map { _ in pick() }
                nodes.append(Node(name: name, op: .concat(axis: 1), inputs: parts.map(\.name), outputs: [out]))
                available.append((out, parts.map(\.channels).reduce(0, +)))
            case 2:
                let x = pick()
                nodes.append(Node(name: name, op: .relu, inputs: [x.name], outputs: [out]))
                available.append((out, x.channels))
            case 3:
                // Add of two values of the same channel count, or of one value with itself.
                let x = pick()
                let same = available.filter { $0.channels == x.channels }
                let y = same[Int.random(in: 0..<same.count, using: &random)]
                nodes.append(Node(name: name, op: .add, inputs: [x.name, y.name], outputs: [out]))
                available.append((out, x.channels))
            case 4:
                // 1x1 Conv to a new channel count, sometimes with a fused Relu.
                let x = pick()
                let outChannels = Int.random(in: 1...4, using: &random)
                let w = "w\(index)"
                initializers[w] = try! Tensor(shape: [outChannels, x.channels, 1, 1],
                                         floats: (0..<(outChannels * x.channels)).map { _ in Float.random(in: -1...1, using: &random) })
                let attributes = ConvAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0],
                                                activation: Bool.random(using: &random) ? .relu : nil)
                nodes.append(Node(name: name, op: .conv(attributes), inputs: [x.name, w], outputs: [out]))
                available.append((out, outChannels))
            case 5:
                // A view: flatten then reshape back.
                let x = pick()
                let flat = "f\(index)"
                nodes.append(Node(name: name + "_flatten", op: .flatten(axis: 1), inputs: [x.name], outputs: [flat]))
                nodes.append(Node(name: name, op: .reshape(shape: [batch, x.channels, size, size], allowZero: false),
                                  inputs: [flat], outputs: [out]))
                available.append((out, x.channels))
            case 6:
                let x = pick()
                nodes.append(Node(name: name, op: .clip(min: -0.5, max: 0.5), inputs: [x.name], outputs: [out]))
                available.append((out, x.channels))
            default:
                // Max pooling 1x1 (same shape): a strided-capable producer.
                let x = pick()
                let pool = PoolAttributes(kernelShape: [1, 1], strides: [1, 1], dilations: [1, 1], pads: [0, 0, 0, 0])
                nodes.append(Node(name: name, op: .maxPool(pool), inputs: [x.name], outputs: [out]))
                available.append((out, x.channels))
            }
        }
        // The last value, plus sometimes an intermediate (also read again), are outputs.
        var outputNames = [available.last!.name]
        if available.count > 2, Bool.random(using: &random) {
            let extra = available[Int.random(in: 0..<(available.count - 1), using: &random)].name
            if !outputNames.contains(extra) { outputNames.append(extra) }
        }
        let outputs = outputNames.map { ValueInfo(name: $0, dataType: .float32, dimensions: nil) }
        return (Graph(name: "random\(seed)", inputs: inputs, outputs: outputs, nodes: nodes, initializers: initializers), feeds)
    }
}
