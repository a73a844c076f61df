/* The elementwise kernels of each ISA (configs/config.h). */
#include "config.h"

#define ELEMENTWISE(isa)                                                                                       \
    {fovea_f32_activation__##isa, fovea_f32_sigmoid__##isa, fovea_f32_unary__##isa,                            \
     fovea_f32_layernorm_rows__##isa, fovea_f32_binary__##isa}

static const fovea_elementwise_config configs[FOVEA_ISA_COUNT] = {
    [FOVEA_ISA_SCALAR] = ELEMENTWISE(scalar),
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] = ELEMENTWISE(avx2),
    [FOVEA_ISA_AVX512] = ELEMENTWISE(avx512),
#endif
#if FOVEA_HAVE_NEON_VARIANTS
    /* Sigmoid, the unary functions and LayerNorm: the portable code (vector-math.h compiles to NEON there). */
    [FOVEA_ISA_NEON] = {fovea_f32_activation__neon, fovea_f32_sigmoid__scalar, fovea_f32_unary__scalar,
                        fovea_f32_layernorm_rows__scalar, fovea_f32_binary__neon},
#endif
};

const fovea_elementwise_config *fovea_elementwise_config_active(void) {
    return &configs[fovea_config_row_with_neon(fovea_active_isa())];
}
