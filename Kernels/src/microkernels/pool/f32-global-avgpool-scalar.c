/* Global average of one plane, portable C. */
#include "pooling.h"

float fovea_f32_global_avgpool__scalar(size_t count, const float *x) {
    /* Summing in double keeps the mean accurate for large planes and makes the
       variants (which add in different orders) agree to the last float bit or so. */
    double sum = 0.0;
    for (size_t i = 0; i < count; i++) sum += x[i];
    return (float)(sum / (double)count);
}
