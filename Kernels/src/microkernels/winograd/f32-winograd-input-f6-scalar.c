/* The Winograd F(6×6,3×3) input transform of one block, portable C (the body: winograd-scalar.h). */
#include "winograd-scalar.h"

void fovea_f32_winograd_input_f6__scalar(const fovea_winograd_block *block, const float *x, float *v) {
    input_block(block, x, v, 8);
}
