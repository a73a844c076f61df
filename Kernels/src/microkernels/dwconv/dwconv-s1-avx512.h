/*
 * The body of the depthwise 5×5 and 7×7 stride-1 convolutions of one plane with AVX-512
 * (EfficientNet / MobileNetV3 and ConvNeXt blocks).
 *
 * The 3×3 stride-1 scheme with K rows in flight: a strip of 32 output columns
 * (two vectors; 16 or a masked remainder at the end) goes down the plane one
 * input row at a time. Each row is loaded once as K shifted vectors (masked
 * where the taps hang over the padding or past the row, so nothing outside
 * the plane is read) and feeds the K output rows it belongs to, whose partial
 * sums stay in registers (2K accumulators); the oldest is finished (epilogue)
 * and stored. K loads and K² FMAs per 16 outputs and input row, the tap
 * weights broadcast from memory. Each output adds its taps row by row, column
 * by column after the bias, the reference's order.
 */
#ifndef FOVEA_DWCONV_S1_AVX512_H
#define FOVEA_DWCONV_S1_AVX512_H

#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

enum { MAX_K = 7 };

/* `vectors` (1 or 2) vectors of 16 columns from output column ow0 over output rows [o_begin, o_end); K is 5 or 7. */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void
strip(const fovea_conv2d_params *p, const float *x, const float *w, float *y, int64_t ow0, int64_t o_begin,
      int64_t o_end, __m512 vbias, const fovea_epilogue *epi, const int K, const int vectors) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width, pt = (int64_t)p->pad_top;
    __mmask16 masks[2][MAX_K], store_mask[2];
#pragma GCC unroll 2
    for (int v = 0; v < vectors; v++) {
        const int64_t first = ow0 + 16 * v, n = out_width - first < 16 ? out_width - first : 16;
        const int64_t c = first - (int64_t)p->pad_left; /* input column of lane 0, tap 0 */
#pragma GCC unroll 7
        for (int kw = 0; kw < K; kw++) masks[v][kw] = fovea_dw_row_mask_avx512(c + kw, 1, width, n);
        store_mask[v] = fovea_dw_mask_avx512((fovea_dw_lanes){0, n});
    }
    const float *x_strip = x + ow0 - (int64_t)p->pad_left;
    float *y_strip = y + ow0;
    /* acc[v][j]: the sum of output row o - j, for which input row r = o - pt is tap row j. */
    __m512 acc[2][MAX_K];
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++) {
#pragma GCC unroll 7
        for (int j = 0; j < MAX_K; j++) acc[v][j] = _mm512_setzero_ps();
    }
    for (int64_t o = o_begin; o < o_end + K - 1; o++) {
        const int64_t r = o - pt;
#pragma GCC unroll 2
        for (int v = 0; v < vectors; v++) acc[v][0] = vbias;
        if (r >= 0 && r < height) {
            const float *row = x_strip + r * width;
#pragma GCC unroll 7
            for (int kw = 0; kw < K; kw++) {
#pragma GCC unroll 2
                for (int v = 0; v < vectors; v++) {
                    const __m512 in = _mm512_maskz_loadu_ps(masks[v][kw], row + 16 * v + kw);
#pragma GCC unroll 7
                    for (int j = K - 1; j >= 0; j--) {
                        acc[v][j] = _mm512_fmadd_ps(in, _mm512_set1_ps(w[j * K + kw]), acc[v][j]);
                    }
                }
            }
        }
        if (o - (K - 1) >= o_begin) {
            float *dst = y_strip + (o - (K - 1)) * out_width;
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                _mm512_mask_storeu_ps(dst + 16 * v, store_mask[v], fovea_epilogue_avx512(acc[v][K - 1], epi));
            }
        }
#pragma GCC unroll 2
        for (int v = 0; v < vectors; v++) {
#pragma GCC unroll 7
            for (int j = K - 1; j > 0; j--) acc[v][j] = acc[v][j - 1];
        }
    }
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void
plane(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y, size_t oh_begin,
      size_t oh_end, const fovea_epilogue *e, const int K) {
    const int64_t out_width = (int64_t)p->output_width;
    const __m512 vbias = _mm512_set1_ps(bias);
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    int64_t ow0 = 0;
    for (; out_width - ow0 > 16; ow0 += 32) {
        strip(p, x, w, y, ow0, (int64_t)oh_begin, (int64_t)oh_end, vbias, &epi, K, 2);
    }
    if (ow0 < out_width) strip(p, x, w, y, ow0, (int64_t)oh_begin, (int64_t)oh_end, vbias, &epi, K, 1);
}

#endif

#endif /* FOVEA_DWCONV_S1_AVX512_H */
