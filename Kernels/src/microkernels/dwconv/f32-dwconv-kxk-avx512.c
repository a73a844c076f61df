/*
 * Depthwise convolution of one plane with AVX-512 for any kernel size, stride
 * and dilation: 16 output columns at a time, one vector of taps per (kh, kw)
 * read with a masked load (stride 1), two masked loads and a permute
 * (stride 2) or a masked gather (larger strides). Masks come from the lanes
 * whose tap lies inside the row, so padding reads as zero and nothing outside
 * the plane is touched; rows wholly in the padding are skipped.
 */
#include "load-avx512.h"

#if FOVEA_HAVE_X86_VARIANTS

/* Lane l of the result gets row[start + l*stride] for the lanes of `mask`, else 0. */
static inline FOVEA_TARGET_AVX512 __m512 load_taps(const float *row, int64_t start, int64_t stride, int64_t width,
                                                   __mmask16 mask, __m512i gather_index) {
    if (stride == 1) return _mm512_maskz_loadu_ps(mask, row + start);
    if (stride == 2) {
        const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        /* Elements start + j, j < 32, inside the row; the permute keeps the even j of the lanes in `mask`. */
        const __m512 low = _mm512_maskz_loadu_ps(fovea_dw_row_mask_avx512(start, 1, width, 16), row + start);
        const __m512 high = _mm512_maskz_loadu_ps(fovea_dw_row_mask_avx512(start + 16, 1, width, 16), row + start + 16);
        return _mm512_maskz_permutex2var_ps(mask, low, evens, high);
    }
    return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mask, gather_index, row + start, 4);
}

FOVEA_TARGET_AVX512
void fovea_f32_dwconv_kxk__avx512(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                  size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width;
    const int64_t kh_count = (int64_t)p->kernel_height, kw_count = (int64_t)p->kernel_width;
    const int64_t sh = (int64_t)p->stride_height, sw = (int64_t)p->stride_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const int64_t pt = (int64_t)p->pad_top, pl = (int64_t)p->pad_left;
    const __m512 vbias = _mm512_set1_ps(bias);
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    const __m512i gather_index = _mm512_mullo_epi32(
        _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), _mm512_set1_epi32((int)sw));

    for (int64_t ow0 = 0; ow0 < out_width; ow0 += 16) {
        const int64_t n = out_width - ow0 < 16 ? out_width - ow0 : 16;
        const int64_t c = ow0 * sw - pl; /* input column of lane 0, tap 0 */
        const __mmask16 all = fovea_dw_mask_avx512((fovea_dw_lanes){0, n});
        /* Every tap of every lane inside the row: one mask for all kw. */
        const int inside = c >= 0 && c + (n - 1) * sw + (kw_count - 1) * dw < width;
        for (int64_t oh = (int64_t)oh_begin; oh < (int64_t)oh_end; oh++) {
            const fovea_dw_taps rows = fovea_dw_axis_taps(oh, height, kh_count, sh, dh, pt);
            const int64_t ih0 = oh * sh - pt;
            __m512 acc = vbias;
            for (int64_t kw = 0; kw < kw_count; kw++) {
                const int64_t start = c + kw * dw;
                const __mmask16 mask = inside ? all : fovea_dw_row_mask_avx512(start, sw, width, n);
                if (mask == 0) continue;
                for (int64_t kh = rows.first; kh < rows.end; kh++) {
                    const __m512 v = load_taps(x + (ih0 + kh * dh) * width, start, sw, width, mask, gather_index);
                    acc = _mm512_fmadd_ps(v, _mm512_set1_ps(w[kh * kw_count + kw]), acc);
                }
            }
            _mm512_mask_storeu_ps(y + oh * out_width + ow0, all, fovea_epilogue_avx512(acc, &epi));
        }
    }
}

#endif
