/// Shape inference for the data-movement, comparison and conversion
/// operators (Slice, Split, Gather, Expand, Tile, Where, the comparisons,
/// Not, Cast, DepthToSpace, SpaceToDepth).
extension Op {
    func dataMovementTypes(_ args: InferenceInputs, outputCount: Int) throws -> [TensorType] {
        switch self {
        case .slice(let starts, let ends, let axes, let steps):
            let x = try args.required(0, "data")
            let ranges = try Self.sliceRanges(x.shape, starts: starts, ends: ends, axes: axes, steps: steps)
            return [TensorType(x.dataType, ranges.map(\.count))]
        case .split(let axis, let sizes):
            let x = try args.required(0, "input")
            let parts = try Self.splitSizes(x.shape, axis: axis, sizes: sizes, outputCount: outputCount)
            let resolved = try normalizedAxis(axis, rank: x.shape.count)
            return parts.map { size in
                var shape = x.shape
                shape[resolved] = size
                return TensorType(x.dataType, shape)
            }
        case .gather(let axis):
            let data = try args.required(0, "data"), indices = try args.required(1, "indices")
            guard indices.dataType == .int64 else {
                throw FoveaError(.unsupported, "indices has data type \(indices.dataType); expected int64")
            }
            guard !data.shape.isEmpty else { throw FoveaError(.shapeMismatch, "data is a scalar; Gather needs rank >= 1") }
            let resolved = try normalizedAxis(axis, rank: data.shape.count)
            return [TensorType(data.dataType, Array(data.shape[..<resolved]) + indices.shape + Array(data.shape[(resolved + 1)...]))]
        case .expand(let shape):
            let x = try args.required(0, "input")
            guard shape.allSatisfy({ $0 >= 0 }) else {
                throw FoveaError(.invalidAttribute, "shape \(shape) has a negative dimension")
            }
            return [TensorType(x.dataType, try Self.boundedShape(try broadcastShape(x.shape, shape), "shape \(shape)"))]
        case .tile(let repeats):
            let x = try args.required(0, "input")
            guard repeats.count == x.shape.count else {
                throw FoveaError(.invalidAttribute, "repeats has \(repeats.count) values; expected one per axis of input (\(x.shape.shapeDescription))")
            }
            guard repeats.allSatisfy({ $0 >= 0 }) else {
                throw FoveaError(.invalidAttribute, "repeats \(repeats) has a negative value")
            }
            let shape = zip(x.shape, repeats).map { $0.multipliedReportingOverflow(by: $1) }
            guard !shape.contains(where: \.overflow) else {
                throw FoveaError(.invalidAttribute, "repeats \(repeats) make \(x.shape.shapeDescription) too large")
            }
            return [TensorType(x.dataType, try Self.boundedShape(shape.map(\.partialValue), "repeats \(repeats)"))]
        case .scatterND(let reduction):
            let data = try args.required(0, "data"), indices = try args.required(1, "indices"), updates = try args.required(2, "updates")
            guard indices.dataType == .int64 else {
                throw FoveaError(.unsupported, "indices has data type \(indices.dataType); expected int64")
            }
            guard let depth = indices.shape.last, depth <= data.shape.count else {
                throw FoveaError(.shapeMismatch, "indices is \(indices.shape.shapeDescription); expected rank >= 1 with a last axis of at most data's rank (data \(data.shape.shapeDescription))")
            }
            // One update per index tuple: indices' leading axes, then the addressed slice's axes.
            let expected = Array(indices.shape.dropLast()) + Array(data.shape[depth...])
            guard updates.shape == expected, updates.dataType == data.dataType else {
                throw FoveaError(.shapeMismatch, "updates is \(updates.dataType) \(updates.shape.shapeDescription); expected \(data.dataType) \(expected.shapeDescription) for data \(data.shape.shapeDescription) and indices \(indices.shape.shapeDescription)")
            }
            guard reduction == .none || data.dataType != .bool else {
                throw FoveaError(.unsupported, "reduction '\(reduction.rawValue)' on bool data; expected float32 or int64")
            }
            return [data]
        case .select:
            let condition = try args.required(0, "condition"), x = try args.required(1, "X"), y = try args.required(2, "Y")
            guard condition.dataType == .bool else {
                throw FoveaError(.unsupported, "condition has data type \(condition.dataType); expected bool")
            }
            guard x.dataType == y.dataType else {
                throw FoveaError(.shapeMismatch, "X has data type \(x.dataType) and Y \(y.dataType); expected the same")
            }
            return [TensorType(x.dataType, try broadcastShape(condition.shape, try broadcastShape(x.shape, y.shape)))]
        case .compare:
            let a = try args.required(0, "A"), b = try args.required(1, "B")
            guard a.dataType == b.dataType, a.dataType != .bool || self == .compare(.equal) else {
                throw FoveaError(.unsupported, "A has data type \(a.dataType) and B \(b.dataType); \(typeName) compares two float32 or two int64 tensors")
            }
            return [TensorType(.bool, try broadcastShape(a.shape, b.shape))]
        case .not:
            let x = try args.required(0, "X")
            guard x.dataType == .bool else {
                throw FoveaError(.unsupported, "X has data type \(x.dataType); Not expects bool")
            }
            return [x]
        case .cast(let target):
            return [TensorType(target, try args.required(0, "input").shape)]
        case .depthToSpace(let block, _):
            let x = try Self.blockInput(args, block: block)
            guard x.shape[1] % (block * block) == 0 else {
                throw FoveaError(.shapeMismatch, "input is \(x.shape.shapeDescription); its \(x.shape[1]) channels are not a multiple of blocksize² = \(block * block)")
            }
            return [TensorType(x.dataType, [x.shape[0], x.shape[1] / (block * block), x.shape[2] * block, x.shape[3] * block])]
        case .spaceToDepth(let block):
            let x = try Self.blockInput(args, block: block)
            guard x.shape[2] % block == 0, x.shape[3] % block == 0 else {
                throw FoveaError(.shapeMismatch, "input is \(x.shape.shapeDescription); its height and width are not multiples of blocksize \(block)")
            }
            return [TensorType(x.dataType, [x.shape[0], x.shape[1] * block * block, x.shape[2] / block, x.shape[3] / block])]
        default:
            throw FoveaError(.unsupported, "\(typeName) is not a data-movement operator")
        }
    }

    /// The most elements an output whose size a file's attributes choose
    /// (Expand, Tile, Resize) may have, so that a model cannot make planning
    /// reserve memory without bound: 2^31 (8 GiB of float32).
    static let maximumOutputElements = 1 << 31

    /// `shape`, checked against ``maximumOutputElements``; `what` names the attribute in the error.
    static func boundedShape(_ shape: [Int], _ what: String) throws -> [Int] {
        guard let count = checkedProduct(shape), count <= maximumOutputElements else {
            throw FoveaError(.invalidAttribute, "\(what) gives an output of \(shape.shapeDescription), more than \(maximumOutputElements) elements")
        }
        return shape
    }

    /// The input of DepthToSpace / SpaceToDepth: rank 4, a positive block size.
    private static func blockInput(_ args: InferenceInputs, block: Int) throws -> TensorType {
        let x = try args.required(0, "input")
        guard block >= 1 else { throw FoveaError(.invalidAttribute, "attribute 'blocksize' is \(block); expected >= 1") }
        guard x.shape.count == 4 else {
            throw FoveaError(.shapeMismatch, "input is \(x.shape.shapeDescription); expected rank 4 (N×C×H×W)")
        }
        return x
    }

    /// Slice's input indices on every axis of `shape` (ONNX semantics: negative
    /// starts and ends count from the end; both are clamped; a negative step walks backwards).
    public static func sliceRanges(_ shape: [Int], starts: [Int], ends: [Int], axes: [Int]?, steps: [Int]?) throws -> [[Int]] {
        let axisList = axes ?? Array(0..<starts.count)
        let stepList = steps ?? [Int](repeating: 1, count: starts.count)
        guard ends.count == starts.count, axisList.count == starts.count, stepList.count == starts.count else {
            throw FoveaError(.invalidAttribute, "starts, ends, axes and steps have \(starts.count), \(ends.count), \(axisList.count) and \(stepList.count) values; expected the same count")
        }
        let resolvedAxes = try axisList.map { try normalizedAxis($0, rank: shape.count) }
        guard Set(resolvedAxes).count == resolvedAxes.count else {
            throw FoveaError(.invalidAttribute, "axes \(axisList) repeat an axis")
        }
        var ranges = shape.map { Array(0..<$0) }
        for (i, axis) in resolvedAxes.enumerated() {
            let dim = shape[axis], step = stepList[i]
            guard step != 0 else { throw FoveaError(.invalidAttribute, "steps \(stepList) has a 0") }
            func resolve(_ value: Int) -> Int { value < 0 ? value + dim : value }
            // Forward steps clamp to [0, dim]; backward ones to [-1, dim - 1].
            let lower = step > 0 ? 0 : -1, upper = step > 0 ? dim : dim - 1
            let start = Swift.min(Swift.max(resolve(starts[i]), lower), upper)
            let end = Swift.min(Swift.max(resolve(ends[i]), lower), upper)
            ranges[axis] = Array(stride(from: start, to: end, by: step))
        }
        return ranges
    }

    /// The extent of each of Split's parts.
    static func splitSizes(_ shape: [Int], axis: Int, sizes: [Int]?, outputCount: Int) throws -> [Int] {
        let resolved = try normalizedAxis(axis, rank: shape.count)
        let dim = shape[resolved]
        if let sizes {
            guard sizes.count == outputCount else {
                throw FoveaError(.invalidModel, "'split' has \(sizes.count) values but the node has \(outputCount) outputs")
            }
            guard sizes.allSatisfy({ $0 >= 0 }), sizes.reduce(0, +) == dim else {
                throw FoveaError(.shapeMismatch, "'split' \(sizes) does not add up to the \(dim) of axis \(resolved)")
            }
            return sizes
        }
        // Equal parts, rounded up; the last takes what is left (ONNX num_outputs).
        let part = (dim + outputCount - 1) / outputCount
        guard part * (outputCount - 1) <= dim else {
            throw FoveaError(.shapeMismatch, "axis \(resolved) of size \(dim) cannot be split into \(outputCount) parts of \(part)")
        }
        return (0..<outputCount).map { Swift.max(0, Swift.min(part, dim - $0 * part)) }
    }
}
