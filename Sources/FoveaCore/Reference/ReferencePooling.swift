/// MaxPool, AveragePool (1 to 3 spatial axes, with strides, dilations, pads,
/// auto_pad, ceil_mode and count_include_pad) and the global poolings.
///
/// Each output visits the kernel taps that fall inside the input; padding
/// never contributes a value. AveragePool divides by the taps inside the input,
/// or with `count_include_pad` by the taps inside input + pads (the part of a
/// `ceil_mode` window beyond the end pads never counts, as in onnxruntime and
/// PyTorch). A window entirely in the padding (pads ≥ kernel) gives 0 for
/// AveragePool without count_include_pad, and for MaxPool the lowest finite
/// float with index -1, as onnxruntime does.
enum ReferencePooling {
    static func maxPool(_ args: ReferenceInputs, _ attributes: PoolAttributes, withIndices: Bool) throws -> [Tensor] {
        let x = try args.tensor(0)
        if let integers = x.quantizedIntegers, let range = x.dataType.quantizedRange {
            // 8-bit: the same windows over the integers (exact in Float); a window of padding only gives the type's minimum.
            let floats = Tensor(uncheckedShape: x.shape, floats: integers.map(Float.init))
            var pooled = try maxPool(ReferenceInputs(tensors: [floats]), attributes, withIndices: withIndices)
            let values = try pooled[0].requireFloats("Y").map { Swift.max(Int($0 == -Float.greatestFiniteMagnitude ? Float(range.lowerBound) : $0), range.lowerBound) }
            pooled[0] = ReferenceQuantization.tensor(values, shape: pooled[0].shape, x.dataType)
            return pooled
        }
        let input = try x.requireFloats("X")
        let g = try SpatialGeometry(inputSize: Array(x.shape.dropFirst(2)), pooling: attributes)
        let outputShape = Array(x.shape.prefix(2)) + g.outputSize
        var output = [Float](repeating: 0, count: outputShape.elementCount)
        var indices = [Int64](repeating: 0, count: withIndices ? output.count : 0)
        forEachWindow(planes: x.shape[0] * x.shape[1], g) { window in
            var best = -Float.greatestFiniteMagnitude
            var bestIndex = -1
            window.forEachInput { index in
                if input[index] > best || bestIndex < 0 && input[index] == best {
                    best = input[index]
                    bestIndex = index
                }
            }
            output[window.output] = best
            if withIndices { indices[window.output] = Int64(bestIndex) }
        }
        let y = Tensor(uncheckedShape: outputShape, floats: output)
        return withIndices ? [y, Tensor(uncheckedShape: outputShape, storage: .int64(indices))] : [y]
    }

    static func averagePool(_ args: ReferenceInputs, _ attributes: PoolAttributes) throws -> Tensor {
        let x = try args.tensor(0)
        let input = try x.requireFloats("X")
        let g = try SpatialGeometry(inputSize: Array(x.shape.dropFirst(2)), pooling: attributes)
        let outputShape = Array(x.shape.prefix(2)) + g.outputSize
        var output = [Float](repeating: 0, count: outputShape.elementCount)
        forEachWindow(planes: x.shape[0] * x.shape[1], g) { window in
            var sum: Double = 0
            window.forEachInput { sum += Double(input[$0]) }
            let divisor = attributes.countIncludePad ? window.paddedTapCount : window.inputTapCount
            output[window.output] = divisor > 0 ? Float(sum / Double(divisor)) : 0
        }
        return Tensor(uncheckedShape: outputShape, floats: output)
    }

    /// GlobalAveragePool / GlobalMaxPool: one value per (batch, channel) plane.
    static func globalPool(_ args: ReferenceInputs, outputShape: [Int], average: Bool) throws -> Tensor {
        let x = try args.tensor(0)
        let input = try x.requireFloats("X")
        let planes = x.shape[0] * x.shape[1]
        let planeSize = x.shape.dropFirst(2).reduce(1, *)
        var output = [Float](repeating: 0, count: planes)
        for plane in 0..<planes {
            let values = input[(plane * planeSize)..<((plane + 1) * planeSize)]
            if average {
                // Summed in Double: a Float sum over 8000×8000 pixels drifts by ~1e-4.
                output[plane] = Float(values.reduce(0.0) { $0 + Double($1) } / Double(planeSize))
            } else {
                output[plane] = values.reduce(-Float.infinity) { Swift.max($0, $1) }
            }
        }
        return Tensor(uncheckedShape: outputShape, floats: output)
    }

    /// One pooling window: where its result goes and which inputs it covers.
    struct Window {
        /// Flat index of the output element.
        var output: Int
        /// Flat index of the input plane's first element.
        var planeStart: Int
        /// Input coordinates of the window's first tap (may be in the padding).
        var start: (depth: Int, row: Int, column: Int)
        /// Valid taps per axis (inside the input).
        var taps: (depth: Range<Int>, row: Range<Int>, column: Range<Int>)
        var dilations: (depth: Int, row: Int, column: Int)
        /// Input plane extents (height, width) for flat indexing.
        var height: Int, width: Int
        var paddedTapCount: Int

        var inputTapCount: Int { taps.depth.count * taps.row.count * taps.column.count }

        /// Calls `body` with the flat input index of every tap inside the input.
        func forEachInput(_ body: (Int) -> Void) {
            for kd in taps.depth {
                let id = start.depth + kd * dilations.depth
                for kh in taps.row {
                    let ih = start.row + kh * dilations.row
                    let rowStart = planeStart + (id * height + ih) * width + start.column
                    for kw in taps.column {
                        body(rowStart + kw * dilations.column)
                    }
                }
            }
        }
    }

    /// Visits every output window of every (batch, channel) plane, in output
    /// order (so `Window.output` counts up from 0).
    private static func forEachWindow(planes: Int, _ geometry: SpatialGeometry, _ body: (Window) -> Void) {
        let g = geometry.expanded(toRank: 3)
        let inputPlane = g.inputSize.elementCount
        // Per axis and output coordinate: first tap's input coordinate, valid taps, padded tap count.
        let starts = (0..<3).map { axis in (0..<g.outputSize[axis]).map { g.inputCoordinate(axis: axis, output: $0, tap: 0) } }
        let taps = (0..<3).map { axis in (0..<g.outputSize[axis]).map { g.validTapRange(axis: axis, output: $0) } }
        let padded = (0..<3).map { axis in (0..<g.outputSize[axis]).map { g.paddedTapCount(axis: axis, output: $0) } }
        var window = Window(output: 0, planeStart: 0, start: (0, 0, 0), taps: (0..<0, 0..<0, 0..<0),
                            dilations: (g.dilations[0], g.dilations[1], g.dilations[2]),
                            height: g.inputSize[1], width: g.inputSize[2], paddedTapCount: 0)
        for plane in 0..<planes {
            window.planeStart = plane * inputPlane
            for od in 0..<g.outputSize[0] {
                for oh in 0..<g.outputSize[1] {
                    for ow in 0..<g.outputSize[2] {
                        window.start = (starts[0][od], starts[1][oh], starts[2][ow])
                        window.taps = (taps[0][od], taps[1][oh], taps[2][ow])
                        window.paddedTapCount = padded[0][od] * padded[1][oh] * padded[2][ow]
                        body(window)
                        window.output += 1
                    }
                }
            }
        }
    }
}
