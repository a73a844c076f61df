import FoveaCore

/// What an operator translation sees of one ONNX node: its inputs and outputs,
/// its attributes, the opset, and the values known at load time.
struct ONNXNodeContext {
    let opType: String
    let opset: Int
    /// The node's inputs as written in the file (`""` is an absent optional input).
    let inputs: [String]
    /// The node's outputs with trailing absent ones removed.
    let outputs: [String]
    let attributes: ONNXAttributes
    /// Values fixed at load time: initializers, `Constant` outputs, `knownInputs`.
    let constants: [String: Tensor]
    /// Shapes declared for graph inputs, used only where a constant would otherwise be needed.
    let declaredShapes: [String: [Int]]

    /// The input at `index`, or `nil` when it is absent.
    func input(_ index: Int) -> String? {
        index < inputs.count && !inputs[index].isEmpty ? inputs[index] : nil
    }

    /// The input at `index`, which the operator requires.
    func requiredInput(_ index: Int, _ role: String) throws -> String {
        guard let name = input(index) else {
            throw FoveaError(.invalidModel, "required input \(index) '\(role)' is missing")
        }
        return name
    }

    /// Throws unless the node has between `range.lowerBound` and `range.upperBound` inputs.
    func expectInputCount(_ range: ClosedRange<Int>) throws {
        guard range.contains(inputs.count) else {
            let expected = range.count == 1 ? "\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
            throw FoveaError(.invalidModel, "has \(inputs.count) inputs; expected \(expected)")
        }
    }

    /// The value of a parameter input (such as Reshape's `shape`) that Fovea turns
    /// into an attribute, or `nil` when the optional input is absent.
    ///
    /// - Throws: `.unsupported` when the input is computed by the graph at run time.
    func constantInput(_ index: Int, _ role: String) throws -> Tensor? {
        guard let name = input(index) else { return nil }
        guard let tensor = constants[name] else {
            let why = role == "shape" ? "dynamic shapes are not supported" : "values computed at run time are not supported"
            throw FoveaError(.unsupported, "input '\(role)' of \(opType) must be a constant (initializer or Constant); \(why)")
        }
        return tensor
    }

    /// Whether the present inputs at `indices` are all known at load time;
    /// otherwise the graph computes them (see ``ComputedParameters``).
    func parametersAreConstant(_ indices: Range<Int>) -> Bool {
        indices.allSatisfy { index in input(index).map { constants[$0] != nil } ?? true }
    }

    /// A constant int64 vector (or scalar) input, such as axes or pads.
    func constantIntegers(_ index: Int, _ role: String) throws -> [Int]? {
        guard let tensor = try constantInput(index, role) else { return nil }
        guard let values = tensor.int64s else {
            throw FoveaError(.invalidModel, "input '\(role)' has data type \(tensor.dataType); expected int64")
        }
        guard tensor.rank <= 1 else {
            throw FoveaError(.invalidModel, "input '\(role)' has shape \(tensor.shape.shapeDescription); expected a 1-D tensor")
        }
        return values.map { Int(truncatingIfNeeded: $0) }
    }

    /// A constant one-element input (Clip's `min`, Pad's `constant_value`) as a float.
    func constantScalar(_ index: Int, _ role: String) throws -> Float? {
        guard let tensor = try constantInput(index, role) else { return nil }
        guard tensor.count == 1 else {
            throw FoveaError(.invalidModel, "input '\(role)' has shape \(tensor.shape.shapeDescription); expected a scalar")
        }
        switch tensor.storage {
        case .float32(let v): return v[0]
        case .int64(let v): return Float(v[0])
        case .bool(let v): return v[0] ? 1 : 0
        case .uint8(let v): return Float(v[0])
        case .int8(let v): return Float(v[0])
        case .int32(let v): return Float(v[0])
        }
    }
}

/// The canonical node an ONNX node becomes: the parameter inputs have been
/// folded into `op` and removed from `inputs`.
struct TranslatedNode {
    var op: Op
    var inputs: [String]
    /// `nil` keeps the node's outputs.
    var outputs: [String]? = nil
    /// The node's one output as a constant computed at load time
    /// (ConstantOfShape, Range): no node is emitted, and `op` is ignored.
    var constant: Tensor? = nil
}
