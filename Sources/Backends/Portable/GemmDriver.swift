import FoveaCore

/// Where a GEMM's right operand (`k × columns`) comes from.
enum GemmRightOperand {
    /// Packed once at prepare time: every column panel, `k × 32` floats each.
    case packed(UnsafePointer<Float>)
    /// Read from a matrix (`B[p, j] = base[p * rowStride + j * columnStride]`), packed per block.
    case strided(UnsafePointer<Float>, rowStride: Int, columnStride: Int)
}

/// Runs `C (=|+=) A·B` for a packed left operand over the column panels of B,
/// split over threads in blocks of panels. Shared by Gemm and MatMul.
enum GemmDriver {
    /// Reduction depth per pass (see ``GemmConvolutionStep/reductionBlock``).
    static let reductionBlock = GemmConvolutionStep.reductionBlock

    /// Column panels per work item on `threads` threads.
    private static func blockPanels(columns: Int, k: Int, threads: Int) -> Int {
        let panels = GemmPacking.columnPanels(columns)
        return max(1, min((panels + 2 * threads - 1) / (2 * threads), (64 * 1024) / (k * gemmTileColumns)))
    }

    /// Scratch floats ``multiply(rows:columns:k:packedA:b:c:accumulate:scratch:context:)``
    /// needs with up to `threads` threads: one packed B block per chunk when B is not packed.
    static func scratchFloats(columns: Int, k: Int, packedB: Bool, threads: Int) -> Int {
        guard !packedB, columns > 0, k > 0 else { return 0 }
        let panels = GemmPacking.columnPanels(columns)
        return (1...max(1, threads)).map { t in
            let block = blockPanels(columns: columns, k: k, threads: t)
            let chunks = min(t, (panels + block - 1) / block)
            return chunks * SIMDStepSupport.alignedFloats(block * k * gemmTileColumns)
        }.max() ?? 0
    }

    /// - Parameters:
    ///   - packedA: `rows × k` packed by ``GemmPacking/packA``.
    ///   - c: row-major `rows × columns`, row stride `columns`.
    ///   - accumulate: add to `c` (already holding `beta × C`) instead of overwriting it.
    ///   - scratch: ``scratchFloats(columns:k:packedB:threads:)`` floats (unused for a packed B).
    static func multiply(rows: Int, columns: Int, k: Int,
                         packedA: UnsafePointer<Float>, b: GemmRightOperand,
                         c: UnsafeMutablePointer<Float>, accumulate: Bool,
                         scratch: UnsafeMutablePointer<Float>, context: RunContext) {
        guard rows > 0, columns > 0 else { return }
        if k == 0 {
            if !accumulate { c.update(repeating: 0, count: rows * columns) }
            return
        }
        let width = gemmTileColumns
        let panels = GemmPacking.columnPanels(columns)
        let rowPanels = GemmPacking.rowPanels(rows)
        let blockPanels = blockPanels(columns: columns, k: k, threads: context.threads)
        let blocks = (panels + blockPanels - 1) / blockPanels
        let shared = (a: GemmSharedReadPointer(base: packedA), c: GemmSharedPointer(base: c))
        let source: (pointer: GemmSharedReadPointer, rowStride: Int, columnStride: Int, packed: Bool)
        switch b {
        case .packed(let p): source = (GemmSharedReadPointer(base: p), 0, 0, true)
        case .strided(let p, let rowStride, let columnStride): source = (GemmSharedReadPointer(base: p), rowStride, columnStride, false)
        }
        let sharedScratch = GemmSharedPointer(base: scratch)
        let slice = SIMDStepSupport.alignedFloats(blockPanels * k * width)
        context.parallelChunks(blocks) { chunk, range in
            let scratch = source.packed ? nil : sharedScratch.base + chunk * slice
            for block in range {
                let firstPanel = block * blockPanels
                let panelCount = min(blockPanels, panels - firstPanel)
                let panelsB: UnsafePointer<Float>
                if let scratch {
                    GemmPacking.packB(k: k, columns: columns, firstPanel: firstPanel, panelCount: panelCount,
                                      source: source.pointer.base, rowStride: source.rowStride,
                                      columnStride: source.columnStride, into: scratch)
                    panelsB = UnsafePointer(scratch)
                } else {
                    panelsB = source.pointer.base + firstPanel * k * width
                }
                var start = 0
                while start < k {
                    let depth = min(reductionBlock, k - start)
                    gemmTiles(k: depth, a: shared.a.base + start * gemmTileRows, aPanelStride: k * gemmTileRows,
                              rowPanels: rowPanels, rows: rows, b: panelsB + start * width, ldb: width,
                              bPanelStride: k * width, columnPanels: panelCount, columns: columns - firstPanel * width,
                              c: shared.c.base + firstPanel * width, ldc: columns,
                              bias: nil, accumulate: accumulate || start > 0)
                    start += depth
                }
            }
        }
    }
}
