/* Depthwise 3×3 stride-2 convolution of one plane with NEON (the body: dwconv-s2-neon.h). */
#include "dwconv-s2-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS

void fovea_f32_dwconv_3x3s2__neon(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                  size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    plane(p, x, w, bias, y, oh_begin, oh_end, e, 3);
}

#endif
