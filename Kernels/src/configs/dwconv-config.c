/*
 * The depthwise kernel of each shape kind and ISA (configs/config.h). The
 * names are the algorithm labels plans and tests show.
 */
#include "config.h"

#define KERNEL(kind, isa) {fovea_f32_dwconv_##kind##__##isa, "dwconv_" #kind "_" #isa}

static const fovea_dwconv_config configs[FOVEA_ISA_COUNT] = {
    /* The scalar code runs 5×5 and 7×7 through k×k. */
    [FOVEA_ISA_SCALAR] = {{KERNEL(3x3s1, scalar), KERNEL(3x3s2, scalar), KERNEL(kxk, scalar), KERNEL(kxk, scalar),
                           KERNEL(kxk, scalar), KERNEL(kxk, scalar), KERNEL(kxk, scalar)}},
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] = {{KERNEL(3x3s1, avx2), KERNEL(3x3s2, avx2), KERNEL(5x5s1, avx2), KERNEL(5x5s2, avx2),
                         KERNEL(7x7s1, avx2), KERNEL(7x7s2, avx2), KERNEL(kxk, avx2)}},
    [FOVEA_ISA_AVX512] = {{KERNEL(3x3s1, avx512), KERNEL(3x3s2, avx512), KERNEL(5x5s1, avx512), KERNEL(5x5s2, avx512),
                           KERNEL(7x7s1, avx512), KERNEL(7x7s2, avx512), KERNEL(kxk, avx512)}},
#endif
#if FOVEA_HAVE_NEON_VARIANTS
    [FOVEA_ISA_NEON] = {{KERNEL(3x3s1, neon), KERNEL(3x3s2, neon), KERNEL(5x5s1, neon), KERNEL(5x5s2, neon),
                         KERNEL(7x7s1, neon), KERNEL(7x7s2, neon), KERNEL(kxk, neon)}},
#endif
};

const fovea_dwconv_config *fovea_dwconv_config_active(void) { return &configs[fovea_config_row_with_neon(fovea_active_isa())]; }
