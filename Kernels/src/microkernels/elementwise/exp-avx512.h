/*
 * exp(z) for z <= 0 with AVX-512F, shared by sigmoid and softmax. Include
 * only from *-avx512.c files.
 *
 * Range reduction z = n·ln2 + r, |r| <= ln2/2 (ln2 in two parts, so n·ln2 is
 * exact enough), the degree-7 Taylor polynomial of e^r (truncation error below
 * 0.05 ulp; a degree-5 minimax polynomial left sigmoid at 3 ulp), and scalef
 * for the 2^n scaling, which rounds once even when the result is subnormal.
 * About 1 ulp overall. z is first clamped at -104.5 (e^z then
 * rounds to 0 anyway); max(lo, z) keeps a NaN z, so NaN gives NaN and -inf
 * gives 0. e^0 is exactly 1.
 */
#ifndef FOVEA_KERNELS_EXP_AVX512_H
#define FOVEA_KERNELS_EXP_AVX512_H

#include "../../runtime/runtime.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline FOVEA_TARGET_AVX512 __m512 fovea_exp_nonpositive_avx512(__m512 z) {
    z = _mm512_max_ps(_mm512_set1_ps(-104.5f), z);
    const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(z, _mm512_set1_ps(0x1.715476p+0f)),
                                          _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m512 r = _mm512_fmadd_ps(n, _mm512_set1_ps(-0x1.62E400p-1f), z);
    r = _mm512_fmadd_ps(n, _mm512_set1_ps(-0x1.7F7D1Cp-20f), r);
    __m512 q = _mm512_fmadd_ps(_mm512_set1_ps(0x1.a01a02p-13f), r, _mm512_set1_ps(0x1.6c16c2p-10f));
    q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(0x1.111112p-7f));
    q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(0x1.555556p-5f));
    q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(0x1.555556p-3f));
    q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(0.5f));
    q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(1.0f));
    q = _mm512_fmadd_ps(q, r, _mm512_set1_ps(1.0f));
    return _mm512_scalef_ps(q, n);
}

#endif /* FOVEA_HAVE_X86_VARIANTS */

#endif
