import FoveaCore

/// Builds a ``Graph`` from a NeuralNetwork's layers, one or more nodes per layer.
///
/// Every blob is NCHW `[1, C, H, W]`; the builder tracks each blob's shape (with
/// FoveaCore's own shape inference) so layers whose translation depends on
/// shapes (inner product, reshape, flatten) can be checked and lowered at load time.
final class CoreMLGraphBuilder {
    private(set) var nodes: [Node] = []
    private(set) var initializers: [String: Tensor] = [:]
    /// The type of every value defined so far.
    private(set) var types: [String: TensorType] = [:]
    private var nodeNames: Set<String> = []

    /// The layer being translated: names its extra nodes and its errors.
    var layerName = ""

    /// Declares a graph input.
    func defineInput(_ name: String, shape: [Int]) throws {
        guard types[name] == nil else {
            throw FoveaError(.invalidModel, "input '\(name)' is declared twice")
        }
        types[name] = TensorType(.float32, shape)
    }

    /// The shape of blob `name`, which must already exist.
    func shape(of name: String) throws -> [Int] {
        guard let type = types[name] else {
            throw FoveaError(.invalidModel, "reads blob '\(name)', which no input or earlier layer produces")
        }
        return type.shape
    }

    /// Adds a constant and returns its (unique) value name, `<layer>/<role>`.
    func constant(_ role: String, shape: [Int], values: [Float]) throws -> String {
        let name = uniqueValueName("\(layerName)/\(role)")
        initializers[name] = try Tensor(shape: shape, floats: values)
        types[name] = TensorType(.float32, shape)
        return name
    }

    /// A fresh value name for an intermediate result of the current layer.
    func temporary(_ role: String) -> String {
        uniqueValueName("\(layerName)/\(role)")
    }

    /// Adds a node computing `op` and infers its output type. A layer may not
    /// overwrite an existing blob (Core ML's in-place layers are renamed by the caller).
    @discardableResult
    func add(_ op: Op, inputs: [String], output: String, suffix: String? = nil) throws -> String {
        let inputTypes = try inputs.map { name -> TensorType? in
            guard let type = types[name] else {
                throw FoveaError(.invalidModel, "reads blob '\(name)', which no input or earlier layer produces")
            }
            return type
        }
        guard types[output] == nil else {
            throw FoveaError(.invalidModel, "writes blob '\(output)', which an input or an earlier layer already produces")
        }
        let outputType = try op.outputTypes(inputs: inputTypes, outputCount: 1)[0]
        var nodeName = suffix.map { "\(layerName)/\($0)" } ?? layerName
        if nodeName.isEmpty { nodeName = "\(op.typeName)_\(nodes.count)" }
        while nodeNames.contains(nodeName) { nodeName += "_" }
        nodeNames.insert(nodeName)
        nodes.append(Node(name: nodeName, op: op, inputs: inputs, outputs: [output]))
        types[output] = outputType
        return output
    }

    /// Adds a chain of single-input ops from `input` to `output`, with temporaries between.
    @discardableResult
    func chain(_ ops: [Op], input: String, output: String) throws -> String {
        var current = input
        for (index, op) in ops.enumerated() {
            let isLast = index == ops.count - 1
            let target = isLast ? output : temporary(op.typeName.lowercased())
            current = try add(op, inputs: [current], output: target, suffix: index == 0 ? nil : op.typeName.lowercased())
        }
        return current
    }

    private func uniqueValueName(_ base: String) -> String {
        var name = base
        var counter = 1
        while types[name] != nil {
            counter += 1
            name = "\(base)_\(counter)"
        }
        return name
    }
}
