/* The public fp32 <-> bf16 conversions (fovea_bf16.h): the active ISA's variant. */
#include "../configs/config.h"

void fovea_convert_f32_to_bf16(const float *x, uint16_t *y, size_t n) {
    if (n == 0) return;
    fovea_convert_config_active()->f32_to_bf16(x, y, n);
}

void fovea_convert_bf16_to_f32(const uint16_t *x, float *y, size_t n) {
    if (n == 0) return;
    fovea_convert_config_active()->bf16_to_f32(x, y, n);
}
