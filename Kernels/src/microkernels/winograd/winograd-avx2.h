/*
 * Winograd input and output transforms, AVX2 + FMA: eight tiles per vector
 * (one lane per tile). Input: the patch rows of 8 tiles are loaded (masked at
 * the input's edges; left-edge tiles go through a small zeroed buffer) and
 * transposed into α vectors of "column v of 8 tiles". Output: each output row
 * of 8 tiles is transposed back (4×4 per 128-bit lane, plus pairs) and stored
 * with plain 16- and 8-byte stores per tile.
 */
#ifndef FOVEA_WINOGRAD_AVX2_H
#define FOVEA_WINOGRAD_AVX2_H

#include "winograd.h"
#include "../gemm/epilogue-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

#define WG_INLINE __attribute__((always_inline)) FOVEA_TARGET_AVX2
#define WG_VEC __m256
#define WG_ATTR WG_INLINE
#define WG_FN(name) avx2_##name
#define WG_ADD(a, b) _mm256_add_ps(a, b)
#define WG_SUB(a, b) _mm256_sub_ps(a, b)
#define WG_MUL(a, k) _mm256_mul_ps(a, k)
#define WG_FMA(a, k, c) _mm256_fmadd_ps(a, k, c)
#define WG_CONST(f) _mm256_set1_ps(f)
#include "winograd-transforms.h"

enum { A = FOVEA_WINOGRAD_MAX_ALPHA, NR = FOVEA_WINOGRAD_MAX_NR, LANES = 8 };

static inline WG_INLINE void input_1d(size_t alpha, const __m256 *d, size_t ds, __m256 *o, size_t os) {
    if (alpha == 4) avx2_input_f2(d, ds, o, os);
    else if (alpha == 6) avx2_input_f4(d, ds, o, os);
    else avx2_input_f6(d, ds, o, os);
}

static inline WG_INLINE void output_1d(size_t alpha, const __m256 *d, size_t ds, __m256 *o, size_t os) {
    if (alpha == 4) avx2_output_f2(d, ds, o, os);
    else if (alpha == 6) avx2_output_f4(d, ds, o, os);
    else avx2_output_f6(d, ds, o, os);
}

/* mask_table + 8 − n: the first n lanes set (n <= 8). */
static const int32_t mask_table[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};

static inline WG_INLINE __m256i first_lanes(size_t count) {
    return _mm256_loadu_si256((const __m256i *)(mask_table + 8 - count));
}

/* r[i] = row i of an 8×8 matrix → r[e] = column e, for e < count. */
static inline WG_INLINE void transpose8(__m256 r[8], size_t count) {
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    /* s[e] (e < 4): per 128-bit lane L, element 4L + e of rows 0..3; s[4 + e]: of rows 4..7. */
    __m256 s[8];
    s[0] = _mm256_shuffle_ps(t0, t2, 0x44);
    s[1] = _mm256_shuffle_ps(t0, t2, 0xEE);
    s[2] = _mm256_shuffle_ps(t1, t3, 0x44);
    s[3] = _mm256_shuffle_ps(t1, t3, 0xEE);
    s[4] = _mm256_shuffle_ps(t4, t6, 0x44);
    s[5] = _mm256_shuffle_ps(t4, t6, 0xEE);
    s[6] = _mm256_shuffle_ps(t5, t7, 0x44);
    s[7] = _mm256_shuffle_ps(t5, t7, 0xEE);
    for (size_t e = 0; e < 4 && e < count; e++) r[e] = _mm256_permute2f128_ps(s[e], s[e + 4], 0x20);
    for (size_t e = 4; e < count; e++) r[e] = _mm256_permute2f128_ps(s[e - 4], s[e], 0x31);
}

static inline WG_INLINE void input_block(const fovea_winograd_block *b, const float *x, float *v, const size_t alpha) {
    const size_t channels = b->channels, nr = b->nr, width = b->input_width, point_stride = b->point_stride;
    /* Per tile and patch row: where the row's valid part starts and how many floats it has. */
    size_t offset[NR][A];
    uint8_t count[NR][A], shift[NR];
    for (size_t j = 0; j < nr; j++) {
        const fovea_winograd_tile_info *t = &b->tiles[j];
        shift[j] = t->col_lo;
        for (size_t u = 0; u < alpha; u++) {
            const int inside = u >= t->row_lo && u < t->row_hi;
            count[j][u] = inside ? (uint8_t)(t->col_hi - t->col_lo) : 0;
            offset[j][u] = inside ? t->x_first + (u - t->row_lo) * width : 0;
        }
    }
    for (size_t c = 0; c < channels; c++) {
        const float *xc = x + c * b->input_plane;
        for (size_t g = 0; g < nr; g += LANES) {
            __m256 h[A][A];
            for (size_t u = 0; u < alpha; u++) {
                __m256 r[8];
                for (size_t i = 0; i < 8; i++) {
                    const size_t j = g + i, n = count[j][u];
                    if (shift[j] == 0 || n == 0) {
                        r[i] = _mm256_maskload_ps(xc + offset[j][u], first_lanes(n));
                    } else {
                        /* A left-edge tile: the row's values start at column shift[j]. */
                        float row[8] = {0};
                        for (size_t k = 0; k < n; k++) row[shift[j] + k] = xc[offset[j][u] + k];
                        r[i] = _mm256_loadu_ps(row);
                    }
                }
                transpose8(r, alpha);
                input_1d(alpha, r, 1, h[u], 1);
            }
            for (size_t px = 0; px < alpha; px++) {
                __m256 o[A];
                input_1d(alpha, &h[0][px], A, o, 1);
                float *dst = v + px * point_stride + c * nr + g;
                for (size_t py = 0; py < alpha; py++) _mm256_storeu_ps(dst + py * alpha * point_stride, o[py]);
            }
        }
    }
}

/*
 * Stores row oy of one tile's outputs: `quad` holds columns 0..3 (m >= 4), the
 * low or high half of `pair` the last two columns (m = 2 or 6). Whole rows go
 * out as plain 16- and 8-byte stores (a VMASKMOVPS store costs about 5 ns on
 * Zen 4); the right edge's partial rows go through a small buffer.
 */
static inline WG_INLINE void store_tile_row(const fovea_winograd_tile_info *t, size_t oy, size_t width, float *y,
                                            size_t m, __m128 quad, __m128 pair, int pair_high) {
    if (oy >= t->out_rows) return;
    float *dst = y + t->y_first + oy * width;
    if (t->out_cols == m) {
        if (m >= 4) _mm_storeu_ps(dst, quad);
        if (m != 4) {
            if (pair_high) _mm_storeh_pi((__m64 *)(dst + m - 2), pair);
            else _mm_storel_pi((__m64 *)(dst + m - 2), pair);
        }
        return;
    }
    float row[8];
    if (m >= 4) _mm_storeu_ps(row, quad);
    if (m != 4) {
        if (pair_high) _mm_storeh_pi((__m64 *)(row + m - 2), pair);
        else _mm_storel_pi((__m64 *)(row + m - 2), pair);
    }
    for (size_t i = 0; i < t->out_cols; i++) dst[i] = row[i];
}

/*
 * Stores row oy of 8 tiles' outputs, o[ox] = column ox (one lane per tile):
 * a 4×4 transpose per 128-bit lane gives tile 4L+k's columns 0..3 in lane L of
 * quad[k]; interleaving the last two columns gives tiles 4L, 4L+1 (low, high
 * half) in lane L of pair[0] and tiles 4L+2, 4L+3 in pair[1].
 */
static inline WG_INLINE void store_row(const fovea_winograd_tile_info *tiles, size_t oy, size_t width, float *y,
                                       size_t m, const __m256 *o) {
    __m256 quad[4] = {_mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps(), _mm256_setzero_ps()};
    __m256 pair[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
    if (m >= 4) {
        const __m256 t0 = _mm256_unpacklo_ps(o[0], o[1]), t1 = _mm256_unpackhi_ps(o[0], o[1]);
        const __m256 t2 = _mm256_unpacklo_ps(o[2], o[3]), t3 = _mm256_unpackhi_ps(o[2], o[3]);
        quad[0] = _mm256_shuffle_ps(t0, t2, 0x44);
        quad[1] = _mm256_shuffle_ps(t0, t2, 0xEE);
        quad[2] = _mm256_shuffle_ps(t1, t3, 0x44);
        quad[3] = _mm256_shuffle_ps(t1, t3, 0xEE);
    }
    if (m != 4) {
        pair[0] = _mm256_unpacklo_ps(o[m - 2], o[m - 1]);
        pair[1] = _mm256_unpackhi_ps(o[m - 2], o[m - 1]);
    }
    store_tile_row(&tiles[0], oy, width, y, m, _mm256_castps256_ps128(quad[0]), _mm256_castps256_ps128(pair[0]), 0);
    store_tile_row(&tiles[1], oy, width, y, m, _mm256_castps256_ps128(quad[1]), _mm256_castps256_ps128(pair[0]), 1);
    store_tile_row(&tiles[2], oy, width, y, m, _mm256_castps256_ps128(quad[2]), _mm256_castps256_ps128(pair[1]), 0);
    store_tile_row(&tiles[3], oy, width, y, m, _mm256_castps256_ps128(quad[3]), _mm256_castps256_ps128(pair[1]), 1);
    store_tile_row(&tiles[4], oy, width, y, m, _mm256_extractf128_ps(quad[0], 1), _mm256_extractf128_ps(pair[0], 1), 0);
    store_tile_row(&tiles[5], oy, width, y, m, _mm256_extractf128_ps(quad[1], 1), _mm256_extractf128_ps(pair[0], 1), 1);
    store_tile_row(&tiles[6], oy, width, y, m, _mm256_extractf128_ps(quad[2], 1), _mm256_extractf128_ps(pair[1], 1), 0);
    store_tile_row(&tiles[7], oy, width, y, m, _mm256_extractf128_ps(quad[3], 1), _mm256_extractf128_ps(pair[1], 1), 1);
}

static inline WG_INLINE void output_block(const fovea_winograd_block *b, const float *s, size_t rows,
                                          const float *bias, const fovea_epilogue *e, float *y, const size_t alpha) {
    const size_t m = alpha - 2, nr = b->nr, width = b->output_width, points = alpha * alpha;
    size_t group_rows[NR / LANES];
    for (size_t g = 0; g < nr; g += LANES) {
        size_t most = 0;
        for (size_t j = g; j < g + LANES; j++) most = b->tiles[j].out_rows > most ? b->tiles[j].out_rows : most;
        group_rows[g / LANES] = most;
    }
    for (size_t r = 0; r < rows; r++) {
        float *yr = y + r * b->output_plane;
        const __m256 bv = _mm256_set1_ps(bias != NULL ? bias[r] : 0.0f);
        for (size_t g = 0; g < nr; g += LANES) {
            const size_t out_rows = group_rows[g / LANES];
            if (out_rows == 0) continue;
            const float *sr = s + r * points * nr + g;
            __m256 h[A][A];
            for (size_t py = 0; py < alpha; py++) {
                __m256 row[A];
                for (size_t px = 0; px < alpha; px++) row[px] = _mm256_loadu_ps(sr + (py * alpha + px) * nr);
                output_1d(alpha, row, 1, h[py], 1);
            }
            __m256 o[A][A];
            for (size_t ox = 0; ox < m; ox++) output_1d(alpha, &h[0][ox], A, &o[0][ox], A);
            for (size_t oy = 0; oy < out_rows; oy++) {
                for (size_t ox = 0; ox < m; ox++) {
                    if (bias != NULL) o[oy][ox] = _mm256_add_ps(o[oy][ox], bv);
                    if (e != NULL) o[oy][ox] = fovea_epilogue_avx2(o[oy][ox], e);
                }
                store_row(b->tiles + g, oy, width, yr, m, o[oy]);
            }
        }
    }
}

#endif

#endif /* FOVEA_WINOGRAD_AVX2_H */
