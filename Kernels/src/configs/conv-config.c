/*
 * The GEMM convolution's packers and gathers per ISA (configs/config.h):
 * AVX-512 has its own stride-2 gathers, row and panel packers and the
 * pixel-rows tile; AVX2 and NEON run the scalar gathers around their GEMM tiles.
 */
#include "config.h"

static const fovea_conv_config configs[FOVEA_ISA_COUNT] = {
    [FOVEA_ISA_SCALAR] = {.isa = FOVEA_ISA_SCALAR, .gemm = &fovea_gemm_configs[FOVEA_ISA_SCALAR],
                          .gather_stride2 = fovea_f32_gather_stride2__scalar,
                          .gather_stride2_taps3 = fovea_f32_gather_stride2_taps3__scalar},
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] = {.isa = FOVEA_ISA_AVX2, .gemm = &fovea_gemm_configs[FOVEA_ISA_AVX2],
                        .gather_stride2 = fovea_f32_gather_stride2__scalar,
                        .gather_stride2_taps3 = fovea_f32_gather_stride2_taps3__scalar},
    [FOVEA_ISA_AVX512] = {.isa = FOVEA_ISA_AVX512, .gemm = &fovea_gemm_configs[FOVEA_ISA_AVX512],
                          .gather_stride2 = fovea_f32_gather_stride2__avx512,
                          .gather_stride2_taps3 = fovea_f32_gather_stride2_taps3__avx512,
                          .im2col_3x3s2_rows = fovea_f32_im2col_3x3s2_rows__avx512,
                          .im2col_stride2_panels = fovea_f32_im2col_stride2_panels__avx512,
                          .gemm_pixel_rows = fovea_f32_gemm_t8x32__avx512,
                          .gemm_pixel_rows_name = "f32_gemm_t8x32_avx512",
                          .im2col_stride2_pixel_groups = fovea_f32_im2col_stride2_pixel_groups__avx512},
#endif
#if FOVEA_HAVE_NEON_VARIANTS
    [FOVEA_ISA_NEON] = {.isa = FOVEA_ISA_NEON, .gemm = &fovea_gemm_configs[FOVEA_ISA_NEON],
                        .gather_stride2 = fovea_f32_gather_stride2__scalar,
                        .gather_stride2_taps3 = fovea_f32_gather_stride2_taps3__scalar},
#endif
};

const fovea_conv_config *fovea_conv_config_for(fovea_isa isa) { return &configs[fovea_config_row_with_neon(isa)]; }

const fovea_conv_config *fovea_conv_config_active(void) { return fovea_conv_config_for(fovea_active_isa()); }
