/* The pooling kernels of each ISA (configs/config.h). */
#include "config.h"

#define POOL(isa)                                                                                              \
    {fovea_f32_maxpool2d__##isa, fovea_f32_avgpool2d__##isa, fovea_f32_global_maxpool__##isa,                  \
     fovea_f32_global_avgpool__##isa}

static const fovea_pool_config configs[FOVEA_ISA_COUNT] = {
    [FOVEA_ISA_SCALAR] = POOL(scalar),
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] = POOL(avx2),
    [FOVEA_ISA_AVX512] = POOL(avx512),
#endif
#if FOVEA_HAVE_NEON_VARIANTS
    [FOVEA_ISA_NEON] = POOL(neon),
#endif
};

const fovea_pool_config *fovea_pool_config_active(void) { return &configs[fovea_config_row_with_neon(fovea_active_isa())]; }
