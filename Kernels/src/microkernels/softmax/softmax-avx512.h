/* Lane helpers shared by the AVX-512 softmax row and column kernels. */
#ifndef FOVEA_SOFTMAX_AVX512_H
#define FOVEA_SOFTMAX_AVX512_H
#include "softmax.h"
#include "../elementwise/exp-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <immintrin.h>

static inline FOVEA_TARGET_AVX512 __mmask16 low_lanes(size_t count) {
    return count >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << count) - 1u);
}

#endif

#endif /* FOVEA_SOFTMAX_AVX512_H */
