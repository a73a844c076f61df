/*
 * Max pooling of one plane with AVX2: 8 output columns at a time; border
 * columns use the scalar per-output code. Each lane folds its taps in the
 * scalar order with _mm256_max_ps(x, acc) (= x > acc ? x : acc, NaN x keeps
 * acc), so results match the scalar variant bit for bit.
 *
 * Column stride 2 (3×3 and 2×2 stride-2 pooling, the common CNN cases) reads
 * each window row with contiguous loads and in-lane shuffles (load-avx2.h),
 * the last columns with masked loads and stores, and when the windows of two
 * output rows overlap (3×3 stride 2) it loads each shared input row once for
 * both. Other strides load each tap and leave the last columns that do not
 * fill a vector to the scalar code.
 */
#include "load-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

/* Folds the taps of one window row (from fovea_load_s2_row_avx2) into acc, in tap order. */
static inline FOVEA_TARGET_AVX2 __attribute__((always_inline)) __m256
fold_taps(__m256 acc, fovea_s2_row_avx2 t, int64_t kernel_width) {
    acc = _mm256_max_ps(t.tap[0], acc); /* operand order matters: see pooling.h */
    if (kernel_width >= 2) acc = _mm256_max_ps(t.tap[1], acc);
    if (kernel_width >= 3) acc = _mm256_max_ps(t.tap[2], acc);
    return acc;
}

/*
 * Folds the kernel_width taps of one window row into acc for `lanes` stride-2
 * outputs (swizzled); `row` is the first output's window start in that row.
 */
static inline FOVEA_TARGET_AVX2 __attribute__((always_inline)) __m256
fold_row_s2(__m256 acc, const float *row, int64_t lanes, int64_t kernel_width, int64_t dilation) {
    if (dilation == 1 && kernel_width <= 3) return fold_taps(acc, fovea_load_s2_row_avx2(row, lanes, kernel_width), kernel_width);
    fovea_pair_avx2 pair = {_mm256_setzero_ps(), _mm256_setzero_ps()};
    int64_t loaded = -1;
    for (int64_t kw = 0; kw < kernel_width; kw++) {
        const int64_t off = kw * dilation, base = off & ~(int64_t)1;
        if (base != loaded) {
            pair = fovea_load_pair_avx2(row + base, fovea_s2_count(off, lanes, kernel_width, dilation));
            loaded = base;
        }
        acc = _mm256_max_ps(fovea_s2_lanes_avx2(pair, (int)(off & 1)), acc);
    }
    return acc;
}

/* Output row oh's columns whose windows hang over the left or right padding, tap by tap. */
static inline FOVEA_TARGET_AVX2 __attribute__((always_inline)) void
border_columns(const fovea_pool2d_params *p, const float *x, float *y_row, fovea_taps rows, int64_t ih0,
               int64_t begin, int64_t end) {
    for (int64_t ow = 0; ow < begin; ow++) y_row[ow] = fovea_maxpool2d_output(p, x, rows, ih0, ow);
    for (int64_t ow = end; ow < (int64_t)p->output_width; ow++) y_row[ow] = fovea_maxpool2d_output(p, x, rows, ih0, ow);
}

/* Stores the first `lanes` outputs of a swizzled vector. */
static inline FOVEA_TARGET_AVX2 __attribute__((always_inline)) void store_s2(float *y, __m256 v, int64_t lanes) {
    if (lanes == 8) _mm256_storeu_ps(y, fovea_s2_unswizzle_avx2(v));
    else _mm256_maskstore_ps(y, fovea_low_lanes_avx2(lanes), fovea_s2_unswizzle_avx2(v));
}

static inline FOVEA_TARGET_AVX2 __attribute__((always_inline)) void
maxpool_s2(const fovea_pool2d_params *p, const float *x, float *y, int64_t kernel_width, int64_t dw) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t out_height = (int64_t)p->output_height, out_width = (int64_t)p->output_width;
    const int64_t sh = (int64_t)p->stride_height, dh = (int64_t)p->dilation_height;
    const int64_t pad_left = (int64_t)p->pad_left;
    const fovea_column_range interior = fovea_interior_columns(p);
    const __m256 lowest = _mm256_set1_ps(-FLT_MAX);
    const int row_pairs = fovea_row_pairs(p) && dw == 1 && kernel_width <= 3;

    for (int64_t oh = 0; oh < out_height;) {
        const fovea_taps rows = fovea_row_taps(p, oh);
        const int64_t ih0 = oh * sh - (int64_t)p->pad_top;
        float *y_row = y + oh * out_width;
        border_columns(p, x, y_row, rows, ih0, interior.begin, interior.end);
        if (row_pairs && oh + 1 < out_height) {
            const fovea_taps next = fovea_row_taps(p, oh + 1);
            if (fovea_tap_count(rows) > 0 && fovea_tap_count(next) > 0) {
                /* Input rows [a0, a1) for oh, [b0, b1) for oh + 1, a0 <= b0 < a1 <= b1: each loaded once. */
                const int64_t a0 = ih0 + rows.first, a1 = ih0 + rows.end;
                const int64_t b0 = ih0 + sh + next.first, b1 = ih0 + sh + next.end;
                border_columns(p, x, y_row + out_width, next, ih0 + sh, interior.begin, interior.end);
                for (int64_t ow = interior.begin; ow < interior.end; ow += 8) {
                    const int64_t lanes = interior.end - ow < 8 ? interior.end - ow : 8;
                    __m256 max0 = lowest, max1 = lowest;
                    for (int64_t ih = a0; ih < b1; ih++) {
                        const fovea_s2_row_avx2 t =
                            lanes == 8 ? fovea_load_s2_row_avx2(x + ih * width + 2 * ow - pad_left, 8, kernel_width)
                                       : fovea_load_s2_row_avx2(x + ih * width + 2 * ow - pad_left, lanes, kernel_width);
                        if (ih < a1) max0 = fold_taps(max0, t, kernel_width);
                        if (ih >= b0) max1 = fold_taps(max1, t, kernel_width);
                    }
                    store_s2(y_row + ow, max0, lanes);
                    store_s2(y_row + out_width + ow, max1, lanes);
                }
                oh += 2;
                continue;
            }
        }
        for (int64_t ow = interior.begin; ow < interior.end; ow += 8) {
            const int64_t lanes = interior.end - ow < 8 ? interior.end - ow : 8;
            __m256 max = lowest;
            for (int64_t kh = rows.first; kh < rows.end; kh++) {
                const float *row = x + (ih0 + kh * dh) * width + 2 * ow - pad_left;
                max = lanes == 8 ? fold_row_s2(max, row, 8, kernel_width, dw) : fold_row_s2(max, row, lanes, kernel_width, dw);
            }
            store_s2(y_row + ow, max, lanes);
        }
        oh++;
    }
}

/* Any column stride: one strided load per tap; the columns that do not fill a vector tap by tap. */
static inline FOVEA_TARGET_AVX2 void maxpool_any_stride(const fovea_pool2d_params *p, const float *x, float *y) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t out_height = (int64_t)p->output_height, out_width = (int64_t)p->output_width;
    const int64_t kernel_width = (int64_t)p->kernel_width;
    const int64_t sh = (int64_t)p->stride_height, sw = (int64_t)p->stride_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_column_range interior = fovea_interior_columns(p);
    const int64_t vector_end = interior.begin + (interior.end - interior.begin) / 8 * 8;
    const __m256i gather_index = fovea_stride_index_avx2(sw);
    const __m256 lowest = _mm256_set1_ps(-FLT_MAX);

    for (int64_t oh = 0; oh < out_height; oh++) {
        const fovea_taps rows = fovea_row_taps(p, oh);
        const int64_t ih0 = oh * sh - (int64_t)p->pad_top;
        float *y_row = y + oh * out_width;
        border_columns(p, x, y_row, rows, ih0, interior.begin, vector_end);
        for (int64_t ow = interior.begin; ow < vector_end; ow += 8) {
            __m256 max = lowest;
            for (int64_t kh = rows.first; kh < rows.end; kh++) {
                const float *window_row = x + (ih0 + kh * dh) * width + ow * sw - (int64_t)p->pad_left;
                for (int64_t kw = 0; kw < kernel_width; kw++) {
                    const __m256 v = fovea_load_strided_avx2(window_row + kw * dw, sw, gather_index);
                    max = _mm256_max_ps(v, max); /* operand order matters: see pooling.h */
                }
            }
            _mm256_storeu_ps(y_row + ow, max);
        }
    }
}

FOVEA_TARGET_AVX2
void fovea_f32_maxpool2d__avx2(const fovea_pool2d_params *p, const float *x, float *y) {
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
