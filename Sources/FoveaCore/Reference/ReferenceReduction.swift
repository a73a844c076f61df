/// ReduceMean, ReduceSum, ReduceMax, ReduceMin, ReduceL2, ReduceSumSquare and ArgMax.
enum ReferenceReduction {
    /// Each output element combines the input elements that share its index on
    /// the kept axes; sums accumulate in Double.
    static func reduce(_ args: ReferenceInputs, _ a: ReduceAttributes, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0)
        let input = try x.requireFloats("data")
        let target = OutputIndex(inputShape: x.shape, axes: try reducedAxes(a.axes, rank: x.rank))
        let count = outputShape.elementCount
        var sums = [Double](repeating: 0, count: count)
        var extremes = [Float](repeating: a.reduction == .max ? -.infinity : .infinity, count: count)
        var members = [Int](repeating: 0, count: count)
        target.forEach { inputIndex, outputIndex in
            let v = input[inputIndex]
            members[outputIndex] += 1
            switch a.reduction {
            case .mean, .sum: sums[outputIndex] += Double(v)
            case .l2, .sumSquare: sums[outputIndex] += Double(v) * Double(v)
            // NaN sticks: once the running value is NaN it stays NaN (numpy's max and min).
            case .max:
                let e = extremes[outputIndex]
                if !e.isNaN && (v.isNaN || v > e) { extremes[outputIndex] = v }
            case .min:
                let e = extremes[outputIndex]
                if !e.isNaN && (v.isNaN || v < e) { extremes[outputIndex] = v }
            }
        }
        let output: [Float] = (0..<count).map { i in
            switch a.reduction {
            case .sum, .sumSquare: return Float(sums[i])
            // The mean of no elements is 0/0, NaN, as numpy gives.
            case .mean: return Float(sums[i] / Double(members[i]))
            case .l2: return Float(sums[i].squareRoot())
            case .max, .min: return extremes[i]
            }
        }
        return Tensor(uncheckedShape: outputShape, floats: output)
    }

    /// The index along `axis` of the largest element of each line; NaN counts as largest
    /// (numpy's argmax), ties go to the first or, with `selectLastIndex`, the last.
    static func argMax(_ args: ReferenceInputs, axis: Int, selectLastIndex: Bool, outputShape: [Int]) throws -> Tensor {
        let x = try args.tensor(0)
        let input = try x.requireFloats("data")
        let resolved = try normalizedAxis(axis, rank: x.rank)
        let outer = x.shape[..<resolved].reduce(1, *), length = x.shape[resolved]
        let inner = x.shape[(resolved + 1)...].reduce(1, *)
        var output = [Int64](repeating: 0, count: outer * inner)
        for o in 0..<outer {
            for i in 0..<inner {
                var best = 0
                var bestValue = input[o * length * inner + i]
                for k in 1..<Swift.max(1, length) {
                    let v = input[(o * length + k) * inner + i]
                    if bestValue.isNaN { break }
                    if v.isNaN || v > bestValue || (selectLastIndex && v == bestValue) {
                        best = k
                        bestValue = v
                    }
                }
                output[o * inner + i] = Int64(best)
            }
        }
        return Tensor(uncheckedShape: outputShape, storage: .int64(output))
    }

    /// The reduced axes, resolved: all of them for `nil`.
    private static func reducedAxes(_ axes: [Int]?, rank: Int) throws -> Set<Int> {
        try axes.map { try Op.distinctAxes($0, rank: rank) } ?? Set(0..<rank)
    }

    /// Walks the input in row-major order, pairing each element with the
    /// output element it reduces into (the reduced axes have output stride 0).
    private struct OutputIndex {
        let inputShape: [Int]
        let strides: [Int]

        init(inputShape: [Int], axes: Set<Int>) {
            self.inputShape = inputShape
            let kept = inputShape.indices.map { axes.contains($0) ? 1 : inputShape[$0] }
            let keptStrides = kept.rowMajorStrides
            strides = inputShape.indices.map { axes.contains($0) ? 0 : keptStrides[$0] }
        }

        func forEach(_ body: (_ input: Int, _ output: Int) -> Void) {
            let count = inputShape.elementCount
            guard count > 0 else { return }
            var position = [Int](repeating: 0, count: inputShape.count)
            var outputIndex = 0
            for inputIndex in 0..<count {
                body(inputIndex, outputIndex)
                var axis = inputShape.count - 1
                while axis >= 0 {
                    position[axis] += 1
                    outputIndex += strides[axis]
                    if position[axis] < inputShape[axis] { break }
                    outputIndex -= strides[axis] * position[axis]
                    position[axis] = 0
                    axis -= 1
                }
            }
        }
    }
}
