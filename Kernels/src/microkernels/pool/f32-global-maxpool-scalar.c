/* Global max of one plane, portable C. */
#include "pooling.h"

float fovea_f32_global_maxpool__scalar(size_t count, const float *x) {
    /* The reference's fold (Swift.max from -inf, see pooling.h): the SIMD variants must give these bits. */
    float max = -INFINITY;
    for (size_t i = 0; i < count; i++) max = fovea_global_max_step_f32(max, x[i]);
    return max;
}

