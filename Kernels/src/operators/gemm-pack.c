/* Packing into the microkernels' panel layouts (see gemm.h), and the per-ISA tile table. */
#include "gemm.h"

#include <string.h>

#if FOVEA_HAVE_X86_VARIANTS
static const fovea_gemm_config narrow_avx512 = {8, 16, fovea_f32_gemm_8x16__avx512, fovea_f32_gemm_8x16__avx512_strided,
                                                "f32_gemm_8x16_avx512", NULL, fovea_f32_gemm_8x16__avx512_ldb,
                                                fovea_f32_gemm_8x16__avx512_prefetch};
#endif

static const fovea_gemm_config configs[FOVEA_ISA_COUNT] = {
    {4, 8, fovea_f32_gemm_4x8__scalar, fovea_f32_gemm_4x8__scalar_strided, "f32_gemm_4x8_scalar", NULL, NULL, NULL},
#if FOVEA_HAVE_X86_VARIANTS
    {6, 16, fovea_f32_gemm_6x16__avx2, fovea_f32_gemm_6x16__avx2_strided, "f32_gemm_6x16_avx2", NULL, NULL, NULL},
    {8, 32, fovea_f32_gemm_8x32__avx512, fovea_f32_gemm_8x32__avx512_strided, "f32_gemm_8x32_avx512", &narrow_avx512,
     NULL, fovea_f32_gemm_8x32__avx512_prefetch},
#else
    {4, 8, fovea_f32_gemm_4x8__scalar, fovea_f32_gemm_4x8__scalar_strided, "f32_gemm_4x8_scalar", NULL, NULL, NULL},
    {4, 8, fovea_f32_gemm_4x8__scalar, fovea_f32_gemm_4x8__scalar_strided, "f32_gemm_4x8_scalar", NULL, NULL, NULL},
#endif
};

const fovea_gemm_config *fovea_gemm_config_for(fovea_isa isa) {
    return &configs[(unsigned)isa < FOVEA_ISA_COUNT ? isa : FOVEA_ISA_SCALAR];
}

const fovea_gemm_config *fovea_gemm_config_with_width(fovea_isa isa, size_t nr) {
    const fovea_gemm_config *config = fovea_gemm_config_for(isa);
    if (config->nr == nr) return config;
    return config->narrow != NULL && config->narrow->nr == nr ? config->narrow : NULL;
}

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
