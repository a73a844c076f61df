/* Depthwise 5×5 stride-2 convolution of one plane with AVX-512 (the body: dwconv-s2-avx512.h). */
#include "dwconv-s2-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX512
void fovea_f32_dwconv_5x5s2__avx512(const fovea_conv2d_params *p, const float *x, const float *w, float bias,
                                    float *y, size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    plane(p, x, w, bias, y, oh_begin, oh_end, e, 5);
}

#endif
