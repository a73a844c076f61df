/*
 * The plain-C bf16 packers (gemm-bf16.h): A into pair or k32 panels, an fp32
 * B panel into pairs. Every ISA packs A with these (weights are packed once);
 * B has an AVX-512 variant as well (bf16-gemm-pack-b-avx512.c).
 */
#include "../microkernels/gemm-bf16/gemm-bf16.h"

/* Packs A into panels of mr rows, A[r][k] at panel[(k/group)·mr·group + r·group + k%group], k padded to group. */
static void pack_a_grouped(size_t group, size_t mr, size_t m, size_t k, const float *a, size_t row_stride,
                           size_t column_stride, uint16_t *packed) {
    const size_t k_padded = (k + group - 1) / group * group;
    for (size_t i0 = 0; i0 < m; i0 += mr) {
        uint16_t *panel = packed + i0 * k_padded;
        for (size_t p = 0; p < k_padded; p++) {
            for (size_t r = 0; r < mr; r++) {
                const size_t i = i0 + r;
                const uint16_t v = i < m && p < k ? fovea_bf16_from_f32(a[i * row_stride + p * column_stride]) : 0;
                panel[(p / group) * mr * group + r * group + p % group] = v;
            }
        }
    }
}

void fovea_bf16_gemm_pack_a_pairs(size_t mr, size_t m, size_t k, const float *a, size_t row_stride,
                                  size_t column_stride, uint16_t *packed) {
    pack_a_grouped(2, mr, m, k, a, row_stride, column_stride, packed);
}

void fovea_bf16_gemm_pack_a_k32(size_t mr, size_t m, size_t k, const float *a, size_t row_stride,
                                size_t column_stride, uint16_t *packed) {
    pack_a_grouped(32, mr, m, k, a, row_stride, column_stride, packed);
}

void fovea_bf16_gemm_pack_b(size_t nr, size_t kc, size_t kc_padded, const float *b, size_t ldb, uint16_t *packed) {
    for (size_t p = 0; p < kc_padded; p++) {
        for (size_t j = 0; j < nr; j++) {
            packed[(p / 2) * nr * 2 + j * 2 + p % 2] = p < kc ? fovea_bf16_from_f32(b[p * ldb + j]) : 0;
        }
    }
}
