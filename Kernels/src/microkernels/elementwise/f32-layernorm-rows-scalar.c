/*
 * fovea_layer_norm_f32 rows in portable C: vector-math.h on 4-float vectors (SSE2 on
 * x86-64, NEON on arm64, plain scalar code elsewhere), so every ISA runs the
 * same approximations.
 */
#include "elementwise.h"

#include <math.h>

#define VM_TARGET
#define VM_LANES 4
#define VM_NAME(name) vm_portable_##name

typedef float vm_portable_lanes __attribute__((vector_size(16)));
static inline vm_portable_lanes vm_portable_sqrt_lanes(vm_portable_lanes v) {
    for (int i = 0; i < 4; i++) v[i] = sqrtf(v[i]);
    return v;
}
#define VM_SQRT(v) vm_portable_sqrt_lanes(v)
#include "vector-math.h"

void fovea_f32_layernorm_rows__scalar(size_t rows, size_t n, const float *x, const float *scale, const float *bias,
                                   float epsilon, float *y) {
    vm_portable_layer_norm_rows(rows, n, x, scale, bias, epsilon, y);
}
