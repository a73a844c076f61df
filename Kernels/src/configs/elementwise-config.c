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
};

const fovea_elementwise_config *fovea_elementwise_config_active(void) {
    return &configs[fovea_config_row(fovea_active_isa())];
}
