/*
 * The body of the depthwise 5×5 and 7×7 stride-2 convolutions of one plane with AVX2 + FMA:
 * the AVX-512 scheme with one 8-output vector per strip. Loads at offsets
 * 0, 1, 3, 5 (and 8 further) and in-lane shuffles give the taps of columns
 * 0..K-1 in one shuffled lane order (outputs 0,1,4,5 | 2,3,6,7), which one
 * permute undoes before the store; two input rows per output row, (K + 1) / 2
 * output rows in flight. Strips whose taps all lie inside the row use plain
 * loads, the others masked loads (which never touch masked-off elements).
 * Stores are plain: a ragged last strip is moved back to end at the last
 * column (recomputing a few outputs), since vmaskmovps stores are slow on AMD
 * processors; planes narrower than 8 store in pieces. Each output adds its
 * taps row by row, column by column after the bias (the reference's order).
 */
#ifndef FOVEA_DWCONV_S2_AVX2_H
#define FOVEA_DWCONV_S2_AVX2_H

#include "load-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

enum { MAX_K = 7, MAX_ROWS = 4 /* (MAX_K + 1) / 2 */ };

/* Load offsets whose even (and odd) elements give the tap columns. */
static const int load_offset[4] = {0, 1, 3, 5};

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 __m256 load(const float *src, int masked, __m256i mask) {
    return masked ? _mm256_maskload_ps(src, mask) : _mm256_loadu_ps(src);
}

/* The taps of columns 0..K-1 of 8 outputs in one input row (zero where padding), in shuffled lane order. */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 void
load_taps(const float *row, const __m256i masks[2 * MAX_ROWS], const int K, const int masked, __m256 taps[MAX_K]) {
    const int loads = (K + 1) / 2; /* offsets 0, 1, 3 for K = 5; 0, 1, 3, 5 for K = 7 */
#pragma GCC unroll 4
    for (int i = 0; i < loads; i++) {
        const int off = load_offset[i];
        const __m256 a = load(row + off, masked, masks[2 * i]);
        const __m256 b = load(row + off + 8, masked, masks[2 * i + 1]);
        taps[off] = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
        if (off > 0 && off + 1 < K) taps[off + 1] = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
    }
}

/* 8 outputs from output column ow0 (`last` of them valid) over output rows [o_begin, o_end); K is 5 or 7. */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 void
strip(const fovea_conv2d_params *p, const float *x, const float *w, float *y, int64_t ow0, int64_t last,
      int64_t o_begin, int64_t o_end, __m256 vbias, const fovea_epilogue *epi, const int K, const int masked) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width, pt = (int64_t)p->pad_top;
    const int J = (K + 1) / 2; /* output rows in flight */
    const int64_t c = 2 * ow0 - (int64_t)p->pad_left; /* input column of lane 0, tap 0 */
    /* Lane of the shuffled sums that holds output i. */
    const __m256i order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
    __m256i masks[2 * MAX_ROWS];
#pragma GCC unroll 4
    for (int i = 0; i < J; i++) {
        masks[2 * i] = masked ? fovea_dw_row_mask_avx2(c + load_offset[i], 1, width, 8) : _mm256_setzero_si256();
        masks[2 * i + 1] = masked ? fovea_dw_row_mask_avx2(c + load_offset[i] + 8, 1, width, 8) : _mm256_setzero_si256();
    }
    /* acc[j]: the sum of output row s - j, whose tap rows 2j, 2j + 1 are input rows 2s - pt, 2s - pt + 1. */
    __m256 acc[MAX_ROWS];
#pragma GCC unroll 4
    for (int j = 0; j < MAX_ROWS; j++) acc[j] = _mm256_setzero_ps();
    for (int64_t s = o_begin; s < o_end + J - 1; s++) {
        acc[0] = vbias;
#pragma GCC unroll 2
        for (int t = 0; t < 2; t++) {
            const int64_t r = 2 * s - pt + t;
            if (r < 0 || r >= height) continue;
            __m256 taps[MAX_K];
            load_taps(x + r * width + c, masks, K, masked, taps);
#pragma GCC unroll 7
            for (int kw = 0; kw < K; kw++) {
#pragma GCC unroll 4
                for (int j = J - 1; j >= 0; j--) {
                    const int kh = 2 * j + t;
                    if (kh < K) acc[j] = _mm256_fmadd_ps(taps[kw], _mm256_broadcast_ss(w + kh * K + kw), acc[j]);
                }
            }
        }
        if (s - (J - 1) >= o_begin) {
            const __m256 out = _mm256_permutevar8x32_ps(fovea_epilogue_avx2(acc[J - 1], epi), order);
            fovea_dw_store_avx2(y + (s - (J - 1)) * out_width + ow0, out, last);
        }
#pragma GCC unroll 4
        for (int j = J - 1; j > 0; j--) acc[j] = acc[j - 1];
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
    /* Full 8-output vectors; the last one ends at the last column. */
    for (int64_t ow0 = 0; ow0 < out_width; ow0 += 8) {
        if (ow0 + 8 > out_width) ow0 = out_width - 8;
        const int64_t c = 2 * ow0 - pl;
        /* The last column loaded is c + load_offset[J - 1] + 15 = c + K + 13. */
        if (c >= 0 && c + K + 13 < width) strip(p, x, w, y, ow0, 8, o_begin, o_end, vbias, &epi, K, 0);
        else strip(p, x, w, y, ow0, 8, o_begin, o_end, vbias, &epi, K, 1);
    }
}

#endif

#endif /* FOVEA_DWCONV_S2_AVX2_H */
