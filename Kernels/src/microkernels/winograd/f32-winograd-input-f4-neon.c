/* The Winograd F(4×4,3×3) input transform of one block, NEON (the body: winograd-neon.h). */
#include "winograd-neon.h"

#if FOVEA_HAVE_NEON_VARIANTS

void fovea_f32_winograd_input_f4__neon(const fovea_winograd_block *block, const float *x, float *v) {
    input_block(block, x, v, 6);
}

#endif
