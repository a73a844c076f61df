/*
 * Average pooling of one plane with AVX-512: 16 output columns at a time (the
 * last group masked); border columns use the scalar per-output code. Each
 * lane adds its taps in the scalar order and divides by the same count, so
 * results match the scalar variant bit for bit.
 */
#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX512
void fovea_avgpool2d_f32__avx512(const fovea_pool2d_params *p, const float *x, float *y) {
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
        int64_t ow = 0;
        for (; ow < interior.begin; ow++) y_row[ow] = fovea_avgpool2d_output(p, x, rows, ih0, ow);
        for (; ow < interior.end; ow += 16) {
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
        for (ow = interior.end; ow < out_width; ow++) y_row[ow] = fovea_avgpool2d_output(p, x, rows, ih0, ow);
    }
}

#endif
