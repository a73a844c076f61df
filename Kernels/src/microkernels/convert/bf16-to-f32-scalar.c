/* bf16 -> fp32: the bf16 bits become the upper half (exact). */
#include "convert.h"

void fovea_bf16_to_f32__scalar(const uint16_t *x, float *y, size_t n) {
    for (size_t i = 0; i < n; i++) y[i] = fovea_f32_from_bf16(x[i]);
}
