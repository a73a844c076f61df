// Shared kernel source of the per-ISA modules FoveaSIMDAVX512, FoveaSIMDAVX2 and
// FoveaSIMDGeneric: each module's `Kernels` folder is a symlink to this folder,
// and Package.swift compiles it with a different `-target-cpu` and defines.
// See Sources/FoveaSIMD/README.md.
//
// Defines:
// - FOVEA_SIMD_WIDE: the 8x32 tile runs as sixteen SIMD16 accumulators (needs
//   32 vector registers: AVX-512). Without it, as four 4x16 sub-tiles of
//   SIMD8 accumulators (fits 16 registers: AVX2, SSE, NEON).
// - FOVEA_SIMD_FMA: accumulate with fused `addProduct`. Without it, with
//   `acc + a * b`: on a CPU target without FMA, `addProduct` becomes per-lane
//   `fmaf()` calls, about 240x slower.

/// Rows of the register tile: packed A panels hold 8 rows per k step.
public let gemmTileRows = 8
/// Columns of the register tile: packed B panels hold 32 columns per k step.
public let gemmTileColumns = 32

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
public func gemmTiles(k: Int,
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

#if FOVEA_SIMD_WIDE

/// One full 8x32 tile: sixteen SIMD16 accumulators in registers.
@inline(__always)
func tile(k: Int, a: UnsafePointer<Float>, b: UnsafePointer<Float>, ldb: Int,
          c: UnsafeMutablePointer<Float>, ldc: Int, bias: UnsafePointer<Float>?, accumulate: Bool,
          activation: Int, p0: Float, p1: Float) {
    typealias V = SIMD16<Float>
    var c00 = V(), c01 = V(), c10 = V(), c11 = V(), c20 = V(), c21 = V(), c30 = V(), c31 = V()
    var c40 = V(), c41 = V(), c50 = V(), c51 = V(), c60 = V(), c61 = V(), c70 = V(), c71 = V()
    let cRaw = UnsafeMutableRawPointer(c)
    let rowBytes = ldc * MemoryLayout<Float>.stride
    if accumulate {
        func load(_ row: Int, _ half: Int) -> V { cRaw.loadUnaligned(fromByteOffset: row * rowBytes + half * 64, as: V.self) }
        c00 = load(0, 0); c01 = load(0, 1); c10 = load(1, 0); c11 = load(1, 1)
        c20 = load(2, 0); c21 = load(2, 1); c30 = load(3, 0); c31 = load(3, 1)
        c40 = load(4, 0); c41 = load(4, 1); c50 = load(5, 0); c51 = load(5, 1)
        c60 = load(6, 0); c61 = load(6, 1); c70 = load(7, 0); c71 = load(7, 1)
        // A fused residual: C starts from it and still gets the bias.
        if let bias {
            let b0 = V(repeating: bias[0]), b1 = V(repeating: bias[1]), b2 = V(repeating: bias[2]), b3 = V(repeating: bias[3])
            let b4 = V(repeating: bias[4]), b5 = V(repeating: bias[5]), b6 = V(repeating: bias[6]), b7 = V(repeating: bias[7])
            c00 += b0; c01 += b0; c10 += b1; c11 += b1; c20 += b2; c21 += b2; c30 += b3; c31 += b3
            c40 += b4; c41 += b4; c50 += b5; c51 += b5; c60 += b6; c61 += b6; c70 += b7; c71 += b7
        }
    } else if let bias {
        c00 = V(repeating: bias[0]); c01 = c00; c10 = V(repeating: bias[1]); c11 = c10
        c20 = V(repeating: bias[2]); c21 = c20; c30 = V(repeating: bias[3]); c31 = c30
        c40 = V(repeating: bias[4]); c41 = c40; c50 = V(repeating: bias[5]); c51 = c50
        c60 = V(repeating: bias[6]); c61 = c60; c70 = V(repeating: bias[7]); c71 = c70
    }
    var ap = a
    var bp = UnsafeRawPointer(b)
    let bStep = ldb * MemoryLayout<Float>.stride
    for _ in 0..<k {
        let b0 = bp.loadUnaligned(as: V.self)
        let b1 = bp.loadUnaligned(fromByteOffset: 64, as: V.self)
        #if FOVEA_SIMD_FMA
        c00.addProduct(ap[0], b0); c01.addProduct(ap[0], b1)
        c10.addProduct(ap[1], b0); c11.addProduct(ap[1], b1)
        c20.addProduct(ap[2], b0); c21.addProduct(ap[2], b1)
        c30.addProduct(ap[3], b0); c31.addProduct(ap[3], b1)
        c40.addProduct(ap[4], b0); c41.addProduct(ap[4], b1)
        c50.addProduct(ap[5], b0); c51.addProduct(ap[5], b1)
        c60.addProduct(ap[6], b0); c61.addProduct(ap[6], b1)
        c70.addProduct(ap[7], b0); c71.addProduct(ap[7], b1)
        #else
        c00 += ap[0] * b0; c01 += ap[0] * b1; c10 += ap[1] * b0; c11 += ap[1] * b1
        c20 += ap[2] * b0; c21 += ap[2] * b1; c30 += ap[3] * b0; c31 += ap[3] * b1
        c40 += ap[4] * b0; c41 += ap[4] * b1; c50 += ap[5] * b0; c51 += ap[5] * b1
        c60 += ap[6] * b0; c61 += ap[6] * b1; c70 += ap[7] * b0; c71 += ap[7] * b1
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
        c40 = activate(c40, activation, p0, p1); c41 = activate(c41, activation, p0, p1)
        c50 = activate(c50, activation, p0, p1); c51 = activate(c51, activation, p0, p1)
        c60 = activate(c60, activation, p0, p1); c61 = activate(c61, activation, p0, p1)
        c70 = activate(c70, activation, p0, p1); c71 = activate(c71, activation, p0, p1)
    }
    func store(_ row: Int, _ half: Int, _ v: V) { cRaw.storeBytes(of: v, toByteOffset: row * rowBytes + half * 64, as: V.self) }
    store(0, 0, c00); store(0, 1, c01); store(1, 0, c10); store(1, 1, c11)
    store(2, 0, c20); store(2, 1, c21); store(3, 0, c30); store(3, 1, c31)
    store(4, 0, c40); store(4, 1, c41); store(5, 0, c50); store(5, 1, c51)
    store(6, 0, c60); store(6, 1, c61); store(7, 0, c70); store(7, 1, c71)
}

#else

/// One full 8x32 tile as four 4x16 sub-tiles of eight SIMD8 accumulators,
/// for CPUs with 16 vector registers.
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
        #if FOVEA_SIMD_FMA
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

#endif
