/*
 * B panels of the int8 GEMM from k-major rows of uint8 (an image's channel
 * planes, or an im2col block): panel j, k-group g, column n, lane r at
 * dst[j·k_padded·NR + g·NR·b_kr + n·b_kr + r] = src[(g·b_kr + r)·src_stride + j·NR + n] ^ flip.
 * k in [K, k_padded) and columns past `count` are written as 0.
 */
#include "gemm-qs8.h"

#include <string.h>

void fovea_qs8_gemm_pack_b__scalar(size_t k, size_t k_padded, size_t count, const uint8_t *src, size_t src_stride,
                                   uint8_t flip, size_t nr, size_t b_kr, uint8_t *dst) {
    const size_t panels = (count + nr - 1) / nr;
    memset(dst, 0, panels * k_padded * nr);
    for (size_t kk = 0; kk < k; kk++) {
        const uint8_t *row = src + kk * src_stride;
        uint8_t *out = dst + kk / b_kr * nr * b_kr + kk % b_kr;
        for (size_t n = 0; n < count; n++) out[n / nr * k_padded * nr + n % nr * b_kr] = row[n] ^ flip;
    }
}
