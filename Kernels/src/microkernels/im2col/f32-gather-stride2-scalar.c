/* The stride-2 gather of im2col rows, portable C: dst[q] = src[2q]. */
#include "im2col.h"

void fovea_f32_gather_stride2__scalar(float *dst, const float *src, size_t count) {
    for (size_t q = 0; q < count; q++) dst[q] = src[2 * q];
}
