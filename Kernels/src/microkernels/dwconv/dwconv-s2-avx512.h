/*
 * The body of the depthwise 5×5 and 7×7 stride-2 convolutions of one plane with AVX-512
 * (EfficientNet / MobileNetV3 / MnasNet downsampling blocks).
 *
 * Columns as in the 3×3 stride-2 variant: 16 outputs read 2·16 + K - 2 input
 * columns per row; masked loads at offsets 0, 1, 3, 5 (and 16 further) and
 * in-lane shuffles give the taps of columns 0..K-1 (even elements of the
 * loads at offsets 0, 1, 3, 5 are columns 0, 1, 3, 5; odd elements of those
 * at offsets 1, 3, 5 are columns 2, 4, 6), all in the same shuffled lane
 * order, which one permute undoes before the store.
 *
 * Rows: going down the plane two input rows per output row, step s reads
 * input rows 2s - pad_top (+0, +1), which are tap rows 2j and 2j + 1 of output
 * row s - j: (K + 1) / 2 output rows are in flight, the oldest finished and
 * stored each step. Every input row is loaded once per strip; each output
 * adds its taps row by row, column by column after the bias (the reference's
 * order).
 */
#ifndef FOVEA_DWCONV_S2_AVX512_H
#define FOVEA_DWCONV_S2_AVX512_H

#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

enum { MAX_K = 7, MAX_ROWS = 4 /* (MAX_K + 1) / 2 */ };

/* Load offsets whose even (and odd) elements give the tap columns. */
static const int load_offset[4] = {0, 1, 3, 5};

/* The taps of columns 0..K-1 of 16 outputs in one input row (zero where padding), in shuffled lane order. */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void
load_taps(const float *row, const __mmask16 masks[2 * MAX_ROWS], const int K, __m512 taps[MAX_K]) {
    const int loads = (K + 1) / 2; /* offsets 0, 1, 3 for K = 5; 0, 1, 3, 5 for K = 7 */
#pragma GCC unroll 4
    for (int i = 0; i < loads; i++) {
        const int off = load_offset[i];
        const __m512 a = _mm512_maskz_loadu_ps(masks[2 * i], row + off);
        const __m512 b = _mm512_maskz_loadu_ps(masks[2 * i + 1], row + off + 16);
        taps[off] = _mm512_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
        if (off > 0 && off + 1 < K) taps[off + 1] = _mm512_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
    }
}

/* `vectors` (1 or 2) vectors of 16 outputs from output column ow0 over output rows [o_begin, o_end); K is 5 or 7. */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void
strip(const fovea_conv2d_params *p, const float *x, const float *w, float *y, int64_t ow0, int64_t o_begin,
      int64_t o_end, __m512 vbias, const fovea_epilogue *epi, const int K, const int vectors) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width, pt = (int64_t)p->pad_top;
    const int J = (K + 1) / 2; /* output rows in flight */
    /* Lane of the shuffled sums that holds output i. */
    const __m512i order = _mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
    __mmask16 masks[2][2 * MAX_ROWS], store_mask[2];
#pragma GCC unroll 2
    for (int v = 0; v < vectors; v++) {
        const int64_t first = ow0 + 16 * v, n = out_width - first < 16 ? out_width - first : 16;
        const int64_t c = 2 * first - (int64_t)p->pad_left;
#pragma GCC unroll 4
        for (int i = 0; i < J; i++) {
            masks[v][2 * i] = fovea_dw_row_mask_avx512(c + load_offset[i], 1, width, 16);
            masks[v][2 * i + 1] = fovea_dw_row_mask_avx512(c + load_offset[i] + 16, 1, width, 16);
        }
        store_mask[v] = fovea_dw_mask_avx512((fovea_dw_lanes){0, n});
    }
    const float *x_strip = x + 2 * ow0 - (int64_t)p->pad_left;
    float *y_strip = y + ow0;
    /* acc[v][j]: the sum of output row s - j, whose tap rows 2j, 2j + 1 are input rows 2s - pt, 2s - pt + 1. */
    __m512 acc[2][MAX_ROWS];
#pragma GCC unroll 2
    for (int v = 0; v < 2; v++) {
#pragma GCC unroll 4
        for (int j = 0; j < MAX_ROWS; j++) acc[v][j] = _mm512_setzero_ps();
    }
    for (int64_t s = o_begin; s < o_end + J - 1; s++) {
#pragma GCC unroll 2
        for (int v = 0; v < vectors; v++) acc[v][0] = vbias;
#pragma GCC unroll 2
        for (int t = 0; t < 2; t++) {
            const int64_t r = 2 * s - pt + t;
            if (r < 0 || r >= height) continue;
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                __m512 taps[MAX_K];
                load_taps(x_strip + r * width + 32 * v, masks[v], K, taps);
#pragma GCC unroll 7
                for (int kw = 0; kw < K; kw++) {
#pragma GCC unroll 4
                    for (int j = J - 1; j >= 0; j--) {
                        const int kh = 2 * j + t;
                        if (kh < K) acc[v][j] = _mm512_fmadd_ps(taps[kw], _mm512_set1_ps(w[kh * K + kw]), acc[v][j]);
                    }
                }
            }
        }
        if (s - (J - 1) >= o_begin) {
            float *dst = y_strip + (s - (J - 1)) * out_width;
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                const __m512 out = _mm512_permutexvar_ps(order, fovea_epilogue_avx512(acc[v][J - 1], epi));
                _mm512_mask_storeu_ps(dst + 16 * v, store_mask[v], out);
            }
        }
#pragma GCC unroll 2
        for (int v = 0; v < vectors; v++) {
#pragma GCC unroll 4
            for (int j = J - 1; j > 0; j--) acc[v][j] = acc[v][j - 1];
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

#endif /* FOVEA_DWCONV_S2_AVX512_H */
