/* bf16_gemm_8x32_avx512bf16: 8 rows × 32 columns with vdpbf16ps (bf16-gemm-avx512.h). */
#include "../../runtime/runtime.h"

#if FOVEA_HAVE_X86_VARIANTS
#define FOVEA_BF16_TARGET FOVEA_TARGET_AVX512BF16
#define FOVEA_BF16_DOT 1
#include "bf16-gemm-avx512.h"

FOVEA_BF16_TILE(fovea_bf16_gemm_8x32__avx512bf16, 8)
#endif
