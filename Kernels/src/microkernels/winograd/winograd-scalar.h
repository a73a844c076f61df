/*
 * Winograd input and output transforms, portable C: one tile at a time. The
 * reference the AVX2 and AVX-512 variants match (within rounding: they fuse
 * multiply-adds).
 */
#ifndef FOVEA_WINOGRAD_SCALAR_H
#define FOVEA_WINOGRAD_SCALAR_H

#include "winograd.h"

#define WG_VEC float
#define WG_ATTR __attribute__((always_inline))
#define WG_FN(name) scalar_##name
#define WG_ADD(a, b) ((a) + (b))
#define WG_SUB(a, b) ((a) - (b))
#define WG_MUL(a, k) ((a) * (k))
#define WG_FMA(a, k, c) ((a) * (k) + (c))
#define WG_CONST(f) (f)
#include "winograd-transforms.h"

enum { A = FOVEA_WINOGRAD_MAX_ALPHA };

static inline __attribute__((always_inline)) void input_1d(size_t alpha, const float *d, size_t ds, float *o,
                                                           size_t os) {
    if (alpha == 4) scalar_input_f2(d, ds, o, os);
    else if (alpha == 6) scalar_input_f4(d, ds, o, os);
    else scalar_input_f6(d, ds, o, os);
}

static inline __attribute__((always_inline)) void output_1d(size_t alpha, const float *d, size_t ds, float *o,
                                                            size_t os) {
    if (alpha == 4) scalar_output_f2(d, ds, o, os);
    else if (alpha == 6) scalar_output_f4(d, ds, o, os);
    else scalar_output_f6(d, ds, o, os);
}

static inline __attribute__((always_inline)) void input_block(const fovea_winograd_block *b, const float *x, float *v,
                                                              const size_t alpha) {
    const size_t channels = b->channels, nr = b->nr, width = b->input_width, point_stride = b->point_stride;
    for (size_t c = 0; c < channels; c++) {
        const float *xc = x + c * b->input_plane;
        for (size_t j = 0; j < nr; j++) {
            const fovea_winograd_tile_info *t = &b->tiles[j];
            float d[A][A] = {{0}}, h[A][A], o[A];
            for (size_t u = t->row_lo; u < t->row_hi; u++) {
                const float *row = xc + t->x_first + (u - t->row_lo) * width;
                for (size_t k = t->col_lo; k < t->col_hi; k++) d[u][k] = row[k - t->col_lo];
            }
            for (size_t u = 0; u < alpha; u++) input_1d(alpha, d[u], 1, h[u], 1);
            for (size_t px = 0; px < alpha; px++) {
                input_1d(alpha, &h[0][px], A, o, 1);
                float *dst = v + px * point_stride + c * nr + j;
                for (size_t py = 0; py < alpha; py++) dst[py * alpha * point_stride] = o[py];
            }
        }
    }
}

static inline __attribute__((always_inline)) void output_block(const fovea_winograd_block *b, const float *s,
                                                               size_t rows, const float *bias, const fovea_epilogue *e,
                                                               float *y, const size_t alpha) {
    const size_t nr = b->nr, width = b->output_width, points = alpha * alpha;
    for (size_t r = 0; r < rows; r++) {
        float *yr = y + r * b->output_plane;
        const float bv = bias != NULL ? bias[r] : 0.0f;
        for (size_t j = 0; j < nr; j++) {
            const fovea_winograd_tile_info *t = &b->tiles[j];
            if (t->out_rows == 0) continue;
            float mm[A][A], h[A][A], col[A];
            for (size_t py = 0; py < alpha; py++) {
                for (size_t px = 0; px < alpha; px++) mm[py][px] = s[(r * points + py * alpha + px) * nr + j];
                output_1d(alpha, mm[py], 1, h[py], 1);
            }
            for (size_t ox = 0; ox < t->out_cols; ox++) {
                output_1d(alpha, &h[0][ox], A, col, 1);
                for (size_t oy = 0; oy < t->out_rows; oy++) {
                    float value = col[oy] + bv;
                    if (e != NULL) value = fovea_epilogue_apply(e, value);
                    yr[t->y_first + oy * width + ox] = value;
                }
            }
        }
    }
}

#endif /* FOVEA_WINOGRAD_SCALAR_H */
