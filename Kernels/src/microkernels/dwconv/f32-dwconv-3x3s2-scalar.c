/*
 * Depthwise 3×3 stride-2 convolution of one plane in portable C: the nine
 * taps unrolled for outputs whose window lies inside the input, the general
 * per-output code for the borders.
 */
#include "dwconv.h"

void fovea_f32_dwconv_3x3s2__scalar(const fovea_conv2d_params *p, const float *x, const float *w, float bias,
                                    float *y, size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    const int64_t width = (int64_t)p->input_width, out_width = (int64_t)p->output_width;
    const int64_t pt = (int64_t)p->pad_top, pl = (int64_t)p->pad_left;
    const fovea_dw_lanes inner = fovea_dw_interior_columns(p);
    const float w00 = w[0], w01 = w[1], w02 = w[2], w10 = w[3], w11 = w[4], w12 = w[5];
    const float w20 = w[6], w21 = w[7], w22 = w[8];
    for (int64_t oh = (int64_t)oh_begin; oh < (int64_t)oh_end; oh++) {
        float *y_row = y + oh * out_width;
        if (!fovea_dw_row_inside(p, oh)) {
            for (int64_t ow = 0; ow < out_width; ow++) {
                y_row[ow] = fovea_epilogue_apply(e, fovea_dw_output(p, x, w, bias, oh, ow));
            }
            continue;
        }
        const float *r0 = x + (2 * oh - pt) * width, *r1 = r0 + width, *r2 = r1 + width;
        int64_t ow = 0;
        for (; ow < inner.lo; ow++) y_row[ow] = fovea_epilogue_apply(e, fovea_dw_output(p, x, w, bias, oh, ow));
        for (; ow < inner.hi; ow++) {
            const int64_t c = 2 * ow - pl;
            float sum = bias;
            sum += r0[c] * w00;
            sum += r0[c + 1] * w01;
            sum += r0[c + 2] * w02;
            sum += r1[c] * w10;
            sum += r1[c + 1] * w11;
            sum += r1[c + 2] * w12;
            sum += r2[c] * w20;
            sum += r2[c + 1] * w21;
            sum += r2[c + 2] * w22;
            y_row[ow] = fovea_epilogue_apply(e, sum);
        }
        for (; ow < out_width; ow++) y_row[ow] = fovea_epilogue_apply(e, fovea_dw_output(p, x, w, bias, oh, ow));
    }
}
