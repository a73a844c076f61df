/*
 * Depthwise 3×3 stride-1 convolution of one plane with AVX-512.
 *
 * A strip of 32 output columns (two vectors; 16 or a masked remainder at the
 * end) goes down the plane one input row at a time: each row is loaded once
 * as three shifted vectors per 16 columns (masked where the taps hang over the
 * padding or past the row, so nothing outside the plane is read) and feeds the
 * three output rows it belongs to, whose partial sums stay in registers; the
 * oldest is finished (epilogue) and stored. 3 loads and 9 FMAs per 16
 * outputs; two vectors side by side give the FMA pipes independent chains.
 */
#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

typedef struct weights9 {
    __m512 k00, k01, k02, k10, k11, k12, k20, k21, k22;
} weights9;

/* `vectors` (1 or 2) vectors of 16 columns from output column ow0 over output rows [o_begin, o_end). */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void
strip(const fovea_conv2d_params *p, const float *x, float *y, int64_t ow0, int64_t o_begin, int64_t o_end,
      const weights9 *k, __m512 vbias, const fovea_epilogue *epi, int vectors) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width, pt = (int64_t)p->pad_top;
    __mmask16 m0[2], m1[2], m2[2], store_mask[2];
#pragma GCC unroll 2
    for (int v = 0; v < vectors; v++) {
        const int64_t first = ow0 + 16 * v, n = out_width - first < 16 ? out_width - first : 16;
        const int64_t c = first - (int64_t)p->pad_left; /* input column of lane 0, tap 0 */
        m0[v] = fovea_dw_row_mask_avx512(c, 1, width, n);
        m1[v] = fovea_dw_row_mask_avx512(c + 1, 1, width, n);
        m2[v] = fovea_dw_row_mask_avx512(c + 2, 1, width, n);
        store_mask[v] = fovea_dw_mask_avx512((fovea_dw_lanes){0, n});
    }
    const float *x_strip = x + ow0 - (int64_t)p->pad_left;
    float *y_strip = y + ow0;
    /* a2, a1, a0: the sums of output rows o-2, o-1, o, where input row r = o - pt is their tap row 2, 1, 0. */
    __m512 a2[2] = {_mm512_setzero_ps(), _mm512_setzero_ps()}, a1[2] = {_mm512_setzero_ps(), _mm512_setzero_ps()};
    for (int64_t o = o_begin; o <= o_end + 1; o++) {
        const int64_t r = o - pt;
        __m512 a0[2] = {vbias, vbias};
        if (r >= 0 && r < height) {
            const float *row = x_strip + r * width;
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                const __m512 v0 = _mm512_maskz_loadu_ps(m0[v], row + 16 * v);
                const __m512 v1 = _mm512_maskz_loadu_ps(m1[v], row + 16 * v + 1);
                const __m512 v2 = _mm512_maskz_loadu_ps(m2[v], row + 16 * v + 2);
                a2[v] = _mm512_fmadd_ps(v0, k->k20, a2[v]);
                a1[v] = _mm512_fmadd_ps(v0, k->k10, a1[v]);
                a0[v] = _mm512_fmadd_ps(v0, k->k00, a0[v]);
                a2[v] = _mm512_fmadd_ps(v1, k->k21, a2[v]);
                a1[v] = _mm512_fmadd_ps(v1, k->k11, a1[v]);
                a0[v] = _mm512_fmadd_ps(v1, k->k01, a0[v]);
                a2[v] = _mm512_fmadd_ps(v2, k->k22, a2[v]);
                a1[v] = _mm512_fmadd_ps(v2, k->k12, a1[v]);
                a0[v] = _mm512_fmadd_ps(v2, k->k02, a0[v]);
            }
        }
        if (o - 2 >= o_begin) {
            float *dst = y_strip + (o - 2) * out_width;
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                _mm512_mask_storeu_ps(dst + 16 * v, store_mask[v], fovea_epilogue_avx512(a2[v], epi));
            }
        }
#pragma GCC unroll 2
        for (int v = 0; v < vectors; v++) {
            a2[v] = a1[v];
            a1[v] = a0[v];
        }
    }
}

FOVEA_TARGET_AVX512
void fovea_f32_dwconv_3x3s1__avx512(const fovea_conv2d_params *p, const float *x, const float *w, float bias,
                                    float *y, size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    const int64_t out_width = (int64_t)p->output_width;
    weights9 k;
    k.k00 = _mm512_set1_ps(w[0]), k.k01 = _mm512_set1_ps(w[1]), k.k02 = _mm512_set1_ps(w[2]);
    k.k10 = _mm512_set1_ps(w[3]), k.k11 = _mm512_set1_ps(w[4]), k.k12 = _mm512_set1_ps(w[5]);
    k.k20 = _mm512_set1_ps(w[6]), k.k21 = _mm512_set1_ps(w[7]), k.k22 = _mm512_set1_ps(w[8]);
    const __m512 vbias = _mm512_set1_ps(bias);
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    int64_t ow0 = 0;
    for (; out_width - ow0 > 16; ow0 += 32) strip(p, x, y, ow0, (int64_t)oh_begin, (int64_t)oh_end, &k, vbias, &epi, 2);
    if (ow0 < out_width) strip(p, x, y, ow0, (int64_t)oh_begin, (int64_t)oh_end, &k, vbias, &epi, 1);
}

#endif
