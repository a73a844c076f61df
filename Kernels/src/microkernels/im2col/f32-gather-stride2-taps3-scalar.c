/* The stride-2 gather of the three taps of a 3×3 stride-2 pad-1 input row, portable C. */
#include "im2col.h"

void fovea_f32_gather_stride2_taps3__scalar(float *dst0, float *dst1, float *dst2, const float *row, size_t width,
                                        size_t start, size_t count) {
    float *const dst[3] = {dst0, dst1, dst2};
    for (size_t kw = 0; kw < 3; kw++) {
        for (size_t q = 0; q < count; q++) {
            const size_t column = start + 2 * q + kw; /* the input column plus one */
            dst[kw][q] = column >= 1 && column - 1 < width ? row[column - 1] : 0.0f;
        }
    }
}
