/* The Winograd F(4×4,3×3) input transform of one block, AVX-512 (the body: winograd-avx512.h). */
#include "winograd-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX512 void fovea_f32_winograd_input_f4__avx512(const fovea_winograd_block *block, const float *x, float *v) {
    input_block(block, x, v, 6);
}

#endif
