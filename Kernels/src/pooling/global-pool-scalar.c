/* Global max and average of one plane, portable C. */
#include "pooling.h"

float fovea_global_maxpool_f32__scalar(size_t count, const float *x) {
    float max = -INFINITY;
    int saw_nan = 0;
    for (size_t i = 0; i < count; i++) {
        const float v = x[i];
        if (v != v) saw_nan = 1;
        else max = fovea_maximum_f32(max, v);
    }
    return saw_nan ? fovea_default_nan() : max;
}

float fovea_global_avgpool_f32__scalar(size_t count, const float *x) {
    /* Summing in double keeps the mean accurate for large planes and makes the
       variants (which add in different orders) agree to the last float bit or so. */
    double sum = 0.0;
    for (size_t i = 0; i < count; i++) sum += x[i];
    return (float)(sum / (double)count);
}
