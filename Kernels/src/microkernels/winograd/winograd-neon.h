/*
 * Winograd input and output transforms, NEON: four tiles per vector (one
 * lane per tile), the AVX2 scheme. Input: each patch row of 4 tiles is loaded
 * as two q registers (columns 0-3 and 4-7; partial rows at the input's edges
 * go through a small zeroed buffer) and 4×4 transposes (TRN1/TRN2) make α
 * vectors of "column v of 4 tiles". Output: each output row of 4 tiles is
 * transposed back the same way and stored with plain 16- and 8-byte stores
 * per tile; partial rows at the right and bottom edges through a buffer.
 */
#ifndef FOVEA_WINOGRAD_NEON_H
#define FOVEA_WINOGRAD_NEON_H

#include "winograd.h"
#include "../gemm/epilogue-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS
#include <arm_neon.h>

#define WG_VEC float32x4_t
#define WG_ATTR __attribute__((always_inline))
#define WG_FN(name) neon_##name
#define WG_ADD(a, b) vaddq_f32(a, b)
#define WG_SUB(a, b) vsubq_f32(a, b)
#define WG_MUL(a, k) vmulq_f32(a, k)
#define WG_FMA(a, k, c) vfmaq_f32(c, a, k)
#define WG_CONST(f) vdupq_n_f32(f)
#include "winograd-transforms.h"

enum { A = FOVEA_WINOGRAD_MAX_ALPHA, NR = FOVEA_WINOGRAD_MAX_NR, LANES = 4 };

static inline __attribute__((always_inline)) void input_1d(size_t alpha, const float32x4_t *d, size_t ds,
                                                           float32x4_t *o, size_t os) {
    if (alpha == 4) neon_input_f2(d, ds, o, os);
    else if (alpha == 6) neon_input_f4(d, ds, o, os);
    else neon_input_f6(d, ds, o, os);
}

static inline __attribute__((always_inline)) void output_1d(size_t alpha, const float32x4_t *d, size_t ds,
                                                            float32x4_t *o, size_t os) {
    if (alpha == 4) neon_output_f2(d, ds, o, os);
    else if (alpha == 6) neon_output_f4(d, ds, o, os);
    else neon_output_f6(d, ds, o, os);
}

/* r[i] = row i of a 4×4 matrix → r[e] = column e. */
static inline __attribute__((always_inline)) void transpose4(float32x4_t r[4]) {
    const float32x4_t t0 = vtrn1q_f32(r[0], r[1]), t1 = vtrn2q_f32(r[0], r[1]);
    const float32x4_t t2 = vtrn1q_f32(r[2], r[3]), t3 = vtrn2q_f32(r[2], r[3]);
    r[0] = vreinterpretq_f32_f64(vtrn1q_f64(vreinterpretq_f64_f32(t0), vreinterpretq_f64_f32(t2)));
    r[1] = vreinterpretq_f32_f64(vtrn1q_f64(vreinterpretq_f64_f32(t1), vreinterpretq_f64_f32(t3)));
    r[2] = vreinterpretq_f32_f64(vtrn2q_f64(vreinterpretq_f64_f32(t0), vreinterpretq_f64_f32(t2)));
    r[3] = vreinterpretq_f32_f64(vtrn2q_f64(vreinterpretq_f64_f32(t1), vreinterpretq_f64_f32(t3)));
}

/* One patch row of one tile: n floats from src placed at column `shift`, zeros elsewhere, as columns 0-3 and 4-7. */
static inline __attribute__((always_inline)) void load_patch_row(const float *src, size_t n, size_t shift,
                                                                 size_t alpha, float32x4_t *lo, float32x4_t *hi) {
    if (shift == 0 && n == alpha) { /* a whole row: plain loads of exactly alpha floats */
        *lo = vld1q_f32(src);
        *hi = alpha == 8 ? vld1q_f32(src + 4)
              : alpha == 6 ? vcombine_f32(vld1_f32(src + 4), vdup_n_f32(0.0f))
                           : vdupq_n_f32(0.0f);
        return;
    }
    float row[8] = {0};
    for (size_t k = 0; k < n; k++) row[shift + k] = src[k];
    *lo = vld1q_f32(row);
    *hi = vld1q_f32(row + 4);
}

static inline __attribute__((always_inline)) void input_block(const fovea_winograd_block *b, const float *x, float *v,
                                                              const size_t alpha) {
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
            float32x4_t h[A][A];
            for (size_t u = 0; u < alpha; u++) {
                float32x4_t r[8]; /* columns 0-3 of the 4 tiles' rows, then columns 4-7 */
                for (size_t i = 0; i < 4; i++) {
                    const size_t j = g + i;
                    load_patch_row(xc + offset[j][u], count[j][u], shift[j], alpha, &r[i], &r[4 + i]);
                }
                transpose4(r);
                if (alpha > 4) transpose4(r + 4);
                input_1d(alpha, r, 1, h[u], 1);
            }
            for (size_t px = 0; px < alpha; px++) {
                float32x4_t o[A];
                input_1d(alpha, &h[0][px], A, o, 1);
                float *dst = v + px * point_stride + c * nr + g;
                for (size_t py = 0; py < alpha; py++) vst1q_f32(dst + py * alpha * point_stride, o[py]);
            }
        }
    }
}

/* Row oy of one tile: `lo` holds its columns 0-3, `hi` columns 4-7 (m of them valid). */
static inline __attribute__((always_inline)) void store_tile_row(const fovea_winograd_tile_info *t, size_t oy,
                                                                 size_t width, float *y, size_t m, float32x4_t lo,
                                                                 float32x4_t hi) {
    if (oy >= t->out_rows) return;
    float *dst = y + t->y_first + oy * width;
    if (t->out_cols == m) {
        if (m == 2) {
            vst1_f32(dst, vget_low_f32(lo));
        } else {
            vst1q_f32(dst, lo);
            if (m == 6) vst1_f32(dst + 4, vget_low_f32(hi));
        }
        return;
    }
    float row[8];
    vst1q_f32(row, lo);
    vst1q_f32(row + 4, hi);
    for (size_t i = 0; i < t->out_cols; i++) dst[i] = row[i];
}

/* Row oy of 4 tiles' outputs, o[ox] = column ox (one lane per tile). */
static inline __attribute__((always_inline)) void store_row(const fovea_winograd_tile_info *tiles, size_t oy,
                                                            size_t width, float *y, size_t m, const float32x4_t *o) {
    const float32x4_t zero = vdupq_n_f32(0.0f);
    float32x4_t q[8];
    for (size_t i = 0; i < 8; i++) q[i] = i < m ? o[i] : zero;
    transpose4(q);
    if (m > 4) transpose4(q + 4);
    for (size_t k = 0; k < 4; k++) store_tile_row(&tiles[k], oy, width, y, m, q[k], q[4 + k]);
}

static inline __attribute__((always_inline)) void output_block(const fovea_winograd_block *b, const float *s,
                                                               size_t rows, const float *bias,
                                                               const fovea_epilogue *e, float *y, const size_t alpha) {
    const size_t m = alpha - 2, nr = b->nr, width = b->output_width, points = alpha * alpha;
    size_t group_rows[NR / LANES];
    for (size_t g = 0; g < nr; g += LANES) {
        size_t most = 0;
        for (size_t j = g; j < g + LANES; j++) most = b->tiles[j].out_rows > most ? b->tiles[j].out_rows : most;
        group_rows[g / LANES] = most;
    }
    for (size_t r = 0; r < rows; r++) {
        float *yr = y + r * b->output_plane;
        const float32x4_t bv = vdupq_n_f32(bias != NULL ? bias[r] : 0.0f);
        for (size_t g = 0; g < nr; g += LANES) {
            const size_t out_rows = group_rows[g / LANES];
            if (out_rows == 0) continue;
            const float *sr = s + r * points * nr + g;
            float32x4_t h[A][A];
            for (size_t py = 0; py < alpha; py++) {
                float32x4_t row[A];
                for (size_t px = 0; px < alpha; px++) row[px] = vld1q_f32(sr + (py * alpha + px) * nr);
                output_1d(alpha, row, 1, h[py], 1);
            }
            float32x4_t o[A][A];
            for (size_t ox = 0; ox < m; ox++) output_1d(alpha, &h[0][ox], A, &o[0][ox], A);
            for (size_t oy = 0; oy < out_rows; oy++) {
                for (size_t ox = 0; ox < m; ox++) {
                    if (bias != NULL) o[oy][ox] = vaddq_f32(o[oy][ox], bv);
                    if (e != NULL) o[oy][ox] = fovea_epilogue_neon(o[oy][ox], e);
                }
                store_row(b->tiles + g, oy, width, yr, m, o[oy]);
            }
        }
    }
}

#endif

#endif /* FOVEA_WINOGRAD_NEON_H */
