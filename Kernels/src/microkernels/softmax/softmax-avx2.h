/* Lane helpers shared by the AVX2 + FMA softmax row and column kernels. */
#ifndef FOVEA_SOFTMAX_AVX2_H
#define FOVEA_SOFTMAX_AVX2_H
#include "softmax.h"
#include "../elementwise/exp-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline FOVEA_TARGET_AVX2 __m256i low_lanes(size_t count) {
    const size_t c = count > 8 ? 8 : count;
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)c), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

static inline FOVEA_TARGET_AVX2 float horizontal_max(__m256 v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    m = _mm_max_ss(m, _mm_movehdup_ps(m));
    return _mm_cvtss_f32(m);
}

static inline FOVEA_TARGET_AVX2 float horizontal_sum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

#endif

#endif /* FOVEA_SOFTMAX_AVX2_H */
