/*
 * The body of the depthwise K×K stride-2 convolutions of one plane with NEON
 * (3×3, 5×5, 7×7): the AVX2 scheme on 4-output vectors, without its
 * shuffles: LD2 loads 8 floats de-interleaved, so one load at column offset
 * 2m gives the taps of columns 2m (evens) and 2m + 1 (odds) of 4 outputs in
 * order. Two input rows per output row, (K + 1) / 2 output rows in flight.
 * Strips whose loads all lie inside the row use LD2, the others lane loads
 * with zeros outside (load-neon.h). A ragged last strip is moved back to end
 * at the last column; planes narrower than 4 store in pieces. Each output
 * adds its taps row by row, column by column after the bias (the reference's
 * order).
 */
#ifndef FOVEA_DWCONV_S2_NEON_H
#define FOVEA_DWCONV_S2_NEON_H

#include "load-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS

enum { MAX_K = 7, MAX_ROWS = 4 /* (MAX_K + 1) / 2 */ };

/* The taps of columns 0..K-1 of 4 outputs in one input row (zero where padding), starting at column c. */
static inline __attribute__((always_inline)) void load_taps(const float *row, int64_t c, int64_t width, int64_t last,
                                                            const int K, const int masked, float32x4_t taps[MAX_K]) {
#pragma GCC unroll 4
    for (int kw = 0; kw < K; kw += 2) {
        if (masked) {
            taps[kw] = fovea_dw_load_lanes_neon(row, c + kw, 2, width, last);
            if (kw + 1 < K) taps[kw + 1] = fovea_dw_load_lanes_neon(row, c + kw + 1, 2, width, last);
        } else {
            const float32x4x2_t pair = vld2q_f32(row + c + kw);
            taps[kw] = pair.val[0];
            if (kw + 1 < K) taps[kw + 1] = pair.val[1];
        }
    }
}

/* 4 outputs from output column ow0 (`last` of them valid) over output rows [o_begin, o_end). */
static inline __attribute__((always_inline)) void strip(const fovea_conv2d_params *p, const float *x, const float *w,
                                                        float *y, int64_t ow0, int64_t last, int64_t o_begin,
                                                        int64_t o_end, float bias, const fovea_epilogue *epi,
                                                        const int K, const int masked) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width, pt = (int64_t)p->pad_top;
    const int J = (K + 1) / 2; /* output rows in flight */
    const int64_t c = 2 * ow0 - (int64_t)p->pad_left; /* input column of lane 0, tap 0 */
    /* acc[j]: the sum of output row s - j, whose tap rows 2j, 2j + 1 are input rows 2s - pt, 2s - pt + 1. */
    float32x4_t acc[MAX_ROWS];
#pragma GCC unroll 4
    for (int j = 0; j < MAX_ROWS; j++) acc[j] = vdupq_n_f32(0.0f);
    for (int64_t s = o_begin; s < o_end + J - 1; s++) {
        acc[0] = vdupq_n_f32(bias);
#pragma GCC unroll 2
        for (int t = 0; t < 2; t++) {
            const int64_t r = 2 * s - pt + t;
            if (r < 0 || r >= height) continue;
            float32x4_t taps[MAX_K];
            load_taps(x + r * width, c, width, last, K, masked, taps);
#pragma GCC unroll 7
            for (int kw = 0; kw < K; kw++) {
#pragma GCC unroll 4
                for (int j = J - 1; j >= 0; j--) {
                    const int kh = 2 * j + t;
                    if (kh < K) acc[j] = vfmaq_n_f32(acc[j], taps[kw], w[kh * K + kw]);
                }
            }
        }
        if (s - (J - 1) >= o_begin) {
            fovea_dw_store_neon(y + (s - (J - 1)) * out_width + ow0, fovea_epilogue_neon(acc[J - 1], epi), last);
        }
#pragma GCC unroll 4
        for (int j = J - 1; j > 0; j--) acc[j] = acc[j - 1];
    }
}

static inline __attribute__((always_inline)) void plane(const fovea_conv2d_params *p, const float *x, const float *w,
                                                       float bias, float *y, size_t oh_begin, size_t oh_end,
                                                       const fovea_epilogue *e, const int K) {
    const int64_t width = (int64_t)p->input_width, out_width = (int64_t)p->output_width;
    const int64_t pl = (int64_t)p->pad_left, o_begin = (int64_t)oh_begin, o_end = (int64_t)oh_end;
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    /* The weights too: read through w, each FMA would reload its weight after every store to y (they may alias). */
    float wk[MAX_K * MAX_K];
    for (int i = 0; i < K * K; i++) wk[i] = w[i];
    w = wk;
    if (out_width < 4) { /* one partial vector */
        strip(p, x, w, y, 0, out_width, o_begin, o_end, bias, &epi, K, 1);
        return;
    }
    /* Full 4-output vectors; the last one ends at the last column. */
    for (int64_t ow0 = 0; ow0 < out_width; ow0 += 4) {
        if (ow0 + 4 > out_width) ow0 = out_width - 4;
        const int64_t c = 2 * ow0 - pl;
        /* The last column loaded: LD2 at c + 2m (2m <= K - 1) reads 8 floats, up to c + K + 6. */
        if (c >= 0 && c + K + 6 < width) strip(p, x, w, y, ow0, 4, o_begin, o_end, bias, &epi, K, 0);
        else strip(p, x, w, y, ow0, 4, o_begin, o_end, bias, &epi, K, 1);
    }
}

#endif

#endif /* FOVEA_DWCONV_S2_NEON_H */
