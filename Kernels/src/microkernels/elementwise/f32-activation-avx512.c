/*
 * ReLU / Clip / LeakyReLU over a contiguous range with AVX-512: 32 elements
 * per iteration and a masked tail, through the shared epilogue
 * (../gemm/epilogue-avx512.h); bit-identical to the scalar loop.
 */
#include "elementwise.h"
#include "../gemm/epilogue-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

FOVEA_TARGET_AVX512
void fovea_f32_activation__avx512(size_t n, const float *x, float *y, const fovea_epilogue *e) {
    const fovea_epilogue ep = *e;
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 v0 = _mm512_loadu_ps(x + i), v1 = _mm512_loadu_ps(x + i + 16);
        _mm512_storeu_ps(y + i, fovea_epilogue_avx512(v0, &ep));
        _mm512_storeu_ps(y + i + 16, fovea_epilogue_avx512(v1, &ep));
    }
    for (; i < n; i += 16) {
        const __mmask16 m = n - i >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (n - i)) - 1u);
        _mm512_mask_storeu_ps(y + i, m, fovea_epilogue_avx512(_mm512_maskz_loadu_ps(m, x + i), &ep));
    }
}

#endif
