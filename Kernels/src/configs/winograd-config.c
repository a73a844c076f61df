/* The Winograd input and output transforms of each ISA (configs/config.h). */
#include "config.h"

static const fovea_winograd_config configs[FOVEA_ISA_COUNT] = {
    [FOVEA_ISA_SCALAR] =
        {1,
         {fovea_f32_winograd_input_f2__scalar, fovea_f32_winograd_input_f4__scalar, fovea_f32_winograd_input_f6__scalar},
         {fovea_f32_winograd_output_f2__scalar, fovea_f32_winograd_output_f4__scalar,
          fovea_f32_winograd_output_f6__scalar}},
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] =
        {8,
         {fovea_f32_winograd_input_f2__avx2, fovea_f32_winograd_input_f4__avx2, fovea_f32_winograd_input_f6__avx2},
         {fovea_f32_winograd_output_f2__avx2, fovea_f32_winograd_output_f4__avx2, fovea_f32_winograd_output_f6__avx2}},
    [FOVEA_ISA_AVX512] =
        {16,
         {fovea_f32_winograd_input_f2__avx512, fovea_f32_winograd_input_f4__avx512, fovea_f32_winograd_input_f6__avx512},
         {fovea_f32_winograd_output_f2__avx512, fovea_f32_winograd_output_f4__avx512,
          fovea_f32_winograd_output_f6__avx512}},
#endif
#if FOVEA_HAVE_NEON_VARIANTS
    [FOVEA_ISA_NEON] =
        {4,
         {fovea_f32_winograd_input_f2__neon, fovea_f32_winograd_input_f4__neon, fovea_f32_winograd_input_f6__neon},
         {fovea_f32_winograd_output_f2__neon, fovea_f32_winograd_output_f4__neon, fovea_f32_winograd_output_f6__neon}},
#endif
};

const fovea_winograd_config *fovea_winograd_config_for(fovea_isa isa, size_t nr) {
    const fovea_winograd_config *config = &configs[fovea_config_row_with_neon(isa)];
    return nr % config->lanes == 0 ? config : &configs[FOVEA_ISA_SCALAR];
}
