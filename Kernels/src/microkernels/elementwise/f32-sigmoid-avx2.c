/*
 * Sigmoid with AVX2 + FMA: the AVX-512 scheme (exp-avx2.h for exp(-|x|),
 * then (x > 0 ? 1 : e) / (1 + e)). 16 elements per iteration, a masked tail.
 */
#include "elementwise.h"
#include "exp-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline FOVEA_TARGET_AVX2 __m256 sigmoid(__m256 x) {
    const __m256 one = _mm256_set1_ps(1.0f);
    const __m256 z = _mm256_or_ps(x, _mm256_set1_ps(-0.0f));
    const __m256 e = fovea_exp_nonpositive_avx2(z);
    const __m256 numerator = _mm256_blendv_ps(e, one, _mm256_cmp_ps(x, _mm256_setzero_ps(), _CMP_GT_OQ));
    return _mm256_div_ps(numerator, _mm256_add_ps(one, e));
}

FOVEA_TARGET_AVX2
void fovea_f32_sigmoid__avx2(size_t n, const float *x, float *y) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m256 v0 = _mm256_loadu_ps(x + i), v1 = _mm256_loadu_ps(x + i + 8);
        _mm256_storeu_ps(y + i, sigmoid(v0));
        _mm256_storeu_ps(y + i + 8, sigmoid(v1));
    }
    for (; i + 8 <= n; i += 8) _mm256_storeu_ps(y + i, sigmoid(_mm256_loadu_ps(x + i)));
    if (i < n) {
        const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(n - i)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        _mm256_maskstore_ps(y + i, m, sigmoid(_mm256_maskload_ps(x + i, m)));
    }
}

#endif
