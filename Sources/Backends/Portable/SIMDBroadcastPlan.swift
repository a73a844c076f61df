import FoveaCore

/// How two operands of a numpy-broadcasting elementwise op line up with the
/// output, reduced to rows: the output is `count / inner` rows of `inner`
/// elements, and in a row each operand advances by `step` (1, or 0 when it
/// is broadcast along the row). Adjacent axes that both operands traverse
/// alike are merged, so same-shape inputs become one row, a scalar operand a
/// row with step 0, and a per-channel `[1,C,1,1]` operand against `N×C×H×W`
/// rows of `H·W` with the channel value fixed per row.
struct SIMDBroadcastPlan: Sendable, Equatable {
    let count: Int
    /// Elements per row (the merged innermost axes).
    let inner: Int
    let aStep: Int
    let bStep: Int
    /// The merged outer axes, innermost first, and each operand's stride on them.
    let outerSizes: [Int]
    let aOuterStrides: [Int]
    let bOuterStrides: [Int]
    /// `same-shape`, `scalar`, `per-channel` or `broadcast`, for plans.
    let kind: String

    /// - Requires: `a` and `b` broadcast to `output` (checked by shape inference).
    init(a: [Int], b: [Int], output: [Int]) throws {
        guard (try? broadcastShape(a, b)) == output else {
            throw FoveaError(.shapeMismatch, "shapes \(a.shapeDescription) and \(b.shapeDescription) do not broadcast to \(output.shapeDescription)")
        }
        let aStrides = a.broadcastStrides(to: output)
        let bStrides = b.broadcastStrides(to: output)
        // Merge axes from the innermost out; size-1 axes are skipped.
        var sizes: [Int] = [], aMerged: [Int] = [], bMerged: [Int] = []
        for axis in output.indices.reversed() where output[axis] != 1 {
            if let last = sizes.indices.last,
               aStrides[axis] == aMerged[last] * sizes[last], bStrides[axis] == bMerged[last] * sizes[last] {
                sizes[last] *= output[axis]
            } else {
                sizes.append(output[axis])
                aMerged.append(aStrides[axis])
                bMerged.append(bStrides[axis])
            }
        }
        count = output.elementCount
        inner = sizes.first ?? 1
        aStep = aMerged.first ?? 0
        bStep = bMerged.first ?? 0
        outerSizes = Array(sizes.dropFirst())
        aOuterStrides = Array(aMerged.dropFirst())
        bOuterStrides = Array(bMerged.dropFirst())

        let aCount = a.elementCount, bCount = b.elementCount
        if aCount == count && bCount == count {
            kind = "same-shape"
        } else if aCount == 1 || bCount == 1 {
            kind = "scalar"
        } else if (aStep == 0 && bCount == count) || (bStep == 0 && aCount == count) {
            kind = "per-channel"
        } else {
            kind = "broadcast"
        }
    }

    /// Each operand's element offset at the start of row `row`.
    @inline(__always)
    func rowOffsets(_ row: Int) -> (a: Int, b: Int) {
        var remaining = row, a = 0, b = 0
        for axis in outerSizes.indices {
            let coordinate = remaining % outerSizes[axis]
            remaining /= outerSizes[axis]
            a += coordinate * aOuterStrides[axis]
            b += coordinate * bOuterStrides[axis]
        }
        return (a, b)
    }
}
