/*
 * Winograd input and output transforms, AVX-512: sixteen tiles per vector (one
 * lane per tile), so a transformed value of 16 tiles is one store into the B
 * panel, and the output transform reads 16 tiles of the scratch at once.
 *
 * Input: for each patch row u, the rows of 16 tiles are loaded 8 floats each
 * (tile i | tile i+8 paired in 8 registers; a left-edge tile's row addressed
 * col_lo floats early), by plain loads where the window stays inside the
 * plane, and transposed in 256-bit halves into α vectors of "column v of 16
 * tiles", the transpose zeroing the lanes of padding. Output: the columns are
 * transformed first, then each output row of 16 tiles is interleaved back
 * into the tiles' rows laid end to end and written with 64-byte masked
 * stores, one run of horizontally adjacent tiles at a time.
 */
#ifndef FOVEA_WINOGRAD_AVX512_H
#define FOVEA_WINOGRAD_AVX512_H

#include "winograd.h"
#include "../gemm/epilogue-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

#define WG_INLINE __attribute__((always_inline)) FOVEA_TARGET_AVX512
#define WG_VEC __m512
#define WG_ATTR WG_INLINE
#define WG_FN(name) avx512_##name
#define WG_ADD(a, b) _mm512_add_ps(a, b)
#define WG_SUB(a, b) _mm512_sub_ps(a, b)
#define WG_MUL(a, k) _mm512_mul_ps(a, k)
#define WG_FMA(a, k, c) _mm512_fmadd_ps(a, k, c)
#define WG_CONST(f) _mm512_set1_ps(f)
#include "winograd-transforms.h"

enum { A = FOVEA_WINOGRAD_MAX_ALPHA, NR = FOVEA_WINOGRAD_MAX_NR, LANES = 16 };

static inline WG_INLINE void input_1d(size_t alpha, const __m512 *d, size_t ds, __m512 *o, size_t os) {
    if (alpha == 4) avx512_input_f2(d, ds, o, os);
    else if (alpha == 6) avx512_input_f4(d, ds, o, os);
    else avx512_input_f6(d, ds, o, os);
}

static inline WG_INLINE void output_1d(size_t alpha, const __m512 *d, size_t ds, __m512 *o, size_t os) {
    if (alpha == 4) avx512_output_f2(d, ds, o, os);
    else if (alpha == 6) avx512_output_f4(d, ds, o, os);
    else avx512_output_f6(d, ds, o, os);
}

/*
 * r[i] = [row i of matrix P (8 floats) | row i of matrix Q]  →
 * r[e] = [column e of P | column e of Q], for e < count, with the lanes not in
 * keep[e] zeroed.
 */
static inline WG_INLINE void transpose8_halves(__m512 r[8], size_t count, const __mmask16 keep[8]) {
    const __m512 t0 = _mm512_unpacklo_ps(r[0], r[1]), t1 = _mm512_unpackhi_ps(r[0], r[1]);
    const __m512 t2 = _mm512_unpacklo_ps(r[2], r[3]), t3 = _mm512_unpackhi_ps(r[2], r[3]);
    const __m512 t4 = _mm512_unpacklo_ps(r[4], r[5]), t5 = _mm512_unpackhi_ps(r[4], r[5]);
    const __m512 t6 = _mm512_unpacklo_ps(r[6], r[7]), t7 = _mm512_unpackhi_ps(r[6], r[7]);
    /* s[e] (e < 4): per 128-bit lane L, element 4L + e of rows 0..3; s[4 + e]: of rows 4..7. */
    __m512 s[8];
    s[0] = _mm512_shuffle_ps(t0, t2, 0x44);
    s[1] = _mm512_shuffle_ps(t0, t2, 0xEE);
    s[2] = _mm512_shuffle_ps(t1, t3, 0x44);
    s[3] = _mm512_shuffle_ps(t1, t3, 0xEE);
    s[4] = _mm512_shuffle_ps(t4, t6, 0x44);
    s[5] = _mm512_shuffle_ps(t4, t6, 0xEE);
    s[6] = _mm512_shuffle_ps(t5, t7, 0x44);
    s[7] = _mm512_shuffle_ps(t5, t7, 0xEE);
    const __m512i low = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
    const __m512i high = _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
    for (size_t e = 0; e < 4 && e < count; e++) r[e] = _mm512_maskz_permutex2var_ps(keep[e], s[e], low, s[e + 4]);
    for (size_t e = 4; e < count; e++) r[e] = _mm512_maskz_permutex2var_ps(keep[e], s[e - 4], high, s[e]);
}

/* r[i] = [8 floats at off[i] | 8 floats at off[i + 8]] from xc: plain loads, or masked ones by mask[] when not NULL. */
static inline WG_INLINE void load_rows(uintptr_t xc, const ptrdiff_t *off, const __m256i *mask, __m512 r[8]) {
#pragma GCC unroll 8
    for (size_t i = 0; i < 8; i++) {
        const float *lo = (const float *)(xc + (uintptr_t)(off[i] * (ptrdiff_t)sizeof(float)));
        const float *hi = (const float *)(xc + (uintptr_t)(off[i + 8] * (ptrdiff_t)sizeof(float)));
        const __m256 a = mask == NULL ? _mm256_loadu_ps(lo) : _mm256_maskload_ps(lo, mask[i]);
        const __m256 z = mask == NULL ? _mm256_loadu_ps(hi) : _mm256_maskload_ps(hi, mask[i + 8]);
        r[i] = _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_castps_pd(a)), _mm256_castps_pd(z), 1));
    }
}

static inline WG_INLINE void input_block(const fovea_winograd_block *b, const float *x, float *v, const size_t alpha) {
    const size_t channels = b->channels, nr = b->nr, width = b->input_width, plane = b->input_plane;
    const size_t point_stride = b->point_stride, extent = b->input_extent;
    /*
     * Per group of 16 tiles, patch row and tile: the address (in floats from
     * channel 0, may be negative) of the 8 floats whose lane j is patch column
     * j (a left-edge tile's row starts col_lo floats early; a row outside the
     * input reads its plane's first 8 floats), and per patch row and column
     * the tiles that have input there: the transpose zeroes the others. A
     * group's patch row loads all 16 rows with plain 256-bit loads when every
     * 8-float window lies inside its channel's plane (reading past a row's
     * end is harmless there): 64-byte masked loads split cache lines, about
     * 100 -> 80 us on 56×56 F(4), 64 channels. Else (the first and last tiles
     * of a plane) AVX masked loads of the lanes that hold input.
     */
    ptrdiff_t offset[NR / LANES][A][LANES];
    __m256i load[NR / LANES][A][LANES];
    __mmask16 keep[NR / LANES][A][8];
    int plain[NR / LANES][A];
    const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (size_t g = 0; g < nr / LANES; g++) {
        for (size_t u = 0; u < alpha; u++) {
            plain[g][u] = 1;
            for (size_t e = 0; e < 8; e++) keep[g][u][e] = 0;
        }
        for (size_t i = 0; i < LANES; i++) {
            const fovea_winograd_tile_info *t = &b->tiles[g * LANES + i];
            const __m256i columns = _mm256_andnot_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(t->col_lo), lane),
                                                        _mm256_cmpgt_epi32(_mm256_set1_epi32(t->col_hi), lane));
            const ptrdiff_t within = (ptrdiff_t)(t->x_first % plane); /* x_first's place in its plane */
            for (size_t u = 0; u < alpha; u++) {
                const int inside = u >= t->row_lo && u < t->row_hi;
                const ptrdiff_t start = inside ? within + (ptrdiff_t)((u - t->row_lo) * width) - (ptrdiff_t)t->col_lo : 0;
                load[g][u][i] = inside ? columns : _mm256_setzero_si256();
                offset[g][u][i] = (ptrdiff_t)t->x_first - within + start;
                if (start < 0 || start + 8 > (ptrdiff_t)extent) plain[g][u] = 0;
                for (size_t e = t->col_lo; inside && e < t->col_hi; e++) keep[g][u][e] |= (__mmask16)(1u << i);
            }
        }
    }
    for (size_t c = 0; c < channels; c++) {
        /* Integer address arithmetic: an address may lie before x. */
        const uintptr_t xc = (uintptr_t)(x + c * plane);
        for (size_t g = 0; g < nr / LANES; g++) {
            __m512 h[A][A];
            for (size_t u = 0; u < alpha; u++) {
                const ptrdiff_t *off = offset[g][u];
                const __m256i *mask = load[g][u];
                /* Tile i into the low half, tile i + 8 into the high half of r[i]. */
                __m512 r[8];
                if (plain[g][u]) {
                    load_rows(xc, off, NULL, r);
                } else {
                    load_rows(xc, off, mask, r);
                }
                transpose8_halves(r, alpha, keep[g][u]);
                input_1d(alpha, r, 1, h[u], 1);
            }
            for (size_t px = 0; px < alpha; px++) {
                __m512 o[A];
                input_1d(alpha, &h[0][px], A, o, 1);
                float *dst = v + px * point_stride + c * nr + g * LANES;
                for (size_t py = 0; py < alpha; py++) _mm512_storeu_ps(dst + py * alpha * point_stride, o[py]);
            }
        }
    }
}

/*
 * Interleaving m column vectors (lane t = tile t) into the m registers Z_k of
 * the 16 tiles' rows laid end to end (float f = 16k + i of Z_k is column f % m
 * of tile f / m): Z_k takes from each column pair (c, c+1) one vpermt2ps with
 * index[k][c/2] (tile t of column c is t, of column c+1 is 16 + t) and keeps
 * the lanes of mask[k][c/2]. Generated from that rule.
 */
static const int32_t interleave2_index[2][1][16] = {
    {{0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23}},
    {{8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31}},
};
static const uint16_t interleave2_mask[2][1] = {
    {0xFFFF},
    {0xFFFF},
};
static const int32_t interleave4_index[4][2][16] = {
    {{0, 16, 0, 0, 1, 17, 0, 0, 2, 18, 0, 0, 3, 19, 0, 0},
     {0, 0, 0, 16, 0, 0, 1, 17, 0, 0, 2, 18, 0, 0, 3, 19}},
    {{4, 20, 0, 0, 5, 21, 0, 0, 6, 22, 0, 0, 7, 23, 0, 0},
     {0, 0, 4, 20, 0, 0, 5, 21, 0, 0, 6, 22, 0, 0, 7, 23}},
    {{8, 24, 0, 0, 9, 25, 0, 0, 10, 26, 0, 0, 11, 27, 0, 0},
     {0, 0, 8, 24, 0, 0, 9, 25, 0, 0, 10, 26, 0, 0, 11, 27}},
    {{12, 28, 0, 0, 13, 29, 0, 0, 14, 30, 0, 0, 15, 31, 0, 0},
     {0, 0, 12, 28, 0, 0, 13, 29, 0, 0, 14, 30, 0, 0, 15, 31}},
};
static const uint16_t interleave4_mask[4][2] = {
    {0x3333, 0xCCCC},
    {0x3333, 0xCCCC},
    {0x3333, 0xCCCC},
    {0x3333, 0xCCCC},
};
static const int32_t interleave6_index[6][3][16] = {
    {{0, 16, 0, 0, 0, 0, 1, 17, 0, 0, 0, 0, 2, 18, 0, 0},
     {0, 0, 0, 16, 0, 0, 0, 0, 1, 17, 0, 0, 0, 0, 2, 18},
     {0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 1, 17, 0, 0, 0, 0}},
    {{0, 0, 3, 19, 0, 0, 0, 0, 4, 20, 0, 0, 0, 0, 5, 21},
     {0, 0, 0, 0, 3, 19, 0, 0, 0, 0, 4, 20, 0, 0, 0, 0},
     {2, 18, 0, 0, 0, 0, 3, 19, 0, 0, 0, 0, 4, 20, 0, 0}},
    {{0, 0, 0, 0, 6, 22, 0, 0, 0, 0, 7, 23, 0, 0, 0, 0},
     {5, 21, 0, 0, 0, 0, 6, 22, 0, 0, 0, 0, 7, 23, 0, 0},
     {0, 0, 5, 21, 0, 0, 0, 0, 6, 22, 0, 0, 0, 0, 7, 23}},
    {{8, 24, 0, 0, 0, 0, 9, 25, 0, 0, 0, 0, 10, 26, 0, 0},
     {0, 0, 8, 24, 0, 0, 0, 0, 9, 25, 0, 0, 0, 0, 10, 26},
     {0, 0, 0, 0, 8, 24, 0, 0, 0, 0, 9, 25, 0, 0, 0, 0}},
    {{0, 0, 11, 27, 0, 0, 0, 0, 12, 28, 0, 0, 0, 0, 13, 29},
     {0, 0, 0, 0, 11, 27, 0, 0, 0, 0, 12, 28, 0, 0, 0, 0},
     {10, 26, 0, 0, 0, 0, 11, 27, 0, 0, 0, 0, 12, 28, 0, 0}},
    {{0, 0, 0, 0, 14, 30, 0, 0, 0, 0, 15, 31, 0, 0, 0, 0},
     {13, 29, 0, 0, 0, 0, 14, 30, 0, 0, 0, 0, 15, 31, 0, 0},
     {0, 0, 13, 29, 0, 0, 0, 0, 14, 30, 0, 0, 0, 0, 15, 31}},
};
static const uint16_t interleave6_mask[6][3] = {
    {0x30C3, 0xC30C, 0x0C30},
    {0xC30C, 0x0C30, 0x30C3},
    {0x0C30, 0x30C3, 0xC30C},
    {0x30C3, 0xC30C, 0x0C30},
    {0xC30C, 0x0C30, 0x30C3},
    {0x0C30, 0x30C3, 0xC30C},
};

/* Z[k], k < m: row oy of the 16 tiles laid end to end (see above); o[c] = column c. */
static inline WG_INLINE void interleave_row(size_t m, const __m512 *o, __m512 *z) {
    const int32_t *index = m == 2 ? &interleave2_index[0][0][0] : m == 4 ? &interleave4_index[0][0][0]
                                                                          : &interleave6_index[0][0][0];
    const uint16_t *mask = m == 2 ? &interleave2_mask[0][0] : m == 4 ? &interleave4_mask[0][0] : &interleave6_mask[0][0];
    const size_t pairs = m / 2;
    for (size_t k = 0; k < m; k++) {
        __m512 v = _mm512_permutex2var_ps(o[0], _mm512_loadu_si512(index + k * pairs * 16), o[1]);
        for (size_t c = 1; c < pairs; c++) {
            const __m512 w = _mm512_permutex2var_ps(o[2 * c], _mm512_loadu_si512(index + (k * pairs + c) * 16),
                                                    o[2 * c + 1]);
            v = _mm512_mask_blend_ps(mask[k * pairs + c], v, w);
        }
        z[k] = v;
    }
}

/*
 * One masked store of a run: lanes `mask` of Z[k] go to the row at
 * y + offset (floats, relative to the output row of the group's tiles; may
 * be negative: the lanes before the run are masked off), for rows < rows.
 */
typedef struct store_op {
    ptrdiff_t offset;
    __mmask16 mask;
    uint8_t k;
    uint8_t rows;
} store_op;

/*
 * The stores of one group of 16 tiles: runs of tiles whose rows follow one
 * another in y (the same output rows, next tile to the right) are written
 * straight from Z, a few 64-byte masked stores per row instead of one small
 * store per tile. Returns the number of ops.
 */
static inline WG_INLINE size_t plan_stores(const fovea_winograd_tile_info *tiles, size_t m, store_op *ops) {
    size_t count = 0;
    for (size_t a = 0; a < LANES;) {
        if (tiles[a].out_rows == 0) {
            a++;
            continue;
        }
        size_t b = a + 1;
        while (b < LANES && tiles[b - 1].out_cols == m && tiles[b].out_rows == tiles[a].out_rows &&
               tiles[b].y_first == tiles[b - 1].y_first + m) {
            b++;
        }
        const size_t first = a * m, end = (b - 1) * m + tiles[b - 1].out_cols;
        for (size_t k = first / 16; k * 16 < end; k++) {
            const size_t lo = first > k * 16 ? first - k * 16 : 0, hi = end < k * 16 + 16 ? end - k * 16 : 16;
            ops[count].offset = (ptrdiff_t)tiles[a].y_first - (ptrdiff_t)first + (ptrdiff_t)(k * 16);
            ops[count].mask = (__mmask16)(((1u << hi) - 1u) & ~((1u << lo) - 1u));
            ops[count].k = (uint8_t)k;
            ops[count].rows = tiles[a].out_rows;
            count++;
        }
        a = b;
    }
    return count;
}

/* What output_block applies after the bias, fixed per instantiation so that no per-vector test remains. */
enum finish_kind { FINISH_NONE, FINISH_RELU, FINISH_EPILOGUE };

static inline WG_INLINE __m512 finish(__m512 v, __m512 bias, const fovea_epilogue *e, enum finish_kind kind) {
    v = _mm512_add_ps(v, bias); /* −0 when there is none: adds nothing, keeps −0 and NaN */
    if (kind == FINISH_RELU) return _mm512_max_ps(v, _mm512_setzero_ps()); /* NaN becomes 0, as ReLU */
    if (kind == FINISH_EPILOGUE) return fovea_epilogue_avx512(v, e);
    return v;
}

static inline WG_INLINE void output_block(const fovea_winograd_block *b, const float *s, size_t rows,
                                          const float *bias, const fovea_epilogue *e, float *y, const size_t alpha,
                                          const enum finish_kind kind) {
    const size_t m = alpha - 2, nr = b->nr, width = b->output_width, points = alpha * alpha;
    /*
     * At most m + 16 ops per group: one per run, plus one per 16 floats. They
     * come in order of k (runs left to right), so ops first[g][k] ..<
     * first[g][k + 1] store Z_k, which then stays in a register.
     */
    store_op ops[NR / LANES][A + LANES];
    size_t first[NR / LANES][A + 1], group_rows[NR / LANES];
    for (size_t g = 0; g < nr / LANES; g++) {
        const size_t count = plan_stores(b->tiles + g * LANES, m, ops[g]);
        size_t most = 0, i = 0;
        for (size_t k = 0; k <= m; k++) {
            first[g][k] = i;
            while (i < count && (k == m || ops[g][i].k == k)) {
                most = ops[g][i].rows > most ? ops[g][i].rows : most;
                i++;
            }
        }
        group_rows[g] = most;
    }
    /* A copy: the stores into y cannot change it, so it is not read again after each one. */
    const fovea_epilogue epilogue = e != NULL ? *e : (fovea_epilogue){-INFINITY, INFINITY, 0.0f, 0, 0};
    for (size_t r = 0; r < rows; r++) {
        float *yr = y + r * b->output_plane;
        const __m512 bv = _mm512_set1_ps(bias != NULL ? bias[r] : -0.0f);
        for (size_t g = 0; g < nr / LANES; g++) {
            const size_t out_rows = group_rows[g];
            if (out_rows == 0) continue;
            const float *sr = s + r * points * nr + g * LANES;
            /* Columns first: t[oy][px] = output row oy of patch column px (m × α live vectors, not α × α). */
            __m512 t[A][A];
            for (size_t px = 0; px < alpha; px++) {
                __m512 col[A];
                for (size_t py = 0; py < alpha; py++) col[py] = _mm512_loadu_ps(sr + (py * alpha + px) * nr);
                output_1d(alpha, col, 1, &t[0][px], A);
            }
            for (size_t oy = 0; oy < out_rows; oy++) {
                __m512 o[A];
                output_1d(alpha, t[oy], 1, o, 1);
                for (size_t ox = 0; ox < m; ox++) o[ox] = finish(o[ox], bv, &epilogue, kind);
                __m512 z[A];
                interleave_row(m, o, z);
                /* Integer address arithmetic: an op's base may lie before y (masked-off lanes are never touched). */
                const uintptr_t row = (uintptr_t)(yr + oy * width);
                for (size_t k = 0; k < m; k++) {
                    for (size_t i = first[g][k]; i < first[g][k + 1]; i++) {
                        const store_op *op = &ops[g][i];
                        if (oy >= op->rows) continue;
                        _mm512_mask_storeu_ps((float *)(row + (uintptr_t)(op->offset * (ptrdiff_t)sizeof(float))),
                                              op->mask, z[k]);
                    }
                }
            }
        }
    }
}

/* The output transform with its finishing step chosen once per call. */
static inline WG_INLINE void output_any(const fovea_winograd_block *b, const float *s, size_t rows,
                                        const float *bias, const fovea_epilogue *epilogue, float *y,
                                        const size_t alpha) {
    if (epilogue == NULL) {
        output_block(b, s, rows, bias, epilogue, y, alpha, FINISH_NONE);
    } else if (epilogue->relu && epilogue->lo == 0.0f && epilogue->hi == INFINITY && !epilogue->leaky) {
        output_block(b, s, rows, bias, epilogue, y, alpha, FINISH_RELU);
    } else {
        output_block(b, s, rows, bias, epilogue, y, alpha, FINISH_EPILOGUE);
    }
}

#endif

#endif /* FOVEA_WINOGRAD_AVX512_H */
