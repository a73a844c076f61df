/*
 * Average pooling of one plane, portable C: the reference every SIMD variant
 * must match bit for bit. Border columns (windows over the left or right
 * padding) go output by output; the interior of a row goes tap by tap over
 * all its outputs at once, summing into the output row itself, so the
 * outputs' independent sums overlap (and compilers may vectorize them). Each
 * output still adds its taps in the same order, from +0.
 */
#include "pooling.h"

void fovea_f32_avgpool2d__scalar(const fovea_pool2d_params *p, const float *x, float *y) {
    const int64_t width = (int64_t)p->input_width;
    const int64_t out_height = (int64_t)p->output_height, out_width = (int64_t)p->output_width;
    const int64_t kernel_width = (int64_t)p->kernel_width;
    const int64_t sh = (int64_t)p->stride_height, sw = (int64_t)p->stride_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const fovea_column_range interior = fovea_interior_columns(p);
    const int64_t count = interior.end - interior.begin;
    /* Interior columns have every column tap inside the input. */
    const fovea_taps all_columns = {0, kernel_width, kernel_width};
    for (int64_t oh = 0; oh < out_height; oh++) {
        const fovea_taps rows = fovea_row_taps(p, oh);
        const int64_t ih0 = oh * sh - (int64_t)p->pad_top;
        float *y_row = y + oh * out_width;
        for (int64_t ow = 0; ow < interior.begin; ow++) y_row[ow] = fovea_avgpool2d_output(p, x, rows, ih0, ow);
        float *restrict sum = y_row + interior.begin;
        for (int64_t i = 0; i < count; i++) sum[i] = 0.0f;
        for (int64_t kh = rows.first; kh < rows.end; kh++) {
            const float *window_row = x + (ih0 + kh * dh) * width + interior.begin * sw - (int64_t)p->pad_left;
            for (int64_t kw = 0; kw < kernel_width; kw++) {
                const float *restrict tap = window_row + kw * dw;
                if (sw == 1) {
                    for (int64_t i = 0; i < count; i++) sum[i] += tap[i];
                } else {
                    for (int64_t i = 0; i < count; i++) sum[i] += tap[i * sw];
                }
            }
        }
        const float divisor = fovea_avgpool2d_divisor(p, rows, all_columns);
        for (int64_t i = 0; i < count; i++) sum[i] /= divisor;
        for (int64_t ow = interior.end; ow < out_width; ow++) y_row[ow] = fovea_avgpool2d_output(p, x, rows, ih0, ow);
    }
}
