/*
 * Depthwise int8 convolution, stride 1 and dilation 1, any k×k, on AVX2:
 * 16 outputs of a row at a time where all their taps lie inside the input row
 * (the rest, at the left and right edges, through the scalar loop). Rows of
 * taps outside the input are skipped: they would add zero. Per tap: 16 bytes
 * zero-extended to int16, minus the zero point, times the broadcast weight
 * with vpmullw: |x − zp| ≤ 255 and |w| ≤ 128 make each product fit int16
 * (≤ 32640), then widened to int32 and added, so the sum is exact.
 */
#include "dwconv-qs8.h"

#if FOVEA_HAVE_X86_VARIANTS
#include "../gemm-qs8/requant-avx2.h"

/* Outputs [ow, hi) of row oh, 16 at a time (every tap inside the row); returns where it stopped. */
FOVEA_TARGET_AVX2 static size_t vector_row(const fovea_qs8_dwconv_plane *p, size_t oh, size_t ow, size_t hi,
                                           uint8_t *y) {
    const __m256i zero_point = _mm256_set1_epi16((short)p->zero_point);
    const __m128i flip = _mm_set1_epi8((char)p->input_xor);
    for (; ow + 16 <= hi; ow += 16) {
        __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
        for (size_t kh = 0; kh < p->kernel_height; kh++) {
            const long ih = (long)(oh + kh) - (long)p->pad_top;
            if (ih < 0 || ih >= (long)p->input_height) continue;
            const uint8_t *row = p->x + (size_t)ih * p->input_width + (ow - p->pad_left);
            const int8_t *w = p->weights + kh * p->kernel_width;
            for (size_t kw = 0; kw < p->kernel_width; kw++) {
                const __m128i bytes = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(row + kw)), flip);
                const __m256i d = _mm256_sub_epi16(_mm256_cvtepu8_epi16(bytes), zero_point);
                const __m256i product = _mm256_mullo_epi16(d, _mm256_set1_epi16(w[kw]));
                acc0 = _mm256_add_epi32(acc0, _mm256_cvtepi16_epi32(_mm256_castsi256_si128(product)));
                acc1 = _mm256_add_epi32(acc1, _mm256_cvtepi16_epi32(_mm256_extracti128_si256(product, 1)));
            }
        }
        qs8_store_row16_avx2(acc0, acc1, 0, &p->requant, y + ow, 16);
    }
    return ow;
}

FOVEA_TARGET_AVX2 void fovea_qs8_dwconv_kxks1__avx2(const fovea_qs8_dwconv_plane *p) {
    if (p->stride_height != 1 || p->stride_width != 1 || p->dilation_height != 1 || p->dilation_width != 1) {
        fovea_qs8_dwconv_kxk__scalar(p);
        return;
    }
    /* Output columns [lo, hi) read input columns ow − pad_left .. ow − pad_left + KW − 1, all inside. */
    const size_t lo = p->pad_left < p->output_width ? p->pad_left : p->output_width;
    size_t hi = p->input_width + p->pad_left >= p->kernel_width ? p->input_width + p->pad_left - p->kernel_width + 1 : 0;
    hi = hi < p->output_width ? hi : p->output_width;
    hi = hi > lo ? hi : lo;
    for (size_t oh = 0; oh < p->output_height; oh++) {
        uint8_t *y = p->y + oh * p->output_width;
        size_t ow = 0;
        for (; ow < lo; ow++) y[ow] = fovea_qs8_dwconv_output(p, oh, ow);
        ow = vector_row(p, oh, ow, hi, y);
        for (; ow < p->output_width; ow++) y[ow] = fovea_qs8_dwconv_output(p, oh, ow);
    }
}
#endif
