/* Depthwise 7×7 stride-1 convolution of one plane with AVX2 + FMA (the body: dwconv-s1-avx2.h). */
#include "dwconv-s1-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX2
void fovea_f32_dwconv_7x7s1__avx2(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                  size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    plane(p, x, w, bias, y, oh_begin, oh_end, e, 7);
}

#endif
