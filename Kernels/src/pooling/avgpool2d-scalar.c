/* Average pooling of one plane, portable C: the reference every SIMD variant must match bit for bit. */
#include "pooling.h"

void fovea_avgpool2d_f32__scalar(const fovea_pool2d_params *p, const float *x, float *y) {
    const int64_t out_height = (int64_t)p->output_height, out_width = (int64_t)p->output_width;
    for (int64_t oh = 0; oh < out_height; oh++) {
        const fovea_taps rows = fovea_row_taps(p, oh);
        const int64_t ih0 = oh * (int64_t)p->stride_height - (int64_t)p->pad_top;
        for (int64_t ow = 0; ow < out_width; ow++) {
            y[oh * out_width + ow] = fovea_avgpool2d_output(p, x, rows, ih0, ow);
        }
    }
}
