/* The Winograd F(6×6,3×3) input transform of one block, AVX2 + FMA (the body: winograd-avx2.h). */
#include "winograd-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX2 void fovea_f32_winograd_input_f6__avx2(const fovea_winograd_block *block, const float *x, float *v) {
    input_block(block, x, v, 8);
}

#endif
