/* ReLU / Clip / LeakyReLU over a contiguous range in portable C (the reference for the SIMD loops). */
#include "elementwise.h"

void fovea_f32_activation__scalar(size_t n, const float *x, float *y, const fovea_epilogue *e) {
    const fovea_epilogue ep = *e;
    for (size_t i = 0; i < n; i++) y[i] = fovea_epilogue_apply(&ep, x[i]);
}
