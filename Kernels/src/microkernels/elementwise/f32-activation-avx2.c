/*
 * ReLU / Clip / LeakyReLU over a contiguous range with AVX2: 16 elements per
 * iteration and a masked tail, through the shared epilogue
 * (../gemm/epilogue-avx2.h); bit-identical to the scalar loop.
 */
#include "elementwise.h"
#include "../gemm/epilogue-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

FOVEA_TARGET_AVX2
void fovea_f32_activation__avx2(size_t n, const float *x, float *y, const fovea_epilogue *e) {
    const fovea_epilogue ep = *e;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 v0 = _mm256_loadu_ps(x + i), v1 = _mm256_loadu_ps(x + i + 8);
        _mm256_storeu_ps(y + i, fovea_epilogue_avx2(v0, &ep));
        _mm256_storeu_ps(y + i + 8, fovea_epilogue_avx2(v1, &ep));
    }
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, fovea_epilogue_avx2(_mm256_loadu_ps(x + i), &ep));
    if (i < n) {
        const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n - i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        _mm256_maskstore_ps(y + i, m, fovea_epilogue_avx2(_mm256_maskload_ps(x + i, m), &ep));
    }
}

#endif
