/*
 * Softmax / LogSoftmax in portable C with libm's expf and logf. The column
 * form works on blocks of 16 slices so each pass reads contiguous runs.
 */
#include "softmax.h"

void fovea_f32_softmax_row__scalar(size_t axis, const float *x, float *y, int log) {
    float max = -INFINITY;
    for (size_t i = 0; i < axis; i++) {
        if (x[i] > max) max = x[i];
    }
    /* A NaN was skipped above, but exp(NaN - max) makes the sum, and so every output, NaN. */
    float sum = 0.0f;
    if (!log) {
        for (size_t i = 0; i < axis; i++) {
            const float e = expf(x[i] - max);
            y[i] = e;
            sum += e;
        }
        const float scale = 1.0f / sum;
        for (size_t i = 0; i < axis; i++) y[i] *= scale;
    } else {
        for (size_t i = 0; i < axis; i++) sum += expf(x[i] - max);
        const float shift = logf(sum);
        for (size_t i = 0; i < axis; i++) y[i] = (x[i] - max) - shift;
    }
}
