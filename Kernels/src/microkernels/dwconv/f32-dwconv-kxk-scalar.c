/*
 * Depthwise convolution of one plane in portable C, for any kernel size,
 * stride and dilation: direct loops over the taps for outputs whose window
 * lies inside the input, the general per-output code for the borders.
 */
#include "dwconv.h"

void fovea_f32_dwconv_kxk__scalar(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                  size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    const int64_t width = (int64_t)p->input_width, out_width = (int64_t)p->output_width;
    const int64_t kh_count = (int64_t)p->kernel_height, kw_count = (int64_t)p->kernel_width;
    const int64_t sh = (int64_t)p->stride_height, sw = (int64_t)p->stride_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const int64_t pt = (int64_t)p->pad_top, pl = (int64_t)p->pad_left;
    const fovea_dw_lanes inner = fovea_dw_interior_columns(p);
    for (int64_t oh = (int64_t)oh_begin; oh < (int64_t)oh_end; oh++) {
        float *y_row = y + oh * out_width;
        if (!fovea_dw_row_inside(p, oh)) {
            for (int64_t ow = 0; ow < out_width; ow++) {
                y_row[ow] = fovea_epilogue_apply(e, fovea_dw_output(p, x, w, bias, oh, ow));
            }
            continue;
        }
        const float *top = x + (oh * sh - pt) * width;
        int64_t ow = 0;
        for (; ow < inner.lo; ow++) y_row[ow] = fovea_epilogue_apply(e, fovea_dw_output(p, x, w, bias, oh, ow));
        for (; ow < inner.hi; ow++) {
            const int64_t c = ow * sw - pl;
            float sum = bias;
            for (int64_t kh = 0; kh < kh_count; kh++) {
                const float *row = top + kh * dh * width + c;
                const float *taps = w + kh * kw_count;
                for (int64_t kw = 0; kw < kw_count; kw++) sum += row[kw * dw] * taps[kw];
            }
            y_row[ow] = fovea_epilogue_apply(e, sum);
        }
        for (; ow < out_width; ow++) y_row[ow] = fovea_epilogue_apply(e, fovea_dw_output(p, x, w, bias, oh, ow));
    }
}
