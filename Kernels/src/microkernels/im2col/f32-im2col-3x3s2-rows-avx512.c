/*
 * im2col column panels of a 3×3 stride-2 convolution without left padding
 * (SqueezeNet's conv1: 3 -> 64 on 224×224), a whole output row at a time:
 * one pass over an input row gives its three kw taps for every output of the
 * row, and 16-column pieces that cross a panel boundary are split by two
 * masked stores. The general packer gathered each tap of each ≤nr-column
 * segment on its own (≈13,500 calls of ≤32 floats on SqueezeNet's conv1).
 */
#include "im2col.h"

#include <string.h>

int fovea_im2col_3x3s2_rows_applies(const fovea_conv2d_params *p, size_t nr) {
    return nr >= 16 && fovea_conv_is_3x3_stride2(p) && p->pad_left == 0;
}

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

/* Where the packed rows of one reduction index start, column 0 of panel 0. */
typedef struct panel_rows {
    float *base;         /* panel 0, reduction index k */
    size_t panel_floats; /* K × nr: from one panel to the next */
    size_t nr;
} panel_rows;

/* Stores `left` (≤ 16) lanes of v at packed column j, across a panel boundary if needed. */
FOVEA_TARGET_AVX512 static inline void store_columns(const panel_rows *r, size_t j, size_t left, __m512 v) {
    const size_t offset = j % r->nr;
    float *dst = r->base + (j / r->nr) * r->panel_floats + offset;
    const size_t room = r->nr - offset;
    const __mmask16 all = (__mmask16)((1u << left) - 1u);
    if (left <= room) {
        _mm512_mask_storeu_ps(dst, all, v);
        return;
    }
    const __mmask16 here = (__mmask16)((1u << room) - 1u);
    _mm512_mask_storeu_ps(dst, here, v);
    /* Lanes room ... left−1 go to columns 0 ... of the next panel; masked-off lanes are never written. */
    _mm512_mask_storeu_ps(dst + r->panel_floats - r->nr, (__mmask16)(all & ~here), v);
}

static inline __mmask16 first_lanes(size_t n) {
    return n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << n) - 1u);
}

/*
 * The three taps of `count` outputs from output column ow0 of one input row
 * (`width` values; zero past them): tap kw of output q is row[2(ow0 + q) + kw],
 * stored at packed column j + q of rows[kw].
 */
FOVEA_TARGET_AVX512 static void row_taps(const panel_rows rows[3], size_t j, const float *row, size_t width, size_t ow0,
                                         size_t count) {
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    for (size_t q = 0; q < count; q += 16) {
        const size_t left = count - q < 16 ? count - q : 16;
        const size_t base = 2 * (ow0 + q);
        /* Elements base ... base + 2·left are used; none at or past width is read. */
        size_t have = width > base ? width - base : 0;
        if (have > 2 * left + 1) have = 2 * left + 1;
        const __m512 low = _mm512_maskz_loadu_ps(first_lanes(have), have > 0 ? row + base : row);
        const __m512 high = _mm512_maskz_loadu_ps(first_lanes(have > 16 ? have - 16 : 0), have > 16 ? row + base + 16 : row);
        const float next = have > 32 ? row[base + 32] : 0.0f;
        const __m512 tap0 = _mm512_permutex2var_ps(low, even, high);
        const __m512 tap1 = _mm512_permutex2var_ps(low, odd, high);
        /* tap 2 is tap 0 one output on: lanes 1 ... 15 of tap 0, then row[base + 32]. */
        const __m512 tap2 = _mm512_castsi512_ps(
            _mm512_alignr_epi32(_mm512_castps_si512(_mm512_set1_ps(next)), _mm512_castps_si512(tap0), 1));
        store_columns(&rows[0], j + q, left, tap0);
        store_columns(&rows[1], j + q, left, tap1);
        store_columns(&rows[2], j + q, left, tap2);
    }
}

FOVEA_TARGET_AVX512 void fovea_f32_im2col_3x3s2_rows__avx512(const fovea_conv2d_params *p, const float *x,
                                                              size_t image_stride, size_t n0, size_t nc, size_t nr,
                                                              float *packed) {
    const size_t group_channels = p->channels / p->groups;
    const size_t width = p->input_width, plane_size = p->input_height * width;
    const size_t k_total = group_channels * 9, panel_floats = k_total * nr;
    const size_t image_columns = p->output_height * p->output_width;
    if (nc % nr != 0) {
        float *last = packed + (nc / nr) * panel_floats;
        for (size_t k = 0; k < k_total; k++) memset(last + k * nr + nc % nr, 0, (nr - nc % nr) * sizeof(float));
    }
    const __m512 zero = _mm512_setzero_ps();
    size_t j = 0;
    while (j < nc) {
        /* The rest of one output row. */
        const size_t pixel = (n0 + j) % image_columns, image = (n0 + j) / image_columns;
        const size_t oh = pixel / p->output_width, ow0 = pixel % p->output_width;
        size_t count = p->output_width - ow0;
        if (count > nc - j) count = nc - j;
        for (size_t c = 0; c < group_channels; c++) {
            for (size_t kh = 0; kh < 3; kh++) {
                panel_rows rows[3];
                for (size_t kw = 0; kw < 3; kw++)
                    rows[kw] = (panel_rows){packed + (c * 9 + kh * 3 + kw) * nr, panel_floats, nr};
                const int64_t ih = (int64_t)(oh * 2 + kh) - (int64_t)p->pad_top;
                if (ih < 0 || ih >= (int64_t)p->input_height) {
                    for (size_t q = 0; q < count; q += 16)
                        for (size_t kw = 0; kw < 3; kw++) store_columns(&rows[kw], j + q, count - q < 16 ? count - q : 16, zero);
                    continue;
                }
                const float *row = x + image * image_stride + c * plane_size + (size_t)ih * width;
                row_taps(rows, j, row, width, ow0, count);
            }
        }
        j += count;
    }
}
#endif
