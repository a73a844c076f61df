/* The direct small-channel convolution tile of each ISA (configs/config.h). */
#include "config.h"

static const fovea_conv_smallc_config configs[FOVEA_ISA_COUNT] = {
    [FOVEA_ISA_SCALAR] = {fovea_f32_conv_smallc_1x1__scalar, "f32_conv_smallc_1x1_scalar"},
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] = {fovea_f32_conv_smallc_4x24__avx2, "f32_conv_smallc_4x24_avx2"},
    [FOVEA_ISA_AVX512] = {fovea_f32_conv_smallc_8x48__avx512, "f32_conv_smallc_8x48_avx512"},
#endif
};

const fovea_conv_smallc_config *fovea_conv_smallc_config_active(void) {
    return &configs[fovea_config_row(fovea_active_isa())];
}
