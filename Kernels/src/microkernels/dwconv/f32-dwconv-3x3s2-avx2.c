/*
 * Depthwise 3×3 stride-2 convolution of one plane with AVX2 + FMA: the
 * AVX-512 scheme with 8-column strips. Four loads per input row (columns
 * 0..7, 8..15, 1..8, 9..16 of the strip) and three in-lane shuffles give the
 * taps of columns 0, 1, 2 for outputs in the lane order 0,1,4,5 | 2,3,6,7; one
 * 64-bit permute restores the order before the store. Inner strips use plain
 * loads, border strips masked ones; stores are plain (a ragged last strip is
 * moved back to end at the last column; planes narrower than 8 store in
 * pieces), since vmaskmovps stores are slow on AMD processors.
 */
#include "load-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

typedef struct weights9 {
    __m256 k00, k01, k02, k10, k11, k12, k20, k21, k22;
} weights9;

typedef struct taps3 {
    __m256 t0, t1, t2;
} taps3;

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 __m256 load(const float *src, int masked, __m256i mask) {
    return masked ? _mm256_maskload_ps(src, mask) : _mm256_loadu_ps(src);
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 taps3 load_taps(const float *row, int masked,
                                                                              const __m256i masks[4]) {
    const __m256 a = load(row, masked, masks[0]);
    const __m256 b = load(row + 8, masked, masks[1]);
    const __m256 a1 = load(row + 1, masked, masks[2]);
    const __m256 b1 = load(row + 9, masked, masks[3]);
    taps3 t;
    t.t0 = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    t.t1 = _mm256_shuffle_ps(a1, b1, _MM_SHUFFLE(2, 0, 2, 0));
    t.t2 = _mm256_shuffle_ps(a1, b1, _MM_SHUFFLE(3, 1, 3, 1));
    return t;
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 __m256 add_taps(__m256 acc, taps3 t, __m256 k0,
                                                                              __m256 k1, __m256 k2) {
    acc = _mm256_fmadd_ps(t.t0, k0, acc);
    acc = _mm256_fmadd_ps(t.t1, k1, acc);
    return _mm256_fmadd_ps(t.t2, k2, acc);
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 void store(float *dst, __m256 v,
                                                                           const fovea_epilogue *epi, int64_t count) {
    v = fovea_epilogue_avx2(v, epi);
    v = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(v), _MM_SHUFFLE(3, 1, 2, 0)));
    fovea_dw_store_avx2(dst, v, count);
}

static inline __attribute__((always_inline)) FOVEA_TARGET_AVX2 void
strip(const float *x, int64_t height, int64_t width, int64_t c, int64_t pt, float *y_strip, int64_t out_width,
      int64_t o_begin, int64_t o_end, const weights9 *k, __m256 vbias, const fovea_epilogue *epi, int masked,
      const __m256i masks[4], int64_t count) {
    if (o_end <= o_begin) return;
    __m256 previous = _mm256_setzero_ps();
    for (int64_t o = o_begin; o < o_end; o++) {
        const int64_t r = 2 * o - pt;
        __m256 acc = vbias;
        if (r >= 0 && r < height) {
            const taps3 t = load_taps(x + r * width + c, masked, masks);
            previous = add_taps(previous, t, k->k20, k->k21, k->k22);
            acc = add_taps(acc, t, k->k00, k->k01, k->k02);
        }
        if (o > o_begin) store(y_strip + (o - 1) * out_width, previous, epi, count);
        if (r + 1 >= 0 && r + 1 < height) {
            acc = add_taps(acc, load_taps(x + (r + 1) * width + c, masked, masks), k->k10, k->k11, k->k12);
        }
        previous = acc;
    }
    const int64_t r = 2 * o_end - pt;
    if (r >= 0 && r < height) {
        previous = add_taps(previous, load_taps(x + r * width + c, masked, masks), k->k20, k->k21, k->k22);
    }
    store(y_strip + (o_end - 1) * out_width, previous, epi, count);
}

FOVEA_TARGET_AVX2
void fovea_f32_dwconv_3x3s2__avx2(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                  size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width;
    const int64_t pt = (int64_t)p->pad_top, pl = (int64_t)p->pad_left;
    weights9 k;
    k.k00 = _mm256_set1_ps(w[0]), k.k01 = _mm256_set1_ps(w[1]), k.k02 = _mm256_set1_ps(w[2]);
    k.k10 = _mm256_set1_ps(w[3]), k.k11 = _mm256_set1_ps(w[4]), k.k12 = _mm256_set1_ps(w[5]);
    k.k20 = _mm256_set1_ps(w[6]), k.k21 = _mm256_set1_ps(w[7]), k.k22 = _mm256_set1_ps(w[8]);
    const __m256 vbias = _mm256_set1_ps(bias);
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    const __m256i none[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                             _mm256_setzero_si256()};

    for (int64_t ow0 = 0; ow0 < out_width; ow0 += 8) {
        if (ow0 + 8 > out_width && out_width >= 8) ow0 = out_width - 8; /* overlap instead of a ragged strip */
        const int64_t n = out_width - ow0 < 8 ? out_width - ow0 : 8;
        const int64_t c = 2 * ow0 - pl;
        float *y_strip = y + ow0;
        if (c >= 0 && c + 16 < width) {
            strip(x, height, width, c, pt, y_strip, out_width, (int64_t)oh_begin, (int64_t)oh_end, &k, vbias, &epi, 0,
                  none, n);
        } else {
            const __m256i masks[4] = {fovea_dw_row_mask_avx2(c, 1, width, 8), fovea_dw_row_mask_avx2(c + 8, 1, width, 8),
                                      fovea_dw_row_mask_avx2(c + 1, 1, width, 8),
                                      fovea_dw_row_mask_avx2(c + 9, 1, width, 8)};
            strip(x, height, width, c, pt, y_strip, out_width, (int64_t)oh_begin, (int64_t)oh_end, &k, vbias, &epi, 1,
                  masks, n);
        }
    }
}

#endif
