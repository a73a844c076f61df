/*
 * The body of the depthwise 5×5 and 7×7 stride-1 convolutions of one plane with AVX2 + FMA:
 * the AVX-512 scheme (each input row loaded once as K shifted vectors,
 * feeding the K output rows in flight, whose sums stay in registers) with one
 * 8-column vector per strip: K accumulators, one input vector and one
 * broadcast weight fit the 16 registers, and the K accumulators are K
 * independent FMA chains. Strips whose taps all lie inside the row use plain
 * loads, the others masked loads (which never touch masked-off elements).
 * Stores are plain: a ragged last strip is moved back to end at the last
 * column (recomputing a few outputs), since vmaskmovps stores are slow on AMD
 * processors; planes narrower than 8 store in pieces. Each output adds its
 * taps row by row, column by column after the bias (the reference's order).
 */
#ifndef FOVEA_DWCONV_S1_AVX2_H
#define FOVEA_DWCONV_S1_AVX2_H

#include "load-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

enum { MAX_K = 7 };

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 __m256 load(const float *src, int masked, __m256i mask) {
    return masked ? _mm256_maskload_ps(src, mask) : _mm256_loadu_ps(src);
}

/* 8 columns from output column ow0 (`last` of them valid) over output rows [o_begin, o_end); K is 5 or 7. */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 void
strip(const fovea_conv2d_params *p, const float *x, const float *w, float *y, int64_t ow0, int64_t last,
      int64_t o_begin, int64_t o_end, __m256 vbias, const fovea_epilogue *epi, const int K, const int masked) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width, pt = (int64_t)p->pad_top;
    const int64_t c = ow0 - (int64_t)p->pad_left; /* input column of lane 0, tap 0 */
    __m256i masks[MAX_K];
#pragma GCC unroll 7
    for (int kw = 0; kw < K; kw++) {
        masks[kw] = masked ? fovea_dw_row_mask_avx2(c + kw, 1, width, last) : _mm256_setzero_si256();
    }
    /* acc[j]: the sum of output row o - j, for which input row r = o - pt is tap row j. */
    __m256 acc[MAX_K];
#pragma GCC unroll 7
    for (int j = 0; j < MAX_K; j++) acc[j] = _mm256_setzero_ps();
    for (int64_t o = o_begin; o < o_end + K - 1; o++) {
        const int64_t r = o - pt;
        acc[0] = vbias;
        if (r >= 0 && r < height) {
            const float *row = x + r * width + c;
#pragma GCC unroll 7
            for (int kw = 0; kw < K; kw++) {
                const __m256 in = load(row + kw, masked, masks[kw]);
#pragma GCC unroll 7
                for (int j = K - 1; j >= 0; j--) {
                    acc[j] = _mm256_fmadd_ps(in, _mm256_broadcast_ss(w + j * K + kw), acc[j]);
                }
            }
        }
        if (o - (K - 1) >= o_begin) {
            fovea_dw_store_avx2(y + (o - (K - 1)) * out_width + ow0, fovea_epilogue_avx2(acc[K - 1], epi), last);
        }
#pragma GCC unroll 7
        for (int j = K - 1; j > 0; j--) acc[j] = acc[j - 1];
    }
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 void
plane(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y, size_t oh_begin,
      size_t oh_end, const fovea_epilogue *e, const int K) {
    const int64_t width = (int64_t)p->input_width, out_width = (int64_t)p->output_width;
    const int64_t pl = (int64_t)p->pad_left, o_begin = (int64_t)oh_begin, o_end = (int64_t)oh_end;
    const __m256 vbias = _mm256_set1_ps(bias);
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    if (out_width < 8) { /* one partial vector */
        strip(p, x, w, y, 0, out_width, o_begin, o_end, vbias, &epi, K, 1);
        return;
    }
    /* Full 8-column vectors; the last one ends at the last column. */
    for (int64_t ow0 = 0; ow0 < out_width; ow0 += 8) {
        if (ow0 + 8 > out_width) ow0 = out_width - 8;
        const int64_t c = ow0 - pl;
        if (c >= 0 && c + 8 + K - 2 < width) strip(p, x, w, y, ow0, 8, o_begin, o_end, vbias, &epi, K, 0);
        else strip(p, x, w, y, ow0, 8, o_begin, o_end, vbias, &epi, K, 1);
    }
}

#endif

#endif /* FOVEA_DWCONV_S1_AVX2_H */
