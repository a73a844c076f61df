/// Packing of GEMM operands into the layouts the register tiles read.
///
/// - A (the left operand, `rows × k`): panels of 8 rows; panel `i` holds, for
///   each `p` in `0..<k`, the 8 values `A[8i ..< 8i+8, p]` (zeros past `rows`).
/// - B (the right operand, `k × columns`): panels of 32 columns; panel `j`
///   holds, for each `p`, the 32 values `B[p, 32j ..< 32j+32]` (zeros past `columns`).
///
/// Operands are read through a row and a column stride, so transposed inputs
/// need no copy first.
enum GemmPacking {
    static let tileRows = gemmTileRows
    static let tileColumns = gemmTileColumns

    static func rowPanels(_ rows: Int) -> Int { (rows + tileRows - 1) / tileRows }
    static func columnPanels(_ columns: Int) -> Int { (columns + tileColumns - 1) / tileColumns }

    /// Floats of packed A for `rows × k`.
    static func packedACount(rows: Int, k: Int) -> Int { rowPanels(rows) * tileRows * k }

    /// Packs `scale × A` (`A[i, p] = source[i * rowStride + p * columnStride]`).
    static func packA(rows: Int, k: Int, source: UnsafePointer<Float>, rowStride: Int, columnStride: Int,
                      scale: Float = 1, into destination: UnsafeMutablePointer<Float>) {
        for panel in 0..<rowPanels(rows) {
            let out = destination + panel * tileRows * k
            let firstRow = panel * tileRows
            let valid = min(tileRows, rows - firstRow)
            for r in 0..<tileRows {
                if r < valid {
                    let row = source + (firstRow + r) * rowStride
                    for p in 0..<k { out[p * tileRows + r] = scale * row[p * columnStride] }
                } else {
                    for p in 0..<k { out[p * tileRows + r] = 0 }
                }
            }
        }
    }

    /// Packs column panels `firstPanel ..< firstPanel + panelCount` of B
    /// (`B[p, j] = source[p * rowStride + j * columnStride]`, `columns` valid),
    /// each `k × 32`, one after another into `destination`.
    static func packB(k: Int, columns: Int, firstPanel: Int, panelCount: Int,
                      source: UnsafePointer<Float>, rowStride: Int, columnStride: Int,
                      into destination: UnsafeMutablePointer<Float>) {
        for panel in firstPanel..<(firstPanel + panelCount) {
            let out = destination + (panel - firstPanel) * k * tileColumns
            let firstColumn = panel * tileColumns
            let valid = max(0, min(tileColumns, columns - firstColumn))
            for p in 0..<k {
                let row = source + p * rowStride + firstColumn * columnStride
                let outRow = out + p * tileColumns
                if columnStride == 1 {
                    outRow.update(from: row, count: valid)
                } else {
                    for j in 0..<valid { outRow[j] = row[j * columnStride] }
                }
                if valid < tileColumns {
                    (outRow + valid).update(repeating: 0, count: tileColumns - valid)
                }
            }
        }
    }
}

/// A pointer handed to `RunContext.parallelFor` bodies, which write disjoint
/// parts of the buffer it points to.
struct GemmSharedPointer: @unchecked Sendable {
    let base: UnsafeMutablePointer<Float>
}

/// A read-only pointer handed to `RunContext.parallelFor` bodies.
struct GemmSharedReadPointer: @unchecked Sendable {
    let base: UnsafePointer<Float>
}
