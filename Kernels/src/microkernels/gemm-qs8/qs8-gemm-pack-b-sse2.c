/*
 * fovea_qs8_gemm_pack_b__scalar's layout for k-groups of 2 and 4 and panels
 * of 16 or 32 columns, with byte interleaves: per 16 columns, 2 (or 4) rows
 * loaded and unpacked into 32 (or 64) bytes of pairs (or quads). SSE2 is in
 * every x86-64 CPU, so this needs no target attribute. Other layouts (the AMX
 * one's k-groups of 64), ragged panels and the last partial k-group go
 * through the scalar packer's loop.
 */
#include "gemm-qs8.h"

#if FOVEA_HAVE_X86_VARIANTS
#include <emmintrin.h>
#include <string.h>

static inline __m128i row16(const uint8_t *p, __m128i flip) {
    return _mm_xor_si128(_mm_loadu_si128((const __m128i *)p), flip);
}

void fovea_qs8_gemm_pack_b__sse2(size_t k, size_t k_padded, size_t count, const uint8_t *src, size_t src_stride,
                                 uint8_t flip, size_t nr, size_t b_kr, uint8_t *dst) {
    if ((b_kr != 2 && b_kr != 4) || nr % 16 != 0) {
        fovea_qs8_gemm_pack_b__scalar(k, k_padded, count, src, src_stride, flip, nr, b_kr, dst);
        return;
    }
    const __m128i vflip = _mm_set1_epi8((char)flip);
    const size_t panels = (count + nr - 1) / nr, full_groups = k / b_kr;
    memset(dst, 0, panels * k_padded * nr);
    for (size_t j = 0; j < panels; j++) {
        uint8_t *panel = dst + j * k_padded * nr;
        for (size_t c0 = 0; c0 < nr; c0 += 16) {
            const size_t column = j * nr + c0;
            if (column + 16 > count) { /* ragged: byte by byte */
                for (size_t kk = 0; kk < k; kk++) {
                    for (size_t n = column; n < count; n++) {
                        panel[kk / b_kr * nr * b_kr + (n - j * nr) * b_kr + kk % b_kr] = src[kk * src_stride + n] ^ flip;
                    }
                }
                continue;
            }
            for (size_t g = 0; g < full_groups; g++) {
                const uint8_t *s = src + g * b_kr * src_stride + column;
                uint8_t *d = panel + g * nr * b_kr + c0 * b_kr;
                const __m128i r0 = row16(s, vflip), r1 = row16(s + src_stride, vflip);
                if (b_kr == 2) {
                    _mm_storeu_si128((__m128i *)d, _mm_unpacklo_epi8(r0, r1));
                    _mm_storeu_si128((__m128i *)(d + 16), _mm_unpackhi_epi8(r0, r1));
                } else {
                    const __m128i r2 = row16(s + 2 * src_stride, vflip), r3 = row16(s + 3 * src_stride, vflip);
                    const __m128i lo01 = _mm_unpacklo_epi8(r0, r1), lo23 = _mm_unpacklo_epi8(r2, r3);
                    const __m128i hi01 = _mm_unpackhi_epi8(r0, r1), hi23 = _mm_unpackhi_epi8(r2, r3);
                    _mm_storeu_si128((__m128i *)d, _mm_unpacklo_epi16(lo01, lo23));
                    _mm_storeu_si128((__m128i *)(d + 16), _mm_unpackhi_epi16(lo01, lo23));
                    _mm_storeu_si128((__m128i *)(d + 32), _mm_unpacklo_epi16(hi01, hi23));
                    _mm_storeu_si128((__m128i *)(d + 48), _mm_unpackhi_epi16(hi01, hi23));
                }
            }
            for (size_t kk = full_groups * b_kr; kk < k; kk++) { /* the last partial group */
                for (size_t n = 0; n < 16; n++) {
                    panel[kk / b_kr * nr * b_kr + (c0 + n) * b_kr + kk % b_kr] = src[kk * src_stride + column + n] ^ flip;
                }
            }
        }
    }
}
#endif
