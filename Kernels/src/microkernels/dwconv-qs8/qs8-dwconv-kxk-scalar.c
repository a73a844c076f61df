/* Depthwise int8 convolution of one plane in portable C, tap by tap (dwconv-qs8.h). */
#include "dwconv-qs8.h"

uint8_t fovea_qs8_dwconv_output(const fovea_qs8_dwconv_plane *p, size_t oh, size_t ow) {
    const long H = (long)p->input_height, W = (long)p->input_width;
    int32_t acc = 0; /* |sum| <= taps · 255 · 128: exact for up to 65536 taps */
    for (size_t kh = 0; kh < p->kernel_height; kh++) {
        const long ih = (long)(oh * p->stride_height + kh * p->dilation_height) - (long)p->pad_top;
        if (ih < 0 || ih >= H) continue;
        for (size_t kw = 0; kw < p->kernel_width; kw++) {
            const long iw = (long)(ow * p->stride_width + kw * p->dilation_width) - (long)p->pad_left;
            if (iw < 0 || iw >= W) continue;
            acc += ((int32_t)(p->x[ih * W + iw] ^ p->input_xor) - p->zero_point) * p->weights[kh * p->kernel_width + kw];
        }
    }
    return fovea_qs8_requantize(acc, p->requant.bias[0], p->requant.scale[0], &p->requant);
}

void fovea_qs8_dwconv_kxk__scalar(const fovea_qs8_dwconv_plane *p) {
    for (size_t oh = 0; oh < p->output_height; oh++) {
        for (size_t ow = 0; ow < p->output_width; ow++) p->y[oh * p->output_width + ow] = fovea_qs8_dwconv_output(p, oh, ow);
    }
}
