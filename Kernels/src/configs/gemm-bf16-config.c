/*
 * The bf16 GEMM microkernel of each ISA (configs/config.h). Unlike the fp32
 * tables every level has its own row: AVX512_BF16's vdpbf16ps, AMX's tiles
 * (on x86 builds; the row falls back to AVX512_BF16's where the build has no
 * AMX kernel), and below them the same bf16 weights widened to fp32
 * (AVX-512 or AVX2 FMAs, or portable C), so that a bf16 plan runs with the
 * same roundings on every CPU. The tiles are measured in
 * Benchmarks/results/2026-12-07-amd-epyc-zen5-bf16-kernels.md.
 */
#include "config.h"
#include "../microkernels/gemm-bf16/bf16-gemm-amx.h"

static const fovea_bf16_gemm_config scalar = {
    .isa = FOVEA_ISA_SCALAR, .mr = 4, .nr = 16, .k_align = 2, .ukernel = fovea_bf16_gemm_4x16__scalar,
    .pack_a = fovea_bf16_gemm_pack_a_pairs, .pack_b = fovea_bf16_gemm_pack_b, .name = "bf16_gemm_4x16_scalar"};

#if FOVEA_HAVE_X86_VARIANTS
static const fovea_bf16_gemm_config avx2 = {
    .isa = FOVEA_ISA_AVX2, .mr = 6, .nr = 16, .k_align = 2, .ukernel = fovea_bf16_gemm_6x16__avx2,
    .pack_a = fovea_bf16_gemm_pack_a_pairs, .pack_b = fovea_bf16_gemm_pack_b__avx2, .name = "bf16_gemm_6x16_avx2"};

static const fovea_bf16_gemm_config avx512 = {
    .isa = FOVEA_ISA_AVX512, .mr = 8, .nr = 32, .k_align = 2, .ukernel = fovea_bf16_gemm_8x32__avx512,
    .pack_a = fovea_bf16_gemm_pack_a_pairs, .pack_b = fovea_bf16_gemm_pack_b__avx512,
    .name = "bf16_gemm_8x32_avx512"};

static const fovea_bf16_gemm_config avx512bf16_8 = {
    .isa = FOVEA_ISA_AVX512BF16, .mr = 8, .nr = 32, .k_align = 2, .ukernel = fovea_bf16_gemm_8x32__avx512bf16,
    .pack_a = fovea_bf16_gemm_pack_a_pairs, .pack_b = fovea_bf16_gemm_pack_b__avx512,
    .name = "bf16_gemm_8x32_avx512bf16"};

/*
 * 12 rows: each B panel row loaded serves 24 vdpbf16ps instead of 16. Alone on
 * L1-resident panels the 8, 12 and 14-row tiles all ran at the vdpbf16ps
 * peak on Zen 5; inside layers 12 rows won where M is a multiple of 12 or
 * large, 8 rows where 12 pads M by more (16, 64, 160, 256 channels), and 14
 * rows nowhere, so it was dropped (numbers in the results file above).
 */
static const fovea_bf16_gemm_config avx512bf16 = {
    .isa = FOVEA_ISA_AVX512BF16, .mr = 12, .nr = 32, .k_align = 2, .ukernel = fovea_bf16_gemm_12x32__avx512bf16,
    .pack_a = fovea_bf16_gemm_pack_a_pairs, .pack_b = fovea_bf16_gemm_pack_b__avx512,
    .name = "bf16_gemm_12x32_avx512bf16", .fewer_rows = &avx512bf16_8};

#ifdef FOVEA_HAVE_AMX_KERNEL
static const fovea_bf16_gemm_config amx = {
    .isa = FOVEA_ISA_AMX, .mr = 32, .nr = 32, .k_align = 32, .ukernel = fovea_bf16_gemm_32x32__amx,
    .pack_a = fovea_bf16_gemm_pack_a_k32, .pack_b = fovea_bf16_gemm_pack_b__avx512, .name = "bf16_gemm_32x32_amx"};
#endif
#endif

static const fovea_bf16_gemm_config *const configs[FOVEA_ISA_COUNT] = {
    [FOVEA_ISA_SCALAR] = &scalar,
#if FOVEA_HAVE_X86_VARIANTS
    [FOVEA_ISA_AVX2] = &avx2,
    [FOVEA_ISA_AVX512] = &avx512,
    [FOVEA_ISA_AVX512BF16] = &avx512bf16,
#ifdef FOVEA_HAVE_AMX_KERNEL
    [FOVEA_ISA_AMX] = &amx,
#else
    [FOVEA_ISA_AMX] = &avx512bf16,
#endif
#endif
};

const fovea_bf16_gemm_config *fovea_bf16_gemm_config_for(fovea_isa isa) {
    return configs[fovea_bf16_config_row(isa)];
}

const fovea_bf16_gemm_config *fovea_bf16_gemm_config_active(void) {
    return fovea_bf16_gemm_config_for(fovea_active_isa());
}

static size_t padded(size_t m, size_t mr) { return (m + mr - 1) / mr * mr; }

/* The main tile unless it pads m by more than 2% beyond what fewer_rows pads. */
const fovea_bf16_gemm_config *fovea_bf16_gemm_config_for_rows(fovea_isa isa, size_t m) {
    const fovea_bf16_gemm_config *config = fovea_bf16_gemm_config_for(isa), *fewer = config->fewer_rows;
    if (fewer != NULL && (padded(m, config->mr) - padded(m, fewer->mr)) * 50 > m) return fewer;
    return config;
}

const fovea_bf16_gemm_config *fovea_bf16_gemm_config_with_mr(fovea_isa isa, size_t mr) {
    const fovea_bf16_gemm_config *config = fovea_bf16_gemm_config_for(isa);
    if (config->mr == mr) return config;
    return config->fewer_rows != NULL && config->fewer_rows->mr == mr ? config->fewer_rows : NULL;
}
