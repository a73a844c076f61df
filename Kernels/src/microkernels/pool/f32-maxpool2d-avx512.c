/*
 * Max pooling of one plane with AVX-512: 16 output columns at a time (the last
 * group masked); border columns, whose windows hang over the padding, use the
 * scalar per-output code. Each lane folds its taps in the scalar order with
 * _mm512_max_ps(x, acc) (= x > acc ? x : acc, NaN x keeps acc), so results
 * match the scalar variant bit for bit.
 *
 * Column stride 2 (3×3 and 2×2 stride-2 pooling, the common CNN cases) reads
 * each window row with contiguous loads and permutes (load-avx512.h) instead
 * of one strided load per tap, and when the windows of two output rows
 * overlap (3×3 stride 2) it loads each shared input row once for both; full
 * 3×3 windows take each input row's 3-wide maxima once, as independent
 * chains (window_3x3s2_row_pair). Other strides load each tap.
 */
#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

/* Folds the taps of one window row (from fovea_load_s2_row_avx512) into acc, in tap order. */
static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) __m512
fold_taps(__m512 acc, fovea_s2_row_avx512 t, int64_t kernel_width) {
    acc = _mm512_max_ps(t.tap[0], acc); /* operand order matters: see pooling.h */
    if (kernel_width >= 2) acc = _mm512_max_ps(t.tap[1], acc);
    if (kernel_width >= 3) acc = _mm512_max_ps(t.tap[2], acc);
    return acc;
}

/*
 * Folds the kernel_width taps of one window row into acc for `lanes` stride-2
 * outputs; `row` is the first output's window start in that row.
 */
static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) __m512
fold_row_s2(__m512 acc, const float *row, int64_t lanes, int64_t kernel_width, int64_t dilation) {
    if (dilation == 1 && kernel_width <= 3) return fold_taps(acc, fovea_load_s2_row_avx512(row, lanes, kernel_width), kernel_width);
    fovea_pair_avx512 pair = {_mm512_setzero_ps(), _mm512_setzero_ps()};
    int64_t loaded = -1;
    for (int64_t kw = 0; kw < kernel_width; kw++) {
        const int64_t off = kw * dilation, base = off & ~(int64_t)1;
        if (base != loaded) {
            pair = fovea_load_pair_avx512(row + base, fovea_s2_count(off, lanes, kernel_width, dilation));
            loaded = base;
        }
        acc = _mm512_max_ps(fovea_s2_lanes_avx512(pair, (int)(off & 1)), acc);
    }
    return acc;
}

/* Output row oh's columns whose windows hang over the left or right padding, tap by tap. */
static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) void
border_columns(const fovea_pool2d_params *p, const float *x, float *y_row, fovea_taps rows, int64_t ih0,
               fovea_column_range interior) {
    for (int64_t ow = 0; ow < interior.begin; ow++) y_row[ow] = fovea_maxpool2d_output(p, x, rows, ih0, ow);
    for (int64_t ow = interior.end; ow < (int64_t)p->output_width; ow++) {
        y_row[ow] = fovea_maxpool2d_output(p, x, rows, ih0, ow);
    }
}

/* The window-row maximum of `lanes` 3-wide stride-2 windows from `row`: its taps folded into -FLT_MAX in order. */
static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) __m512 row_max_3s2(const float *row, int64_t lanes) {
    return fold_taps(_mm512_set1_ps(-FLT_MAX), fovea_load_s2_row_avx512(row, lanes, 3), 3);
}

/*
 * Two output rows of full 3×3 stride-2 windows (input rows 0-2 and 2-4 from
 * `rows`, already offset by the left padding): each input row's 3-wide maxima
 * once, row 2's for both outputs, then the rows' maxima in order. Of equal
 * values the first in tap order still wins (a row's maximum is its first
 * largest tap, a later row replaces it only if larger), and NaN never does:
 * the scalar variant's bits. The five rows are independent, unlike one chain
 * of 18 dependent maxima through the taps.
 */
static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) void
window_3x3s2_row_pair(const float *rows, int64_t width, float *y_row, int64_t out_width, fovea_column_range interior) {
    for (int64_t ow = interior.begin; ow < interior.end; ow += 16) {
        const int64_t lanes = interior.end - ow < 16 ? interior.end - ow : 16;
        const float *r = rows + 2 * ow;
        __m512 h0, h1, h2, h3, h4;
        if (lanes == 16) {
            h0 = row_max_3s2(r, 16), h1 = row_max_3s2(r + width, 16), h2 = row_max_3s2(r + 2 * width, 16);
            h3 = row_max_3s2(r + 3 * width, 16), h4 = row_max_3s2(r + 4 * width, 16);
        } else {
            h0 = row_max_3s2(r, lanes), h1 = row_max_3s2(r + width, lanes), h2 = row_max_3s2(r + 2 * width, lanes);
            h3 = row_max_3s2(r + 3 * width, lanes), h4 = row_max_3s2(r + 4 * width, lanes);
        }
        const __mmask16 store = fovea_low_lanes_avx512(lanes);
        _mm512_mask_storeu_ps(y_row + ow, store, _mm512_max_ps(h2, _mm512_max_ps(h1, h0)));
        _mm512_mask_storeu_ps(y_row + out_width + ow, store, _mm512_max_ps(h4, _mm512_max_ps(h3, h2)));
    }
}

static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) void
maxpool_s2(const fovea_pool2d_params *p, const float *x, float *y, int64_t kernel_width, int64_t dw) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t out_height = (int64_t)p->output_height, out_width = (int64_t)p->output_width;
    const int64_t sh = (int64_t)p->stride_height, dh = (int64_t)p->dilation_height;
    const int64_t pad_left = (int64_t)p->pad_left;
    const fovea_column_range interior = fovea_interior_columns(p);
    const __m512 lowest = _mm512_set1_ps(-FLT_MAX);
    const int row_pairs = fovea_row_pairs(p) && dw == 1 && kernel_width <= 3;

    for (int64_t oh = 0; oh < out_height;) {
        const fovea_taps rows = fovea_row_taps(p, oh);
        const int64_t ih0 = oh * sh - (int64_t)p->pad_top;
        float *y_row = y + oh * out_width;
        border_columns(p, x, y_row, rows, ih0, interior);
        if (row_pairs && oh + 1 < out_height) {
            const fovea_taps next = fovea_row_taps(p, oh + 1);
            if (fovea_tap_count(rows) > 0 && fovea_tap_count(next) > 0) {
                /* Input rows [a0, a1) for oh, [b0, b1) for oh + 1, a0 <= b0 < a1 <= b1: each loaded once. */
                const int64_t a0 = ih0 + rows.first, a1 = ih0 + rows.end;
                const int64_t b0 = ih0 + sh + next.first, b1 = ih0 + sh + next.end;
                border_columns(p, x, y_row + out_width, next, ih0 + sh, interior);
                if (kernel_width == 3 && a1 - a0 == 3 && b0 == a0 + 2 && b1 - b0 == 3) {
                    window_3x3s2_row_pair(x + a0 * width - pad_left, width, y_row, out_width, interior);
                    oh += 2;
                    continue;
                }
                for (int64_t ow = interior.begin; ow < interior.end; ow += 16) {
                    const int64_t lanes = interior.end - ow < 16 ? interior.end - ow : 16;
                    __m512 max0 = lowest, max1 = lowest;
                    for (int64_t ih = a0; ih < b1; ih++) {
                        const fovea_s2_row_avx512 t =
                            lanes == 16 ? fovea_load_s2_row_avx512(x + ih * width + 2 * ow - pad_left, 16, kernel_width)
                                        : fovea_load_s2_row_avx512(x + ih * width + 2 * ow - pad_left, lanes, kernel_width);
                        if (ih < a1) max0 = fold_taps(max0, t, kernel_width);
                        if (ih >= b0) max1 = fold_taps(max1, t, kernel_width);
                    }
                    const __mmask16 store = fovea_low_lanes_avx512(lanes);
                    _mm512_mask_storeu_ps(y_row + ow, store, max0);
                    _mm512_mask_storeu_ps(y_row + out_width + ow, store, max1);
                }
                oh += 2;
                continue;
            }
        }
        for (int64_t ow = interior.begin; ow < interior.end; ow += 16) {
            const int64_t lanes = interior.end - ow < 16 ? interior.end - ow : 16;
            __m512 max = lowest;
            for (int64_t kh = rows.first; kh < rows.end; kh++) {
                const float *row = x + (ih0 + kh * dh) * width + 2 * ow - pad_left;
                max = lanes == 16 ? fold_row_s2(max, row, 16, kernel_width, dw)
                                  : fold_row_s2(max, row, lanes, kernel_width, dw);
            }
            _mm512_mask_storeu_ps(y_row + ow, fovea_low_lanes_avx512(lanes), max);
        }
        oh++;
    }
}

/* Any column stride: one strided load per tap. */
static inline FOVEA_TARGET_AVX512 void maxpool_any_stride(const fovea_pool2d_params *p, const float *x, float *y) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t out_height = (int64_t)p->output_height, out_width = (int64_t)p->output_width;
    const int64_t kernel_width = (int64_t)p->kernel_width;
    const int64_t sh = (int64_t)p->stride_height, sw = (int64_t)p->stride_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_column_range interior = fovea_interior_columns(p);
    const __m512i gather_index = fovea_stride_index_avx512(sw);
    const __m512 lowest = _mm512_set1_ps(-FLT_MAX);

    for (int64_t oh = 0; oh < out_height; oh++) {
        const fovea_taps rows = fovea_row_taps(p, oh);
        const int64_t ih0 = oh * sh - (int64_t)p->pad_top;
        float *y_row = y + oh * out_width;
        border_columns(p, x, y_row, rows, ih0, interior);
        for (int64_t ow = interior.begin; ow < interior.end; ow += 16) {
            const int64_t lanes = interior.end - ow < 16 ? interior.end - ow : 16;
            __m512 max = lowest;
            for (int64_t kh = rows.first; kh < rows.end; kh++) {
                const float *window_row = x + (ih0 + kh * dh) * width + ow * sw - (int64_t)p->pad_left;
                for (int64_t kw = 0; kw < kernel_width; kw++) {
                    const __m512 v = fovea_load_strided_avx512(window_row + kw * dw, sw, gather_index, lanes);
                    max = _mm512_max_ps(v, max); /* operand order matters: see pooling.h */
                }
            }
            _mm512_mask_storeu_ps(y_row + ow, fovea_low_lanes_avx512(lanes), max);
        }
    }
}

FOVEA_TARGET_AVX512
void fovea_f32_maxpool2d__avx512(const fovea_pool2d_params *p, const float *x, float *y) {
    if (p->stride_width == 2) {
        /* Constant window widths, so the common ones compile to straight-line code. */
        if (p->dilation_width == 1 && p->kernel_width == 3) return maxpool_s2(p, x, y, 3, 1);
        if (p->dilation_width == 1 && p->kernel_width == 2) return maxpool_s2(p, x, y, 2, 1);
        if (p->dilation_width == 1 && p->kernel_width == 1) return maxpool_s2(p, x, y, 1, 1);
        return maxpool_s2(p, x, y, (int64_t)p->kernel_width, (int64_t)p->dilation_width);
    }
    maxpool_any_stride(p, x, y);
}

#endif
