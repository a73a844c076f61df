/* Depthwise 7×7 stride-1 convolution of one plane with NEON (the body: dwconv-s1-neon.h). */
#include "dwconv-s1-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS

void fovea_f32_dwconv_7x7s1__neon(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                  size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    plane(p, x, w, bias, y, oh_begin, oh_end, e, 7, 1);
}

#endif
