/*
 * Average pooling of one plane with AVX-512: 16 output columns at a time (the
 * last group masked); border columns use the scalar per-output code. Each
 * lane adds its taps in the scalar order and divides by the same count, so
 * results match the scalar variant bit for bit.
 *
 * Column stride 2 reads each window row with contiguous loads and permutes
 * (load-avx512.h) instead of one strided load per tap, and when the windows
 * of two output rows overlap (3×3 stride 2) it loads each shared input row
 * once for both. Other strides load each tap.
 */
#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

/* Adds the taps of one window row (from fovea_load_s2_row_avx512) to sum, in tap order. */
static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) __m512
add_taps(__m512 sum, fovea_s2_row_avx512 t, int64_t kernel_width) {
    sum = _mm512_add_ps(sum, t.tap[0]);
    if (kernel_width >= 2) sum = _mm512_add_ps(sum, t.tap[1]);
    if (kernel_width >= 3) sum = _mm512_add_ps(sum, t.tap[2]);
    return sum;
}

/*
 * Adds the kernel_width taps of one window row to sum for `lanes` stride-2
 * outputs; `row` is the first output's window start in that row.
 */
static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) __m512
add_row_s2(__m512 sum, const float *row, int64_t lanes, int64_t kernel_width, int64_t dilation) {
    if (dilation == 1 && kernel_width <= 3) return add_taps(sum, fovea_load_s2_row_avx512(row, lanes, kernel_width), kernel_width);
    fovea_pair_avx512 pair = {_mm512_setzero_ps(), _mm512_setzero_ps()};
    int64_t loaded = -1;
    for (int64_t kw = 0; kw < kernel_width; kw++) {
        const int64_t off = kw * dilation, base = off & ~(int64_t)1;
        if (base != loaded) {
            pair = fovea_load_pair_avx512(row + base, fovea_s2_count(off, lanes, kernel_width, dilation));
            loaded = base;
        }
        sum = _mm512_add_ps(sum, fovea_s2_lanes_avx512(pair, (int)(off & 1)));
    }
    return sum;
}

/* Output row oh's columns whose windows hang over the left or right padding, tap by tap. */
static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) void
border_columns(const fovea_pool2d_params *p, const float *x, float *y_row, fovea_taps rows, int64_t ih0,
               fovea_column_range interior) {
    for (int64_t ow = 0; ow < interior.begin; ow++) y_row[ow] = fovea_avgpool2d_output(p, x, rows, ih0, ow);
    for (int64_t ow = interior.end; ow < (int64_t)p->output_width; ow++) {
        y_row[ow] = fovea_avgpool2d_output(p, x, rows, ih0, ow);
    }
}

static inline FOVEA_TARGET_AVX512 __attribute__((always_inline)) void
avgpool_s2(const fovea_pool2d_params *p, const float *x, float *y, int64_t kernel_width, int64_t dw) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t out_height = (int64_t)p->output_height, out_width = (int64_t)p->output_width;
    const int64_t sh = (int64_t)p->stride_height, dh = (int64_t)p->dilation_height;
    const int64_t pad_left = (int64_t)p->pad_left;
    const fovea_column_range interior = fovea_interior_columns(p);
    /* Interior columns have every column tap inside the input. */
    const fovea_taps all_columns = {0, (int64_t)p->kernel_width, (int64_t)p->kernel_width};
    const int row_pairs = fovea_row_pairs(p) && dw == 1 && kernel_width <= 3;

    for (int64_t oh = 0; oh < out_height;) {
        const fovea_taps rows = fovea_row_taps(p, oh);
        const int64_t ih0 = oh * sh - (int64_t)p->pad_top;
        const __m512 divisor = _mm512_set1_ps(fovea_avgpool2d_divisor(p, rows, all_columns));
        float *y_row = y + oh * out_width;
        border_columns(p, x, y_row, rows, ih0, interior);
        if (row_pairs && oh + 1 < out_height) {
            const fovea_taps next = fovea_row_taps(p, oh + 1);
            if (fovea_tap_count(rows) > 0 && fovea_tap_count(next) > 0) {
                /* Input rows [a0, a1) for oh, [b0, b1) for oh + 1, a0 <= b0 < a1 <= b1: each loaded once. */
                const int64_t a0 = ih0 + rows.first, a1 = ih0 + rows.end;
                const int64_t b0 = ih0 + sh + next.first, b1 = ih0 + sh + next.end;
                const __m512 next_divisor = _mm512_set1_ps(fovea_avgpool2d_divisor(p, next, all_columns));
                border_columns(p, x, y_row + out_width, next, ih0 + sh, interior);
                for (int64_t ow = interior.begin; ow < interior.end; ow += 16) {
                    const int64_t lanes = interior.end - ow < 16 ? interior.end - ow : 16;
                    __m512 sum0 = _mm512_setzero_ps(), sum1 = _mm512_setzero_ps();
                    for (int64_t ih = a0; ih < b1; ih++) {
                        const fovea_s2_row_avx512 t =
                            lanes == 16 ? fovea_load_s2_row_avx512(x + ih * width + 2 * ow - pad_left, 16, kernel_width)
                                        : fovea_load_s2_row_avx512(x + ih * width + 2 * ow - pad_left, lanes, kernel_width);
                        if (ih < a1) sum0 = add_taps(sum0, t, kernel_width);
                        if (ih >= b0) sum1 = add_taps(sum1, t, kernel_width);
                    }
                    const __mmask16 store = fovea_low_lanes_avx512(lanes);
                    _mm512_mask_storeu_ps(y_row + ow, store, _mm512_div_ps(sum0, divisor));
                    _mm512_mask_storeu_ps(y_row + out_width + ow, store, _mm512_div_ps(sum1, next_divisor));
                }
                oh += 2;
                continue;
            }
        }
        for (int64_t ow = interior.begin; ow < interior.end; ow += 16) {
            const int64_t lanes = interior.end - ow < 16 ? interior.end - ow : 16;
            __m512 sum = _mm512_setzero_ps();
            for (int64_t kh = rows.first; kh < rows.end; kh++) {
                const float *row = x + (ih0 + kh * dh) * width + 2 * ow - pad_left;
                sum = lanes == 16 ? add_row_s2(sum, row, 16, kernel_width, dw)
                                  : add_row_s2(sum, row, lanes, kernel_width, dw);
            }
            _mm512_mask_storeu_ps(y_row + ow, fovea_low_lanes_avx512(lanes), _mm512_div_ps(sum, divisor));
        }
        oh++;
    }
}

/* Any column stride: one strided load per tap. */
static inline FOVEA_TARGET_AVX512 void avgpool_any_stride(const fovea_pool2d_params *p, const float *x, float *y) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t out_height = (int64_t)p->output_height, out_width = (int64_t)p->output_width;
    const int64_t kernel_width = (int64_t)p->kernel_width;
    const int64_t sh = (int64_t)p->stride_height, sw = (int64_t)p->stride_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_column_range interior = fovea_interior_columns(p);
    const __m512i gather_index = fovea_stride_index_avx512(sw);
    /* Interior columns have every column tap inside the input. */
    const fovea_taps all_columns = {0, kernel_width, kernel_width};

    for (int64_t oh = 0; oh < out_height; oh++) {
        const fovea_taps rows = fovea_row_taps(p, oh);
        const int64_t ih0 = oh * sh - (int64_t)p->pad_top;
        const __m512 divisor = _mm512_set1_ps(fovea_avgpool2d_divisor(p, rows, all_columns));
        float *y_row = y + oh * out_width;
        border_columns(p, x, y_row, rows, ih0, interior);
        for (int64_t ow = interior.begin; ow < interior.end; ow += 16) {
            const int64_t lanes = interior.end - ow < 16 ? interior.end - ow : 16;
            __m512 sum = _mm512_setzero_ps();
            for (int64_t kh = rows.first; kh < rows.end; kh++) {
                const float *window_row = x + (ih0 + kh * dh) * width + ow * sw - (int64_t)p->pad_left;
                for (int64_t kw = 0; kw < kernel_width; kw++) {
                    sum = _mm512_add_ps(sum, fovea_load_strided_avx512(window_row + kw * dw, sw, gather_index, lanes));
                }
            }
            _mm512_mask_storeu_ps(y_row + ow, fovea_low_lanes_avx512(lanes), _mm512_div_ps(sum, divisor));
        }
    }
}

FOVEA_TARGET_AVX512
void fovea_f32_avgpool2d__avx512(const fovea_pool2d_params *p, const float *x, float *y) {
    if (p->stride_width == 2) {
        /* Constant window widths, so the common ones compile to straight-line code. */
        if (p->dilation_width == 1 && p->kernel_width == 3) return avgpool_s2(p, x, y, 3, 1);
        if (p->dilation_width == 1 && p->kernel_width == 2) return avgpool_s2(p, x, y, 2, 1);
        if (p->dilation_width == 1 && p->kernel_width == 1) return avgpool_s2(p, x, y, 1, 1);
        return avgpool_s2(p, x, y, (int64_t)p->kernel_width, (int64_t)p->dilation_width);
    }
    avgpool_any_stride(p, x, y);
}

#endif
