/* The softmax kernels of each ISA (configs/config.h). */
#include "config.h"

static const fovea_softmax_config configs[FOVEA_ISA_COUNT] = {
    [FOVEA_ISA_SCALAR] = {fovea_f32_softmax_row__scalar, fovea_f32_softmax_columns__scalar},
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] = {fovea_f32_softmax_row__avx2, fovea_f32_softmax_columns__avx2},
    [FOVEA_ISA_AVX512] = {fovea_f32_softmax_row__avx512, fovea_f32_softmax_columns__avx512},
#endif
#if FOVEA_HAVE_NEON_VARIANTS
    [FOVEA_ISA_NEON] = {fovea_f32_softmax_row__neon, fovea_f32_softmax_columns__neon},
#endif
};

const fovea_softmax_config *fovea_softmax_config_active(void) { return &configs[fovea_config_row_with_neon(fovea_active_isa())]; }
