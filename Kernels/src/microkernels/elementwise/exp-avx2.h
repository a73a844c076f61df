/*
 * exp(z) for z <= 0 with AVX2 + FMA, shared by sigmoid and softmax. Include
 * only from *-avx2.c files.
 *
 * The AVX-512 scheme (exp-avx512.h) without scalef: 2^n, -151 <= n <= 0, is
 * applied as two normal powers of two, 2^(n - n/2) and 2^(n/2); the first
 * product is exact, so a subnormal result is rounded once.
 */
#ifndef FOVEA_KERNELS_EXP_AVX2_H
#define FOVEA_KERNELS_EXP_AVX2_H

#include "../../runtime/runtime.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline FOVEA_TARGET_AVX2 __m256 fovea_exp_nonpositive_avx2(__m256 z) {
    z = _mm256_max_ps(_mm256_set1_ps(-104.5f), z);
    const __m256 n = _mm256_round_ps(_mm256_mul_ps(z, _mm256_set1_ps(0x1.715476p+0f)),
                                     _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256 r = _mm256_fmadd_ps(n, _mm256_set1_ps(-0x1.62E400p-1f), z);
    r = _mm256_fmadd_ps(n, _mm256_set1_ps(-0x1.7F7D1Cp-20f), r);
    __m256 q = _mm256_fmadd_ps(_mm256_set1_ps(0x1.a01a02p-13f), r, _mm256_set1_ps(0x1.6c16c2p-10f));
    q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(0x1.111112p-7f));
    q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(0x1.555556p-5f));
    q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(0x1.555556p-3f));
    q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(0.5f));
    q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(1.0f));
    q = _mm256_fmadd_ps(q, r, _mm256_set1_ps(1.0f));
    const __m256i ni = _mm256_cvtps_epi32(n); /* NaN: INT_MIN, a garbage scale; q is NaN then anyway */
    const __m256i half = _mm256_srai_epi32(ni, 1);
    const __m256i rest = _mm256_sub_epi32(ni, half);
    const __m256i bias = _mm256_set1_epi32(127);
    const __m256 s_half = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(half, bias), 23));
    const __m256 s_rest = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(rest, bias), 23));
    return _mm256_mul_ps(_mm256_mul_ps(q, s_rest), s_half);
}

#endif /* FOVEA_HAVE_X86_VARIANTS */

#endif
