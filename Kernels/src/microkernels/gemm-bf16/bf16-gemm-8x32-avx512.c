/*
 * bf16_gemm_8x32_avx512: bf16 weights on CPUs without AVX512_BF16. The pairs
 * are widened to fp32 and multiplied with FMAs (bf16-gemm-avx512.h): the
 * fp32 tile's arithmetic on half the bytes of weights.
 */
#include "../../runtime/runtime.h"

#if FOVEA_HAVE_X86_VARIANTS
#define FOVEA_BF16_TARGET FOVEA_TARGET_AVX512
#define FOVEA_BF16_DOT 0
#include "bf16-gemm-avx512.h"

FOVEA_BF16_TILE(fovea_bf16_gemm_8x32__avx512, 8)
#endif
