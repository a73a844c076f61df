/*
 * Softmax / LogSoftmax in portable C with libm's expf and logf. The column
 * form works on blocks of 16 slices so each pass reads contiguous runs.
 */
#include "softmax.h"

void fovea_f32_softmax_columns__scalar(size_t axis, size_t stride, size_t columns, const float *x, float *y,
                                       int log) {
    enum { block = 16 };
    for (size_t j0 = 0; j0 < columns; j0 += block) {
        const size_t width = columns - j0 < block ? columns - j0 : block;
        float max[block], sum[block];
        for (size_t j = 0; j < width; j++) {
            max[j] = -INFINITY;
            sum[j] = 0.0f;
        }
        for (size_t k = 0; k < axis; k++) {
            const float *row = x + k * stride + j0;
            for (size_t j = 0; j < width; j++) {
                if (row[j] > max[j]) max[j] = row[j];
            }
        }
        for (size_t k = 0; k < axis; k++) {
            const float *row = x + k * stride + j0;
            float *out = y + k * stride + j0;
            for (size_t j = 0; j < width; j++) {
                const float e = expf(row[j] - max[j]);
                if (!log) out[j] = e;
                sum[j] += e;
            }
        }
        if (!log) {
            for (size_t j = 0; j < width; j++) sum[j] = 1.0f / sum[j];
            for (size_t k = 0; k < axis; k++) {
                float *out = y + k * stride + j0;
                for (size_t j = 0; j < width; j++) out[j] *= sum[j];
            }
        } else {
            for (size_t j = 0; j < width; j++) sum[j] = logf(sum[j]);
            for (size_t k = 0; k < axis; k++) {
                const float *row = x + k * stride + j0;
                float *out = y + k * stride + j0;
                for (size_t j = 0; j < width; j++) out[j] = (row[j] - max[j]) - sum[j];
            }
        }
    }
}
