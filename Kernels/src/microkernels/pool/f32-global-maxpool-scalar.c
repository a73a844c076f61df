/* Global max and average of one plane, portable C. */
#include "pooling.h"

float fovea_global_maxpool_f32__scalar(size_t count, const float *x) {
    /* The reference's fold (Swift.max from -inf, see pooling.h): the SIMD variants must give these bits. */
    float max = -INFINITY;
    for (size_t i = 0; i < count; i++) max = fovea_global_max_step_f32(max, x[i]);
    return max;
}

float fovea_global_avgpool_f32__scalar(size_t count, const float *x) {
    /* Summing in double keeps the mean accurate for large planes and makes the
       variants (which add in different orders) agree to the last float bit or so. */
    double sum = 0.0;
    for (size_t i = 0; i < count; i++) sum += x[i];
    return (float)(sum / (double)count);
}
