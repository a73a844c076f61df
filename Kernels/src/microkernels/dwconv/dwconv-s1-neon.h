/*
 * The body of the depthwise K×K stride-1 convolutions of one plane with NEON
 * (3×3, 5×5, 7×7): the AVX2 scheme on 4-column vectors. Each input row is
 * loaded once as K shifted vectors feeding the K output rows in flight, whose
 * sums stay in registers; V vectors per strip (two for 3×3 and 5×5: 6 or 10
 * accumulators, independent FMA chains, in 32 q registers). Strips whose taps
 * all lie inside the row use plain loads, the others lane loads with zeros
 * outside (load-neon.h). A ragged last strip is moved back to end at the last
 * column (recomputing a few outputs); planes narrower than 4 store in pieces.
 * Each output adds its taps row by row, column by column after the bias (the
 * reference's order).
 */
#ifndef FOVEA_DWCONV_S1_NEON_H
#define FOVEA_DWCONV_S1_NEON_H

#include "load-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS

enum { MAX_K = 7, MAX_V = 2 };

/* V vectors of 4 columns from output column ow0 (the last with `last` valid lanes) over output rows [o_begin, o_end). */
static inline __attribute__((always_inline)) void strip(const fovea_conv2d_params *p, const float *x, const float *w,
                                                        float *y, int64_t ow0, int64_t last, int64_t o_begin,
                                                        int64_t o_end, float bias, const fovea_epilogue *epi,
                                                        const int K, const int V, const int masked) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width, pt = (int64_t)p->pad_top;
    const int64_t c = ow0 - (int64_t)p->pad_left; /* input column of lane 0, tap 0 */
    /* acc[j][v]: the sum of output row o - j, for which input row r = o - pt is tap row j. */
    float32x4_t acc[MAX_K][MAX_V];
#pragma GCC unroll 7
    for (int j = 0; j < K; j++) {
#pragma GCC unroll 2
        for (int v = 0; v < V; v++) acc[j][v] = vdupq_n_f32(0.0f);
    }
    for (int64_t o = o_begin; o < o_end + K - 1; o++) {
        const int64_t r = o - pt;
#pragma GCC unroll 2
        for (int v = 0; v < V; v++) acc[0][v] = vdupq_n_f32(bias);
        if (r >= 0 && r < height) {
            const float *row = x + r * width;
#pragma GCC unroll 7
            for (int kw = 0; kw < K; kw++) {
#pragma GCC unroll 2
                for (int v = 0; v < V; v++) {
                    const int64_t start = c + 4 * v + kw;
                    const float32x4_t in = masked ? fovea_dw_load_lanes_neon(row, start, 1, width, v == V - 1 ? last : 4)
                                                  : vld1q_f32(row + start);
#pragma GCC unroll 7
                    for (int j = K - 1; j >= 0; j--) acc[j][v] = vfmaq_n_f32(acc[j][v], in, w[j * K + kw]);
                }
            }
        }
        if (o - (K - 1) >= o_begin) {
            float *dst = y + (o - (K - 1)) * out_width + ow0;
#pragma GCC unroll 2
            for (int v = 0; v < V; v++) {
                fovea_dw_store_neon(dst + 4 * v, fovea_epilogue_neon(acc[K - 1][v], epi), v == V - 1 ? last : 4);
            }
        }
#pragma GCC unroll 7
        for (int j = K - 1; j > 0; j--) {
#pragma GCC unroll 2
            for (int v = 0; v < V; v++) acc[j][v] = acc[j - 1][v];
        }
    }
}

static inline __attribute__((always_inline)) void plane(const fovea_conv2d_params *p, const float *x, const float *w,
                                                       float bias, float *y, size_t oh_begin, size_t oh_end,
                                                       const fovea_epilogue *e, const int K, const int V) {
    const int64_t width = (int64_t)p->input_width, out_width = (int64_t)p->output_width;
    const int64_t pl = (int64_t)p->pad_left, o_begin = (int64_t)oh_begin, o_end = (int64_t)oh_end;
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    /* The weights too: read through w, each FMA would reload its weight after every store to y (they may alias). */
    float wk[MAX_K * MAX_K];
    for (int i = 0; i < K * K; i++) wk[i] = w[i];
    w = wk;
    if (out_width < 4) { /* one partial vector */
        strip(p, x, w, y, 0, out_width, o_begin, o_end, bias, &epi, K, 1, 1);
        return;
    }
    /* Full 4-column vectors, V at a time while they fit; the last one ends at the last column. */
    for (int64_t ow0 = 0; ow0 < out_width;) {
        if (ow0 + 4 > out_width) ow0 = out_width - 4;
        const int wide = V == 2 && out_width - ow0 >= 8;
        const int64_t c = ow0 - pl, columns = wide ? 8 : 4;
        const int inside = c >= 0 && c + columns + K - 2 < width;
        if (wide && inside) strip(p, x, w, y, ow0, 4, o_begin, o_end, bias, &epi, K, 2, 0);
        else if (wide) strip(p, x, w, y, ow0, 4, o_begin, o_end, bias, &epi, K, 2, 1);
        else if (inside) strip(p, x, w, y, ow0, 4, o_begin, o_end, bias, &epi, K, 1, 0);
        else strip(p, x, w, y, ow0, 4, o_begin, o_end, bias, &epi, K, 1, 1);
        ow0 += columns;
    }
}

#endif

#endif /* FOVEA_DWCONV_S1_NEON_H */
