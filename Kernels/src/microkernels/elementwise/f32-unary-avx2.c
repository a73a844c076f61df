/* fovea_unary_f32 with AVX2 + FMA: vector-math.h on 8 floats. */
#include "elementwise.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

#define VM_TARGET FOVEA_TARGET_AVX2
#define VM_LANES 8
#define VM_NAME(name) vm_avx2_##name
#define VM_SQRT(v) ((vm_f)_mm256_sqrt_ps((__m256)(v)))
#include "vector-math.h"

FOVEA_TARGET_AVX2
void fovea_f32_unary__avx2(const fovea_unary *fn, size_t n, const float *x, float *y) {
    vm_avx2_unary_variant(fn, n, x, y);
}

#endif
