/*
 * Direct convolution with few input channels in portable C: one output at a
 * time, the taps clipped to the input once per row (kernel rows) and per
 * column (kernel columns), so the inner loops carry no bounds checks.
 */
#include "conv-smallc.h"

void fovea_f32_conv_smallc_1x1__scalar(const fovea_conv2d_params *p, const float *x, const float *w,
                                       const float *bias, float *y, size_t oh, size_t m_begin, size_t m_end,
                                       const fovea_epilogue *e, float *scratch) {
    (void)scratch; /* reads the input in place */
    const int64_t channels = (int64_t)p->channels, height = (int64_t)p->input_height;
    const int64_t width = (int64_t)p->input_width, kh_count = (int64_t)p->kernel_height;
    const int64_t kw_count = (int64_t)p->kernel_width, out_width = (int64_t)p->output_width;
    const int64_t sw = (int64_t)p->stride_width, pl = (int64_t)p->pad_left;
    const int64_t filter = channels * kh_count * kw_count;
    const int64_t out_plane = (int64_t)(p->output_height * p->output_width);
    const fovea_smallc_rows rows = fovea_smallc_rows_of(p, (int64_t)oh);
    const int64_t ih0 = (int64_t)oh * (int64_t)p->stride_height - (int64_t)p->pad_top;
    for (int64_t m = (int64_t)m_begin; m < (int64_t)m_end; m++) {
        const float *w_m = w + m * filter;
        float *y_row = y + m * out_plane + (int64_t)oh * out_width;
        const float b = bias != NULL ? bias[m] : 0.0f;
        for (int64_t ow = 0; ow < out_width; ow++) {
            const int64_t start = ow * sw - pl;
            const int64_t kw_first = start >= 0 ? 0 : -start;
            const int64_t kw_end = width - start < kw_count ? width - start : kw_count;
            float sum = b;
            for (int64_t c = 0; c < channels; c++) {
                for (int64_t kh = rows.first; kh < rows.end; kh++) {
                    const float *row = x + (c * height + ih0 + kh) * width + start;
                    const float *taps = w_m + (c * kh_count + kh) * kw_count;
                    for (int64_t kw = kw_first; kw < kw_end; kw++) sum += row[kw] * taps[kw];
                }
            }
            y_row[ow] = fovea_epilogue_apply(e, sum);
        }
    }
}
