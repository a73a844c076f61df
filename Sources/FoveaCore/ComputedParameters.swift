/// An operator whose parameters — a Reshape's target, an Expand's shape, a
/// Slice's bounds, a ConstantOfShape's shape, a Pad's pads — are computed by the
/// graph, as exporters write them for a dynamic batch (`Shape → Gather → Concat → …`)
/// or for padding to a multiple of a window (Swin's `(w - W % w) % w`).
///
/// The parameters are int64 tensor inputs after the data input (ConstantOfShape
/// has no data input). Once the input shapes are fixed,
/// ``Graph/foldingShapeComputations(inputShapes:)`` computes them and turns the
/// node into the ordinary operator (``resolved(_:)``).
public enum ComputedParameters: Sendable, Equatable {
    /// Inputs: data, shape.
    case reshape(allowZero: Bool)
    /// Inputs: input, shape.
    case expand
    /// Inputs: data, starts, ends, axes?, steps?.
    case slice
    /// Inputs: shape. The output is filled with `value`'s one element, of its type.
    case constantOfShape(value: Tensor)
    /// Constant-mode Pad. Inputs: data, pads, axes? (the fill value is a constant).
    case pad(value: Float)
    /// Inputs: start, limit, delta (int64 scalars). Becomes a constant, as Swin-T's
    /// relative positions over a window count computed from the shape.
    case range

    /// The ONNX operator name.
    public var typeName: String {
        switch self {
        case .reshape: return "Reshape"
        case .expand: return "Expand"
        case .slice: return "Slice"
        case .constantOfShape: return "ConstantOfShape"
        case .pad: return "Pad"
        case .range: return "Range"
        }
    }

    /// The index of the first parameter input; the inputs before it are data.
    public var firstParameter: Int {
        switch self {
        case .constantOfShape, .range: return 0
        default: return 1
        }
    }

    /// How many inputs a node may have.
    var inputArity: ClosedRange<Int> {
        switch self {
        case .reshape, .expand: return 2...2
        case .slice: return 3...5
        case .constantOfShape: return 1...1
        case .pad: return 2...3
        case .range: return 3...3
        }
    }

    /// The ordinary operator for the parameter values (one per parameter
    /// input, `nil` for an absent optional one), reading only the data inputs.
    /// ConstantOfShape has none: see ``constant(shape:)``.
    public func resolved(_ parameters: [[Int]?]) throws -> Op {
        func required(_ index: Int, _ role: String) throws -> [Int] {
            guard index < parameters.count, let values = parameters[index] else {
                throw FoveaError(.invalidModel, "required input '\(role)' is missing")
            }
            return values
        }
        switch self {
        case .reshape(let allowZero): return .reshape(shape: try required(0, "shape"), allowZero: allowZero)
        case .expand: return .expand(shape: try required(0, "shape"))
        case .slice:
            return .slice(starts: try required(0, "starts"), ends: try required(1, "ends"),
                          axes: parameters.count > 2 ? parameters[2] : nil, steps: parameters.count > 3 ? parameters[3] : nil)
        case .constantOfShape, .range:
            throw FoveaError(.invalidModel, "\(typeName) becomes a constant, not an operator")
        case .pad(let value):
            // The checks the translator makes on constant pads.
            let pads = try required(0, "pads"), axes = parameters.count > 1 ? parameters[1] : nil
            guard pads.count % 2 == 0 else {
                throw FoveaError(.invalidAttribute, "'pads' has \(pads.count) values \(pads); expected an even count (begins then ends)")
            }
            if let axes, pads.count != 2 * axes.count {
                throw FoveaError(.invalidAttribute, "'pads' has \(pads.count) values; expected \(2 * axes.count) (two per axis in 'axes' \(axes))")
            }
            return .pad(pads: pads, value: value, axes: axes)
        }
    }

    /// The most elements a folded ConstantOfShape may have, so that a model
    /// cannot make planning allocate without bound.
    public static let maximumConstantElements = 1 << 26

    /// The constant a ConstantOfShape or Range becomes for its parameter values;
    /// `nil` for the operators that stay operators (``resolved(_:)``).
    public func constantValue(_ parameters: [[Int]?]) throws -> Tensor? {
        switch self {
        case .constantOfShape:
            return try constant(shape: parameters.first.flatMap { $0 } ?? [])
        case .range:
            let bounds = parameters.compactMap { $0 }.filter { $0.count == 1 }.map { $0[0] }
            guard bounds.count == 3 else { throw FoveaError(.invalidModel, "start, limit and delta must be int64 scalars") }
            let (start, limit, delta) = (bounds[0], bounds[1], bounds[2])
            guard delta != 0 else { throw FoveaError(.invalidModel, "input 'delta' is 0") }
            let count = Swift.max(0, Int((Double(limit - start) / Double(delta)).rounded(.up)))
            guard count <= Graph.maximumFoldedElements else {
                throw FoveaError(.invalidModel, "Range has \(count) elements; at most \(Graph.maximumFoldedElements) are folded")
            }
            return try Tensor(shape: [count], int64s: (0..<count).map { Int64(start + $0 * delta) })
        default:
            return nil
        }
    }

    /// ConstantOfShape's output for `shape`.
    public func constant(shape: [Int]) throws -> Tensor {
        guard case .constantOfShape(let value) = self else {
            throw FoveaError(.invalidModel, "\(typeName) is not a constant")
        }
        guard shape.allSatisfy({ $0 >= 0 }), let count = checkedProduct(shape), count <= Self.maximumConstantElements else {
            throw FoveaError(.invalidModel, "shape \(shape) is negative or has more than \(Self.maximumConstantElements) elements")
        }
        switch value.storage {
        case .float32(let v): return try Tensor(shape: shape, storage: .float32([Float](repeating: v.first ?? 0, count: count)))
        case .int64(let v): return try Tensor(shape: shape, storage: .int64([Int64](repeating: v.first ?? 0, count: count)))
        case .bool(let v): return try Tensor(shape: shape, storage: .bool([Bool](repeating: v.first ?? false, count: count)))
        case .uint8(let v): return try Tensor(shape: shape, storage: .uint8([UInt8](repeating: v.first ?? 0, count: count)))
        case .int8(let v): return try Tensor(shape: shape, storage: .int8([Int8](repeating: v.first ?? 0, count: count)))
        case .int32(let v): return try Tensor(shape: shape, storage: .int32([Int32](repeating: v.first ?? 0, count: count)))
        }
    }
}
