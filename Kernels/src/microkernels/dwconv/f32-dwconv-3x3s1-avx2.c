/*
 * Depthwise 3×3 stride-1 convolution of one plane with AVX2 + FMA: the
 * AVX-512 scheme with 8-column vectors (each input row loaded once as three
 * shifted vectors, feeding the three output rows in flight), two vectors per
 * strip for independent FMA chains. Strips whose taps all lie inside the row
 * use plain loads, the others masked loads (which never touch masked-off
 * elements). Stores are plain: a ragged last strip is moved back to end at
 * the last column (recomputing a few outputs) rather than masked, since
 * vmaskmovps stores are slow on AMD processors; planes narrower than 8 store
 * in pieces.
 */
#include "load-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

typedef struct weights9 {
    __m256 k00, k01, k02, k10, k11, k12, k20, k21, k22;
} weights9;

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 __m256 load(const float *src, int masked, __m256i mask) {
    return masked ? _mm256_maskload_ps(src, mask) : _mm256_loadu_ps(src);
}

/*
 * `vectors` (1 or 2) vectors of 8 columns from output column ow0 (the last
 * one holding `last` valid lanes) over output rows [o_begin, o_end).
 */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 void
strip(const fovea_conv2d_params *p, const float *x, float *y, int64_t ow0, int64_t last, int64_t o_begin,
      int64_t o_end, const weights9 *k, __m256 vbias, const fovea_epilogue *epi, int vectors, int masked) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width, pt = (int64_t)p->pad_top;
    const int64_t c = ow0 - (int64_t)p->pad_left;
    __m256i m0[2], m1[2], m2[2];
#pragma GCC unroll 2
    for (int v = 0; v < vectors; v++) {
        const int64_t n = v == vectors - 1 ? last : 8;
        m0[v] = masked ? fovea_dw_row_mask_avx2(c + 8 * v, 1, width, n) : _mm256_setzero_si256();
        m1[v] = masked ? fovea_dw_row_mask_avx2(c + 8 * v + 1, 1, width, n) : _mm256_setzero_si256();
        m2[v] = masked ? fovea_dw_row_mask_avx2(c + 8 * v + 2, 1, width, n) : _mm256_setzero_si256();
    }
    __m256 a2[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()}, a1[2] = {_mm256_setzero_ps(), _mm256_setzero_ps()};
    for (int64_t o = o_begin; o <= o_end + 1; o++) {
        const int64_t r = o - pt;
        __m256 a0[2] = {vbias, vbias};
        if (r >= 0 && r < height) {
            const float *row = x + r * width + c;
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                const __m256 v0 = load(row + 8 * v, masked, m0[v]);
                a2[v] = _mm256_fmadd_ps(v0, k->k20, a2[v]);
                a1[v] = _mm256_fmadd_ps(v0, k->k10, a1[v]);
                a0[v] = _mm256_fmadd_ps(v0, k->k00, a0[v]);
                const __m256 v1 = load(row + 8 * v + 1, masked, m1[v]);
                a2[v] = _mm256_fmadd_ps(v1, k->k21, a2[v]);
                a1[v] = _mm256_fmadd_ps(v1, k->k11, a1[v]);
                a0[v] = _mm256_fmadd_ps(v1, k->k01, a0[v]);
                const __m256 v2 = load(row + 8 * v + 2, masked, m2[v]);
                a2[v] = _mm256_fmadd_ps(v2, k->k22, a2[v]);
                a1[v] = _mm256_fmadd_ps(v2, k->k12, a1[v]);
                a0[v] = _mm256_fmadd_ps(v2, k->k02, a0[v]);
            }
        }
        if (o - 2 >= o_begin) {
            float *dst = y + (o - 2) * out_width + ow0;
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                fovea_dw_store_avx2(dst + 8 * v, fovea_epilogue_avx2(a2[v], epi), v == vectors - 1 ? last : 8);
            }
        }
#pragma GCC unroll 2
        for (int v = 0; v < vectors; v++) {
            a2[v] = a1[v];
            a1[v] = a0[v];
        }
    }
}

FOVEA_TARGET_AVX2
void fovea_f32_dwconv_3x3s1__avx2(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                  size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    const int64_t width = (int64_t)p->input_width, out_width = (int64_t)p->output_width;
    const int64_t pl = (int64_t)p->pad_left, o_begin = (int64_t)oh_begin, o_end = (int64_t)oh_end;
    weights9 k;
    k.k00 = _mm256_set1_ps(w[0]), k.k01 = _mm256_set1_ps(w[1]), k.k02 = _mm256_set1_ps(w[2]);
    k.k10 = _mm256_set1_ps(w[3]), k.k11 = _mm256_set1_ps(w[4]), k.k12 = _mm256_set1_ps(w[5]);
    k.k20 = _mm256_set1_ps(w[6]), k.k21 = _mm256_set1_ps(w[7]), k.k22 = _mm256_set1_ps(w[8]);
    const __m256 vbias = _mm256_set1_ps(bias);
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */

    if (out_width < 8) { /* one partial vector */
        strip(p, x, y, 0, out_width, o_begin, o_end, &k, vbias, &epi, 1, 1);
        return;
    }
    /* Full 8-column vectors; the last one ends at the last column. */
    int64_t ow0 = 0;
    while (ow0 < out_width) {
        if (ow0 + 8 > out_width) ow0 = out_width - 8;
        const int64_t vectors = out_width - ow0 >= 16 ? 2 : 1;
        const int64_t c = ow0 - pl;
        const int inside = c >= 0 && c + 8 * vectors + 1 < width;
        if (vectors == 2 && inside) strip(p, x, y, ow0, 8, o_begin, o_end, &k, vbias, &epi, 2, 0);
        else if (vectors == 2) strip(p, x, y, ow0, 8, o_begin, o_end, &k, vbias, &epi, 2, 1);
        else if (inside) strip(p, x, y, ow0, 8, o_begin, o_end, &k, vbias, &epi, 1, 0);
        else strip(p, x, y, ow0, 8, o_begin, o_end, &k, vbias, &epi, 1, 1);
        ow0 += 8 * vectors;
    }
}

#endif
