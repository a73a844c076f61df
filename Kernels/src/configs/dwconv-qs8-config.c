/*
 * The depthwise int8 kernel of each ISA level (configs/config.h): AVX2's
 * vector rows for stride 1 (it hands other strides to the portable loop) on
 * every level from avx2 up, the portable loop on scalar.
 */
#include "config.h"

const fovea_qs8_dwconv_config *fovea_qs8_dwconv_config_active(void) {
    static const fovea_qs8_dwconv_config scalar = {fovea_qs8_dwconv_kxk__scalar, "qs8_dwconv_kxk_scalar"};
#if FOVEA_HAVE_X86_VARIANTS
    static const fovea_qs8_dwconv_config avx2 = {fovea_qs8_dwconv_kxks1__avx2, "qs8_dwconv_kxks1_avx2"};
    if (fovea_active_isa() >= FOVEA_ISA_AVX2) return &avx2;
#endif
    return &scalar;
}
