/*
 * The fp32 <-> bf16 conversions per ISA (configs/config.h): vcvtneps2bf16
 * where the CPU has AVX512_BF16, AVX-512F's widening for bf16 -> fp32.
 */
#include "config.h"

static const fovea_convert_config configs[FOVEA_ISA_COUNT] = {
    [FOVEA_ISA_SCALAR] = {fovea_f32_to_bf16__scalar, fovea_bf16_to_f32__scalar},
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] = {fovea_f32_to_bf16__scalar, fovea_bf16_to_f32__scalar},
    [FOVEA_ISA_AVX512] = {fovea_f32_to_bf16__scalar, fovea_bf16_to_f32__avx512},
    [FOVEA_ISA_AVX512BF16] = {fovea_f32_to_bf16__avx512bf16, fovea_bf16_to_f32__avx512},
    [FOVEA_ISA_AMX] = {fovea_f32_to_bf16__avx512bf16, fovea_bf16_to_f32__avx512},
#endif
};

const fovea_convert_config *fovea_convert_config_for(fovea_isa isa) { return &configs[fovea_bf16_config_row(isa)]; }

const fovea_convert_config *fovea_convert_config_active(void) { return fovea_convert_config_for(fovea_active_isa()); }
