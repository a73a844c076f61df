/* The SGEMM microkernel of each ISA (configs/config.h). */
#include "config.h"

#if FOVEA_HAVE_X86_VARIANTS
static const fovea_gemm_config narrow_avx512 = {
    .isa = FOVEA_ISA_AVX512, .mr = 8, .nr = 16,
    .ukernel = fovea_f32_gemm_8x16__avx512, .ukernel_strided = fovea_f32_gemm_8x16__avx512_strided,
    .name = "f32_gemm_8x16_avx512",
    .ukernel_ldb = fovea_f32_gemm_8x16__avx512_ldb, .ukernel_prefetch = fovea_f32_gemm_8x16__avx512_prefetch,
};
#endif

const fovea_gemm_config fovea_gemm_configs[FOVEA_ISA_COUNT] = {
    [FOVEA_ISA_SCALAR] = {.isa = FOVEA_ISA_SCALAR, .mr = 4, .nr = 8,
                          .ukernel = fovea_f32_gemm_4x8__scalar, .ukernel_strided = fovea_f32_gemm_4x8__scalar_strided,
                          .name = "f32_gemm_4x8_scalar"},
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] = {.isa = FOVEA_ISA_AVX2, .mr = 6, .nr = 16,
                        .ukernel = fovea_f32_gemm_6x16__avx2, .ukernel_strided = fovea_f32_gemm_6x16__avx2_strided,
                        .name = "f32_gemm_6x16_avx2"},
    [FOVEA_ISA_AVX512] = {.isa = FOVEA_ISA_AVX512, .mr = 8, .nr = 32,
                          .ukernel = fovea_f32_gemm_8x32__avx512,
                          .ukernel_strided = fovea_f32_gemm_8x32__avx512_strided,
                          .name = "f32_gemm_8x32_avx512", .narrow = &narrow_avx512,
                          .ukernel_prefetch = fovea_f32_gemm_8x32__avx512_prefetch},
#endif
#if FOVEA_HAVE_NEON_VARIANTS
    [FOVEA_ISA_NEON] = {.isa = FOVEA_ISA_NEON, .mr = 8, .nr = 12,
                        .ukernel = fovea_f32_gemm_8x12__neon, .ukernel_strided = fovea_f32_gemm_8x12__neon_strided,
                        .name = "f32_gemm_8x12_neon"},
#endif
};

const fovea_gemm_config *fovea_gemm_config_for(fovea_isa isa) {
    return &fovea_gemm_configs[fovea_config_row_with_neon(isa)];
}

const fovea_gemm_config *fovea_gemm_config_active(void) { return fovea_gemm_config_for(fovea_active_isa()); }

const fovea_gemm_config *fovea_gemm_config_with_width(fovea_isa isa, size_t nr) {
    const fovea_gemm_config *config = fovea_gemm_config_for(isa);
    if (config->nr == nr) return config;
    return config->narrow != NULL && config->narrow->nr == nr ? config->narrow : NULL;
}
