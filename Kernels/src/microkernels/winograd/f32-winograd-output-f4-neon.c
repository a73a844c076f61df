/* The Winograd F(4×4,3×3) output transform of one block, NEON (the body: winograd-neon.h). */
#include "winograd-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS

void fovea_f32_winograd_output_f4__neon(const fovea_winograd_block *block, const float *s, size_t rows,
                                          const float *bias, const fovea_epilogue *epilogue, float *y) {
    output_block(block, s, rows, bias, epilogue, y, 6);
}

#endif
