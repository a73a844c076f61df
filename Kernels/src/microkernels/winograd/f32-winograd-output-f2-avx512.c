/* The Winograd F(2×2,3×3) output transform of one block, AVX-512 (the body: winograd-avx512.h). */
#include "winograd-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

FOVEA_TARGET_AVX512 void fovea_f32_winograd_output_f2__avx512(const fovea_winograd_block *block, const float *s, size_t rows,
                                                              const float *bias, const fovea_epilogue *epilogue, float *y) {
    output_any(block, s, rows, bias, epilogue, y, 4);
}

#endif
