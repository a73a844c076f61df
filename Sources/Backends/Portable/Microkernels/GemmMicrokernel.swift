// The portable backend's GEMM register tile, one build for every CPU: generic
// SIMD types, which the compiler lowers to the vector unit of the target it
// builds for (NEON on arm64, SSE2 on baseline x86-64). See ../README.md.
//
// The 8x32 tile runs as four 4x16 sub-tiles of eight SIMD8 accumulators:
// sixteen 128-bit registers, half of NEON's 32. (Baseline x86-64 has only 16
// SSE registers, so there some spill; on x86 the kernels backend runs first.)
// Accumulation is fused (`addProduct`) only where FMA is baseline (arm64):
// without a target CPU that has FMA, `addProduct` becomes per-lane `fmaf()`
// calls (measured about 240x slower), so elsewhere it is `acc + a * b`.

/// Rows of the register tile: packed A panels hold 8 rows per k step.
let gemmTileRows = 8
/// Columns of the register tile: packed B panels hold 32 columns per k step.
let gemmTileColumns = 32

/// `C = A·B (+ bias per row)` or `C += A·B` over a block of register tiles.
///
/// - A: `rowPanels` packed panels, `aPanelStride` floats apart; panel `i`
///   holds rows `8i ..< 8i+8` as `k` steps of 8 values (zero rows past `rows`).
/// - B: `columnPanels` panels, `bPanelStride` floats apart; panel `j` holds
///   columns `32j ..< 32j+32` as `k` rows of 32 values, `ldb` floats apart
///   (32 when packed; the row length of an unpacked row-major matrix).
///   Panels must be readable for all 32 columns; only `columns` are stored.
/// - C: row-major with row stride `ldc`; `rows × columns` valid.
/// - `bias`: one value per row, readable for `8 × rowPanels` rows (nil means 0);
///   added to the tile's start, which is C itself when accumulating (a fused
///   residual), so pass it with the first reduction pass only.
/// - `activation`, `p0`, `p1`: a fused activation applied to every tile
///   before it is stored (codes in FusedActivationKernel.swift; 0 for none).
///   Pass it only with the last reduction pass.
@inline(never)
func gemmTiles(k: Int,
                      a: UnsafePointer<Float>, aPanelStride: Int, rowPanels: Int, rows: Int,
                      b: UnsafePointer<Float>, ldb: Int, bPanelStride: Int, columnPanels: Int, columns: Int,
                      c: UnsafeMutablePointer<Float>, ldc: Int,
                      bias: UnsafePointer<Float>?, accumulate: Bool,
                      activation: Int = 0, p0: Float = 0, p1: Float = 0) {
    guard k > 0 else { return }
    // Columns outer: one B panel stays in L1 while the A panels stream from L2.
    for j in 0..<columnPanels {
        let panelB = b + j * bPanelStride
        let validColumns = min(gemmTileColumns, columns - j * gemmTileColumns)
        for i in 0..<rowPanels {
            let validRows = min(gemmTileRows, rows - i * gemmTileRows)
            let tileC = c + i * gemmTileRows * ldc + j * gemmTileColumns
            let tileBias = bias.map { $0 + i * gemmTileRows }
            let panelA = a + i * aPanelStride
            if validRows == gemmTileRows && validColumns == gemmTileColumns {
                tile(k: k, a: panelA, b: panelB, ldb: ldb, c: tileC, ldc: ldc, bias: tileBias, accumulate: accumulate,
                     activation: activation, p0: p0, p1: p1)
            } else {
                edgeTile(k: k, a: panelA, b: panelB, ldb: ldb, c: tileC, ldc: ldc, rows: validRows,
                         columns: validColumns, bias: tileBias, accumulate: accumulate,
                         activation: activation, p0: p0, p1: p1)
            }
        }
    }
}

/// A partial tile: computed in a local 8x32 buffer, then the valid part copied.
@inline(never)
func edgeTile(k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>, ldb: Int,
              c: UnsafeMutablePointer<Float>, ldc: Int, rows: Int, columns: Int,
              bias: UnsafePointer<Float>?, accumulate: Bool, activation: Int, p0: Float, p1: Float) {
    withUnsafeTemporaryAllocation(of: Float.self, capacity: gemmTileRows * gemmTileColumns) { buffer in
        guard let local = buffer.baseAddress else { return }
        local.initialize(repeating: 0, count: gemmTileRows * gemmTileColumns)
        if accumulate {
            for r in 0..<rows {
                (local + r * gemmTileColumns).update(from: c + r * ldc, count: columns)
            }
        }
        tile(k: k, a: a, b: b, ldb: ldb, c: local, ldc: gemmTileColumns, bias: bias, accumulate: accumulate,
             activation: activation, p0: p0, p1: p1)
        for r in 0..<rows {
            (c + r * ldc).update(from: local + r * gemmTileColumns, count: columns)
        }
    }
}

/// One full 8x32 tile as four 4x16 sub-tiles of eight SIMD8 accumulators.
@inline(__always)
func tile(k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>, ldb: Int,
          c: UnsafeMutablePointer<Float>, ldc: Int, bias: UnsafePointer<Float>?, accumulate: Bool,
          activation: Int, p0: Float, p1: Float) {
    for rowHalf in 0..<2 {
        for columnHalf in 0..<2 {
            subTile(k: k, a: a + 4 * rowHalf, b: b + 16 * columnHalf, ldb: ldb,
                    c: c + 4 * rowHalf * ldc + 16 * columnHalf, ldc: ldc,
                    bias: bias.map { $0 + 4 * rowHalf }, accumulate: accumulate,
                    activation: activation, p0: p0, p1: p1)
        }
    }
}

/// A 4x16 sub-tile; `a` steps by 8 floats per k (the packed panel's width).
@inline(__always)
func subTile(k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>, ldb: Int,
             c: UnsafeMutablePointer<Float>, ldc: Int, bias: UnsafePointer<Float>?, accumulate: Bool,
             activation: Int, p0: Float, p1: Float) {
    typealias V = SIMD8<Float>
    var c00 = V(), c01 = V(), c10 = V(), c11 = V(), c20 = V(), c21 = V(), c30 = V(), c31 = V()
    let cRaw = UnsafeMutableRawPointer(c)
    let rowBytes = ldc * MemoryLayout<Float>.stride
    if accumulate {
        func load(_ row: Int, _ half: Int) -> V { cRaw.loadUnaligned(fromByteOffset: row * rowBytes + half * 32, as: V.self) }
        c00 = load(0, 0); c01 = load(0, 1); c10 = load(1, 0); c11 = load(1, 1)
        c20 = load(2, 0); c21 = load(2, 1); c30 = load(3, 0); c31 = load(3, 1)
        // A fused residual: C starts from it and still gets the bias.
        if let bias {
            let b0 = V(repeating: bias[0]), b1 = V(repeating: bias[1]), b2 = V(repeating: bias[2]), b3 = V(repeating: bias[3])
            c00 += b0; c01 += b0; c10 += b1; c11 += b1; c20 += b2; c21 += b2; c30 += b3; c31 += b3
        }
    } else if let bias {
        c00 = V(repeating: bias[0]); c01 = c00; c10 = V(repeating: bias[1]); c11 = c10
        c20 = V(repeating: bias[2]); c21 = c20; c30 = V(repeating: bias[3]); c31 = c30
    }
    var ap = a
    var bp = UnsafeRawPointer(b)
    let bStep = ldb * MemoryLayout<Float>.stride
    for _ in 0..<k {
        let b0 = bp.loadUnaligned(as: V.self)
        let b1 = bp.loadUnaligned(fromByteOffset: 32, as: V.self)
        #if arch(arm64)
        c00.addProduct(ap[0], b0); c01.addProduct(ap[0], b1)
        c10.addProduct(ap[1], b0); c11.addProduct(ap[1], b1)
        c20.addProduct(ap[2], b0); c21.addProduct(ap[2], b1)
        c30.addProduct(ap[3], b0); c31.addProduct(ap[3], b1)
        #else
        c00 += ap[0] * b0; c01 += ap[0] * b1; c10 += ap[1] * b0; c11 += ap[1] * b1
        c20 += ap[2] * b0; c21 += ap[2] * b1; c30 += ap[3] * b0; c31 += ap[3] * b1
        #endif
        ap += 8
        bp += bStep
    }
    if activation != 0 {
        // The fused activation runs on the accumulators, before the only store.
        c00 = activate(c00, activation, p0, p1); c01 = activate(c01, activation, p0, p1)
        c10 = activate(c10, activation, p0, p1); c11 = activate(c11, activation, p0, p1)
        c20 = activate(c20, activation, p0, p1); c21 = activate(c21, activation, p0, p1)
        c30 = activate(c30, activation, p0, p1); c31 = activate(c31, activation, p0, p1)
    }
    func store(_ row: Int, _ half: Int, _ v: V) { cRaw.storeBytes(of: v, toByteOffset: row * rowBytes + half * 32, as: V.self) }
    store(0, 0, c00); store(0, 1, c01); store(1, 0, c10); store(1, 1, c11)
    store(2, 0, c20); store(2, 1, c21); store(3, 0, c30); store(3, 1, c31)
}
