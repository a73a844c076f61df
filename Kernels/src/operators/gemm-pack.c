/* Packing into the GEMM microkernels' panel layouts (see microkernels/gemm/gemm.h). */
#include "../microkernels/gemm/gemm.h"

#include <string.h>

void fovea_gemm_pack_a(size_t mr, size_t m, size_t k, const float *a, size_t row_stride, size_t column_stride,
                       float *packed) {
    for (size_t i0 = 0; i0 < m; i0 += mr) {
        const size_t rows = m - i0 < mr ? m - i0 : mr;
        for (size_t p = 0; p < k; p++) {
            for (size_t r = 0; r < mr; r++) {
                *packed++ = r < rows ? a[(i0 + r) * row_stride + p * column_stride] : 0.0f;
            }
        }
    }
}

void fovea_gemm_pack_b(size_t nr, size_t kc, size_t nc, const float *b, size_t ldb, float *packed) {
    for (size_t j0 = 0; j0 < nc; j0 += nr) {
        const size_t columns = nc - j0 < nr ? nc - j0 : nr;
        for (size_t p = 0; p < kc; p++) {
            const float *row = b + p * ldb + j0;
            memcpy(packed, row, columns * sizeof(float));
            if (columns < nr) memset(packed + columns, 0, (nr - columns) * sizeof(float));
            packed += nr;
        }
    }
}
