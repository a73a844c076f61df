/*
 * Max pooling of one plane with AVX-512: 16 output columns at a time (the last
 * group masked); border columns, whose windows hang over the padding, use the
 * scalar per-output code. Each lane folds its taps in the scalar order with
 * _mm512_max_ps(x, acc) (= x > acc ? x : acc, NaN x keeps acc), so results
 * match the scalar variant bit for bit.
 */
#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX512
void fovea_maxpool2d_f32__avx512(const fovea_pool2d_params *p, const float *x, float *y) {
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
        int64_t ow = 0;
        for (; ow < interior.begin; ow++) y_row[ow] = fovea_maxpool2d_output(p, x, rows, ih0, ow);
        for (; ow < interior.end; ow += 16) {
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
        for (ow = interior.end; ow < out_width; ow++) y_row[ow] = fovea_maxpool2d_output(p, x, rows, ih0, ow);
    }
}

#endif
