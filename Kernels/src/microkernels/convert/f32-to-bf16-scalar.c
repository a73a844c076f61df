/* fp32 -> bf16, round to nearest even (convert.h's rule), one value at a time. */
#include "convert.h"

void fovea_f32_to_bf16__scalar(const float *x, uint16_t *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = fovea_bf16_from_f32(x[i]);
}
