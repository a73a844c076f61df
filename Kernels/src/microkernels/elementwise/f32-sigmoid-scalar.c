/*
 * Sigmoid in portable C with libm's expf: with e = exp(-|x|) in (0, 1],
 * sigmoid(x) = e / (1 + e) for x <= 0 and 1 / (1 + e) for x > 0, so neither
 * branch overflows or cancels. Infinities give 0 and 1, NaN gives NaN.
 */
#include "elementwise.h"

#include <math.h>

void fovea_f32_sigmoid__scalar(size_t n, const float *x, float *y) {
    for (size_t i = 0; i < n; i++) {
        const float v = x[i];
        const float e = expf(-fabsf(v));
        y[i] = (v > 0.0f ? 1.0f : e) / (1.0f + e);
    }
}
