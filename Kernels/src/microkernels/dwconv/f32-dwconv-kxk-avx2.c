/*
 * Depthwise convolution of one plane with AVX2 + FMA for any kernel size,
 * stride and dilation: 8 output columns at a time, one vector of taps per
 * (kh, kw) read with a masked load (stride 1), two masked loads and a
 * shuffle (stride 2) or a masked gather (larger strides). Masks keep every
 * read inside the row; rows wholly in the padding are skipped.
 */
#include "load-avx2.h"

#if FOVEA_HAVE_X86_VARIANTS

static inline FOVEA_TARGET_AVX2 __m256 load_taps(const float *row, int64_t start, int64_t stride, int64_t width,
                                                 __m256i mask, __m256i gather_index) {
    if (stride == 1) return _mm256_maskload_ps(row + start, mask);
    if (stride == 2) {
        const __m256 low = _mm256_maskload_ps(row + start, fovea_dw_row_mask_avx2(start, 1, width, 8));
        const __m256 high = _mm256_maskload_ps(row + start + 8, fovea_dw_row_mask_avx2(start + 8, 1, width, 8));
        const __m256 mixed = _mm256_shuffle_ps(low, high, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 evens = _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(mixed), _MM_SHUFFLE(3, 1, 2, 0)));
        return _mm256_and_ps(evens, _mm256_castsi256_ps(mask));
    }
    return _mm256_mask_i32gather_ps(_mm256_setzero_ps(), row + start, gather_index, _mm256_castsi256_ps(mask), 4);
}

FOVEA_TARGET_AVX2
void fovea_f32_dwconv_kxk__avx2(const fovea_conv2d_params *p, const float *x, const float *w, float bias, float *y,
                                size_t oh_begin, size_t oh_end, const fovea_epilogue *e) {
    const int64_t height = (int64_t)p->input_height, width = (int64_t)p->input_width;
    const int64_t out_width = (int64_t)p->output_width;
    const int64_t kh_count = (int64_t)p->kernel_height, kw_count = (int64_t)p->kernel_width;
    const int64_t sh = (int64_t)p->stride_height, sw = (int64_t)p->stride_width;
    const int64_t dh = (int64_t)p->dilation_height, dw = (int64_t)p->dilation_width;
    const int64_t pt = (int64_t)p->pad_top, pl = (int64_t)p->pad_left;
    const __m256 vbias = _mm256_set1_ps(bias);
    const fovea_epilogue epi = *e; /* a local copy: stores to y cannot change it */
    const __m256i gather_index =
        _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), _mm256_set1_epi32((int)sw));

    for (int64_t ow0 = 0; ow0 < out_width; ow0 += 8) {
        const int64_t n = out_width - ow0 < 8 ? out_width - ow0 : 8;
        const int64_t c = ow0 * sw - pl;
        const __m256i all = fovea_dw_mask_avx2((fovea_dw_lanes){0, n});
        const int inside = c >= 0 && c + (n - 1) * sw + (kw_count - 1) * dw < width;
        for (int64_t oh = (int64_t)oh_begin; oh < (int64_t)oh_end; oh++) {
            const fovea_dw_taps rows = fovea_dw_axis_taps(oh, height, kh_count, sh, dh, pt);
            const int64_t ih0 = oh * sh - pt;
            __m256 acc = vbias;
            for (int64_t kw = 0; kw < kw_count; kw++) {
                const int64_t start = c + kw * dw;
                const fovea_dw_lanes lanes = fovea_dw_valid_lanes(start, sw, width, n);
                if (lanes.hi <= lanes.lo) continue;
                const __m256i mask = inside ? all : fovea_dw_mask_avx2(lanes);
                for (int64_t kh = rows.first; kh < rows.end; kh++) {
                    const __m256 v = load_taps(x + (ih0 + kh * dh) * width, start, sw, width, mask, gather_index);
                    acc = _mm256_fmadd_ps(v, _mm256_set1_ps(w[kh * kw_count + kw]), acc);
                }
            }
            const __m256 v = fovea_epilogue_avx2(acc, &epi);
            fovea_dw_store_avx2(y + oh * out_width + ow0, v, n);
        }
    }
}

#endif
