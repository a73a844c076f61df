/*
 * The fused epilogue on 16 floats, for AVX-512 variants (include only from
 * *-avx512.c files). Same results as fovea_epilogue_apply in gemm.h.
 */
#ifndef FOVEA_KERNELS_EPILOGUE_AVX512_H
#define FOVEA_KERNELS_EPILOGUE_AVX512_H

#include "gemm.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline FOVEA_TARGET_AVX512 __m512 fovea_epilogue_avx512(__m512 v, const fovea_epilogue *e) {
    if (e->leaky) {
        const __mmask16 negative = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_LT_OQ);
        v = _mm512_mask_mul_ps(v, negative, v, _mm512_set1_ps(e->alpha));
    }
    /* MAXPS returns its second operand when either is NaN: (v, lo) maps NaN to lo (ReLU), (lo, v) keeps it. */
    const __m512 lo = _mm512_set1_ps(e->lo);
    v = e->relu ? _mm512_max_ps(v, lo) : _mm512_max_ps(lo, v);
    return _mm512_min_ps(_mm512_set1_ps(e->hi), v);
}
#endif
#endif
