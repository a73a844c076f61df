/*
 * Depthwise 3×3 stride-2 convolution of one plane with AVX-512.
 *
 * 16 output columns read 33 input columns per row: four masked loads (at the
 * first column and one past it, 16 apart) and three in-lane shuffles give the
 * taps of columns 0, 1 and 2 in a lane order that is the same for all three
 * (outputs 0,1,8,9 | 2,3,10,11 | ...); one permute restores the order before
 * the store. Going down the plane, even input rows are tap row 2 of the
 * previous output row and tap row 0 of the current one, odd rows tap row 1:
 * every input row is loaded once. Strips of two vectors (32 columns) give the
 * FMA pipes independent chains.
 */
#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

typedef struct weights9 {
    __m512 k00, k01, k02, k10, k11, k12, k20, k21, k22;
} weights9;

/* The taps of columns 0, 1, 2 of 16 outputs in one input row (zero where padding), in shuffled lane order. */
typedef struct taps3 {
    __m512 t0, t1, t2;
} taps3;

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 taps3 load_taps(const float *row,
                                                                                const __mmask16 masks[4]) {
    const __m512 a = _mm512_maskz_loadu_ps(masks[0], row);        /* columns 0..15 */
    const __m512 b = _mm512_maskz_loadu_ps(masks[1], row + 16);   /* 16..31 */
    const __m512 a1 = _mm512_maskz_loadu_ps(masks[2], row + 1);   /* 1..16 */
    const __m512 b1 = _mm512_maskz_loadu_ps(masks[3], row + 17);  /* 17..32 */
    taps3 t;
    t.t0 = _mm512_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));   /* even columns */
    t.t1 = _mm512_shuffle_ps(a1, b1, _MM_SHUFFLE(2, 0, 2, 0)); /* odd columns */
    t.t2 = _mm512_shuffle_ps(a1, b1, _MM_SHUFFLE(3, 1, 3, 1)); /* even columns + 2 */
    return t;
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 __m512 add_taps(__m512 acc, taps3 t, __m512 k0,
                                                                                __m512 k1, __m512 k2) {
    acc = _mm512_fmadd_ps(t.t0, k0, acc);
    acc = _mm512_fmadd_ps(t.t1, k1, acc);
    return _mm512_fmadd_ps(t.t2, k2, acc);
}

/* `vectors` (1 or 2) vectors of 16 outputs from output column ow0 over output rows [o_begin, o_end). */
static inline __attribute__((always_inline)) FOVEA_TARGET_AVX512 void
strip(const fovea_conv2d_params *p, const float *x, float *y, int64_t ow0, int64_t o_begin, int64_t o_end,
      const weights9 *k, __m512 vbias, const fovea_epilogue *epi, int vectors) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width, pt = (int64_t)p->pad_top;
    /* Lane of the shuffled sums that holds output i. */
    const __m512i order = _mm512_setr_epi32(0, 1, 4, 5, 8, 9, 12, 13, 2, 3, 6, 7, 10, 11, 14, 15);
    __mmask16 masks[2][4], store_mask[2];
#pragma GCC unroll 2
    for (int v = 0; v < vectors; v++) {
        const int64_t first = ow0 + 16 * v, n = out_width - first < 16 ? out_width - first : 16;
        const int64_t c = 2 * first - (int64_t)p->pad_left;
        masks[v][0] = fovea_dw_row_mask_avx512(c, 1, width, 16);
        masks[v][1] = fovea_dw_row_mask_avx512(c + 16, 1, width, 16);
        masks[v][2] = fovea_dw_row_mask_avx512(c + 1, 1, width, 16);
        masks[v][3] = fovea_dw_row_mask_avx512(c + 17, 1, width, 16);
        store_mask[v] = fovea_dw_mask_avx512((fovea_dw_lanes){0, n});
    }
    const float *x_strip = x + 2 * ow0 - (int64_t)p->pad_left;
    float *y_strip = y + ow0;
    __m512 previous[2] = {_mm512_setzero_ps(), _mm512_setzero_ps()}; /* output row o-1, waiting for tap row 2 */
    for (int64_t o = o_begin; o <= o_end; o++) {
        const int64_t r = 2 * o - pt;
        __m512 acc[2] = {vbias, vbias};
        if (r >= 0 && r < height) {
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                const taps3 t = load_taps(x_strip + r * width + 32 * v, masks[v]);
                previous[v] = add_taps(previous[v], t, k->k20, k->k21, k->k22);
                acc[v] = add_taps(acc[v], t, k->k00, k->k01, k->k02);
            }
        }
        if (o > o_begin) {
            float *dst = y_strip + (o - 1) * out_width;
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                const __m512 out = _mm512_permutexvar_ps(order, fovea_epilogue_avx512(previous[v], epi));
                _mm512_mask_storeu_ps(dst + 16 * v, store_mask[v], out);
            }
        }
        if (o == o_end) break;
        if (r + 1 >= 0 && r + 1 < height) {
#pragma GCC unroll 2
            for (int v = 0; v < vectors; v++) {
                acc[v] = add_taps(acc[v], load_taps(x_strip + (r + 1) * width + 32 * v, masks[v]), k->k10, k->k11,
                                  k->k12);
            }
        }
#pragma GCC unroll 2
        for (int v = 0; v < vectors; v++) previous[v] = acc[v];
    }
}

FOVEA_TARGET_AVX512
void fovea_f32_dwconv_3x3s2__avx512(const fovea_conv2d_params *p, const float *x, const float *w, float bias,
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
