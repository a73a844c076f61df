/// Data movement that works for every element type: Concat, Transpose, Pad.
/// (Flatten, Reshape, Squeeze, Unsqueeze, Identity and Dropout only change
/// the shape and are handled in ``ReferenceBackend``.)
enum ReferenceLayout {
    /// Concatenation along `axis`: for each index of the axes before it, the
    /// inputs' blocks one after another.
    static func concat(_ args: ReferenceInputs, axis: Int, outputShape: [Int]) throws -> Tensor {
        let parts = try (0..<args.tensors.count).map { try args.tensor($0) }
        let first = try args.tensor(0)
        let resolved = try normalizedAxis(axis, rank: first.rank)
        let outer = first.shape[..<resolved].reduce(1, *)
        let blocks = parts.map { $0.shape[resolved...].reduce(1, *) }
        func join<Element>(_ arrays: [[Element]]) -> [Element] {
            var output: [Element] = []
            output.reserveCapacity(outputShape.elementCount)
            for o in 0..<outer {
                for (array, block) in zip(arrays, blocks) {
                    output += array[(o * block)..<((o + 1) * block)]
                }
            }
            return output
        }
        let storage: Tensor.Storage
        switch first.storage {
        case .float32: storage = .float32(join(try parts.map { try elements($0.floats, $0) }))
        case .int64: storage = .int64(join(try parts.map { try elements($0.int64s, $0) }))
        case .bool: storage = .bool(join(try parts.map { try elements($0.bools, $0) }))
        case .uint8: storage = .uint8(join(try parts.map { try elements($0.uint8s, $0) }))
        case .int8: storage = .int8(join(try parts.map { try elements($0.int8s, $0) }))
        case .int32: storage = .int32(join(try parts.map { try elements($0.int32s, $0) }))
        }
        return try Tensor(shape: outputShape, storage: storage)
    }

    static func transpose(_ args: ReferenceInputs, perm: [Int]?) throws -> Tensor {
        let x = try args.tensor(0)
        let order = try Op.permutation(perm, rank: x.rank)
        let rearrangement = Transposition(inputShape: x.shape, order: order)
        return Tensor(uncheckedShape: rearrangement.outputShape, storage: x.storage.rearranged(by: rearrangement))
    }

    static func pad(_ args: ReferenceInputs, pads: [Int], value: Float, axes: [Int]?, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0)
        let (begin, _) = try Op.resolvedPads(pads, axes: axes, rank: x.rank)
        let rearrangement = Padding(inputShape: x.shape, outputShape: outputShape, begin: begin)
        return Tensor(uncheckedShape: outputShape, storage: x.storage.rearranged(by: rearrangement, fill: value))
    }

    private static func elements<Element>(_ values: [Element]?, _ tensor: Tensor) throws -> [Element] {
        guard let values else {
            throw FoveaError(.shapeMismatch, "Concat inputs have different data types (found \(tensor.dataType))")
        }
        return values
    }
}

/// A rearrangement of elements that does not depend on their type.
protocol ElementRearrangement {
    /// The rearranged elements; `fill` is used where there is no source element.
    func apply<Element>(_ elements: [Element], fill: Element) -> [Element]
}

extension Tensor.Storage {
    /// Applies `rearrangement` whatever the element type. `fill` (already
    /// checked to fit the type) becomes `Int64(fill)` or `fill != 0` for int64 or bool.
    func rearranged(by rearrangement: some ElementRearrangement, fill: Float = 0) -> Tensor.Storage {
        switch self {
        case .float32(let v): return .float32(rearrangement.apply(v, fill: fill))
        case .int64(let v):
            let integer = fill.isFinite && abs(fill) < 9.2e18 ? Int64(fill) : 0
            return .int64(rearrangement.apply(v, fill: integer))
        case .bool(let v): return .bool(rearrangement.apply(v, fill: fill != 0))
        case .uint8(let v): return .uint8(rearrangement.apply(v, fill: UInt8(clamping: Int(exactly: fill.rounded()) ?? 0)))
        case .int8(let v): return .int8(rearrangement.apply(v, fill: Int8(clamping: Int(exactly: fill.rounded()) ?? 0)))
        case .int32(let v): return .int32(rearrangement.apply(v, fill: Int32(clamping: Int(exactly: fill.rounded()) ?? 0)))
        }
    }
}

/// Output axis `i` is input axis `order[i]`.
struct Transposition: ElementRearrangement {
    let inputShape: [Int]
    let order: [Int]
    var outputShape: [Int] { order.map { inputShape[$0] } }

    func apply<Element>(_ elements: [Element], fill: Element) -> [Element] {
        let shape = outputShape
        guard !elements.isEmpty, shape.elementCount == elements.count else { return elements }
        // The input stride of each output axis: walking the output in row-major
        // order, the input offset moves by these.
        let inputStrides = inputShape.rowMajorStrides
        let strides = order.map { inputStrides[$0] }
        var output: [Element] = []
        output.reserveCapacity(elements.count)
        var position = [Int](repeating: 0, count: shape.count)
        for _ in 0..<elements.count {
            var offset = 0
            for axis in shape.indices { offset += position[axis] * strides[axis] }
            output.append(elements[offset])
            position.advanceRowMajor(within: shape)
        }
        return output
    }
}

/// Constant padding: output index `o` reads input index `o - begin` on every
/// axis, or `fill` where that is outside the input. Negative `begin` (or a
/// smaller output) crops.
struct Padding: ElementRearrangement {
    let inputShape: [Int]
    let outputShape: [Int]
    let begin: [Int]

    func apply<Element>(_ elements: [Element], fill: Element) -> [Element] {
        let count = outputShape.elementCount
        var output = [Element](repeating: fill, count: count)
        guard count > 0, !elements.isEmpty else { return output }
        let inputStrides = inputShape.rowMajorStrides
        var position = [Int](repeating: 0, count: outputShape.count)
        for index in 0..<count {
            var offset = 0
            var inside = true
            for axis in outputShape.indices {
                let source = position[axis] - begin[axis]
                if source < 0 || source >= inputShape[axis] { inside = false; break }
                offset += source * inputStrides[axis]
            }
            if inside { output[index] = elements[offset] }
            position.advanceRowMajor(within: outputShape)
        }
        return output
    }
}
