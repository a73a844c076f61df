/* The Winograd F(2×2,3×3) output transform of one block, AVX2 + FMA (the body: winograd-avx2.h). */
#include "winograd-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX2 void fovea_f32_winograd_output_f2__avx2(const fovea_winograd_block *block, const float *s, size_t rows,
                                                          const float *bias, const fovea_epilogue *epilogue, float *y) {
    output_block(block, s, rows, bias, epilogue, y, 4);
}

#endif
