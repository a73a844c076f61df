/// ONNX ScatterND: a copy of `data` with the elements or slices that `indices`
/// addresses replaced by (or combined with) `updates`, in index order.
enum ReferenceScatter {
    static func scatterND(_ args: ReferenceInputs, reduction: ScatterReduction) throws -> Tensor {
        let data = try args.tensor(0), indices = try args.tensor(1), updates = try args.tensor(2)
        guard let index = indices.int64s, let depth = indices.shape.last, depth <= data.rank else {
            throw FoveaError(.unsupported, "indices must be int64 with a last axis of at most data's rank")
        }
        let sliceSize = data.shape[depth...].reduce(1, *)
        let tuples = indices.shape.dropLast().reduce(1, *)
        // Strides of data's leading `depth` axes, in elements.
        var strides = [Int](repeating: sliceSize, count: depth)
        for axis in stride(from: depth - 2, through: 0, by: -1) { strides[axis] = strides[axis + 1] * data.shape[axis + 1] }
        var offsets: [Int] = []
        offsets.reserveCapacity(tuples)
        for tuple in 0..<tuples {
            var offset = 0
            for axis in 0..<depth {
                let extent = data.shape[axis], value = index[tuple * depth + axis]
                // Negative indices count from the end, as in Gather.
                guard value >= -Int64(extent), value < Int64(extent) else {
                    throw FoveaError(.invalidArgument, "index \(value) on axis \(axis) is out of range for data \(data.shape.shapeDescription)")
                }
                offset += (value < 0 ? Int(value) + extent : Int(value)) * strides[axis]
            }
            offsets.append(offset)
        }
        switch (data.storage, updates.storage) {
        case (.float32(var values), .float32(let new)):
            apply(&values, new, offsets, sliceSize, combiner(reduction, add: +, mul: *, max: { Swift.max($0, $1) }, min: { Swift.min($0, $1) }))
            return Tensor(uncheckedShape: data.shape, storage: .float32(values))
        case (.int64(var values), .int64(let new)):
            apply(&values, new, offsets, sliceSize, combiner(reduction, add: { $0 &+ $1 }, mul: { $0 &* $1 }, max: { Swift.max($0, $1) }, min: { Swift.min($0, $1) }))
            return Tensor(uncheckedShape: data.shape, storage: .int64(values))
        case (.bool(var values), .bool(let new)) where reduction == .none:
            apply(&values, new, offsets, sliceSize, nil)
            return Tensor(uncheckedShape: data.shape, storage: .bool(values))
        default:
            throw FoveaError(.unsupported, "data is \(data.dataType) and updates \(updates.dataType) with reduction '\(reduction.rawValue)'")
        }
    }

    /// `nil` for `none`: the update replaces the element.
    private static func combiner<E>(_ reduction: ScatterReduction, add: @escaping (E, E) -> E, mul: @escaping (E, E) -> E,
                                    max: @escaping (E, E) -> E, min: @escaping (E, E) -> E) -> ((E, E) -> E)? {
        switch reduction {
        case .none: return nil
        case .add: return add
        case .mul: return mul
        case .max: return max
        case .min: return min
        }
    }

    private static func apply<E>(_ values: inout [E], _ updates: [E], _ offsets: [Int], _ sliceSize: Int, _ combine: ((E, E) -> E)?) {
        for (tuple, offset) in offsets.enumerated() {
            for i in 0..<sliceSize {
                let update = updates[tuple * sliceSize + i]
                values[offset + i] = combine.map { $0(values[offset + i], update) } ?? update
            }
        }
    }
}
