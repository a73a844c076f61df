/* fovea_layer_norm_f32 rows with AVX-512F: vector-math.h on 16 floats. */
#include "elementwise.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

#define VM_TARGET FOVEA_TARGET_AVX512
#define VM_LANES 16
#define VM_NAME(name) vm_avx512_##name
#define VM_SQRT(v) ((vm_f)_mm512_sqrt_ps((__m512)(v)))
#include "vector-math.h"

FOVEA_TARGET_AVX512
void fovea_f32_layernorm_rows__avx512(size_t rows, size_t n, const float *x, const float *scale, const float *bias,
                                 float epsilon, float *y) {
    vm_avx512_layer_norm_rows(rows, n, x, scale, bias, epsilon, y);
}

#endif
