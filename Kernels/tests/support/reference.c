/* The naive references of reference.h. */
#include "reference.h"
#include "fovea_transpose.h"

#include <float.h>
#include <math.h>
#include <string.h>

void reference_conv2d(const fovea_conv2d_params *p, const float *w, const float *bias, const float *x, double *sum,
                      double *magnitude) {
    const size_t gc = p->channels / p->groups, gm = p->output_channels / p->groups;
    const long H = (long)p->input_height, W = (long)p->input_width;
    size_t i = 0;
    for (size_t n = 0; n < p->batch; n++) {
        for (size_t m = 0; m < p->output_channels; m++) {
            const size_t g = m / gm;
            for (size_t oh = 0; oh < p->output_height; oh++) {
                for (size_t ow = 0; ow < p->output_width; ow++, i++) {
                    double s = bias != NULL ? (double)bias[m] : 0.0, size = bias != NULL ? fabs((double)bias[m]) : 0.0;
                    for (size_t c = 0; c < gc; c++) {
                        const float *plane = x + (n * p->channels + g * gc + c) * (size_t)(H * W);
                        for (size_t kh = 0; kh < p->kernel_height; kh++) {
                            const long ih = (long)(oh * p->stride_height + kh * p->dilation_height) - (long)p->pad_top;
                            if (ih < 0 || ih >= H) continue;
                            for (size_t kw = 0; kw < p->kernel_width; kw++) {
                                const long iw =
                                    (long)(ow * p->stride_width + kw * p->dilation_width) - (long)p->pad_left;
                                if (iw < 0 || iw >= W) continue;
                                const double term =
                                    (double)w[((m * gc + c) * p->kernel_height + kh) * p->kernel_width + kw] *
                                    (double)plane[ih * W + iw];
                                s += term;
                                size += fabs(term);
                            }
                        }
                    }
                    sum[i] = s;
                    if (magnitude != NULL) magnitude[i] = size;
                }
            }
        }
    }
}

long reference_pool2d(const fovea_pool2d_params *p, const float *x, float *y, int is_max) {
    const long H = (long)p->input_height, W = (long)p->input_width;
    const long OH = (long)p->output_height, OW = (long)p->output_width;
    const long planes = (long)(p->batch * p->channels);
    long empty = 0;
    for (long plane = 0; plane < planes; plane++) {
        for (long oh = 0; oh < OH; oh++) {
            for (long ow = 0; ow < OW; ow++) {
                float max = -FLT_MAX, sum = 0.0f;
                long inside = 0, inside_padded = 0;
                for (long kh = 0; kh < (long)p->kernel_height; kh++) {
                    for (long kw = 0; kw < (long)p->kernel_width; kw++) {
                        const long ih = oh * (long)p->stride_height - (long)p->pad_top + kh * (long)p->dilation_height;
                        const long iw = ow * (long)p->stride_width - (long)p->pad_left + kw * (long)p->dilation_width;
                        if (ih < H + (long)p->pad_bottom && iw < W + (long)p->pad_right) inside_padded++;
                        if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                        inside++;
                        const float v = x[(plane * H + ih) * W + iw];
                        sum += v;
                        if (v > max) max = v;
                    }
                }
                if (inside == 0) empty++;
                const long divisor = p->count_include_pad ? inside_padded : inside;
                y[(plane * OH + oh) * OW + ow] = is_max ? max : divisor > 0 ? sum / (float)divisor : 0.0f;
            }
        }
    }
    return empty;
}

float reference_global_max(const float *x, size_t count) {
    float max = -INFINITY;
    for (size_t i = 0; i < count; i++) {
        if (x[i] >= max) max = x[i];
    }
    return max;
}

float reference_global_average(const float *x, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; i++) sum += x[i];
    return (float)(sum / (double)count);
}

void reference_softmax(size_t outer, size_t axis, size_t inner, const float *x, double *want, double *spread,
                       int take_log) {
    for (size_t o = 0; o < outer; o++) {
        for (size_t j = 0; j < inner; j++) {
            const float *slice = x + o * axis * inner + j;
            double *out = want + o * axis * inner + j;
            double max = -INFINITY;
            int nan = 0;
            for (size_t k = 0; k < axis; k++) {
                const double v = slice[k * inner];
                if (v != v || v == INFINITY) nan = 1;
                else if (v > max) max = v;
            }
            if (max == -INFINITY) nan = 1; /* only -inf: 0/0 */
            double sum = 0;
            for (size_t k = 0; k < axis && !nan; k++) sum += exp((double)slice[k * inner] - max);
            for (size_t k = 0; k < axis; k++) {
                const double v = slice[k * inner];
                spread[(o * axis + k) * inner + j] = isinf(v) ? 0.0 : fabs(v - max);
                if (nan) out[k * inner] = NAN;
                else out[k * inner] = take_log ? (v - max) - log(sum) : exp(v - max) / sum;
            }
        }
    }
}

double reference_dot(size_t n, const float *a, size_t a_stride, const float *b, size_t b_stride, double *magnitude) {
    double sum = 0, size = 0;
    for (size_t k = 0; k < n; k++) {
        const double term = (double)a[k * a_stride] * b[k * b_stride];
        sum += term;
        size += fabs(term);
    }
    if (magnitude != NULL) *magnitude = size;
    return sum;
}

float reference_binary_op(fovea_binary_op op, float a, float b) {
    /* volatile: one rounding per operation, as in the kernels */
    volatile float r;
    switch (op) {
    case FOVEA_BINARY_ADD: r = a + b; break;
    case FOVEA_BINARY_SUB: r = a - b; break;
    case FOVEA_BINARY_MUL: r = a * b; break;
    case FOVEA_BINARY_DIV: r = a / b; break;
    /* ONNX Max/Min: NaN if either is; between equals, Max gives b and Min gives a (Swift.max / Swift.min). */
    case FOVEA_BINARY_MAX: r = isnan(a) || isnan(b) ? NAN : (b >= a ? b : a); break;
    case FOVEA_BINARY_MIN: r = isnan(a) || isnan(b) ? NAN : (b < a ? b : a); break;
    default: r = powf(a, b); break;
    }
    return r;
}

void reference_binary(fovea_binary_op op, size_t a_rank, const size_t *a_shape, const float *a, size_t b_rank,
                      const size_t *b_shape, const float *b, size_t rank, const size_t *y_shape, float *y) {
    size_t count = 1;
    for (size_t d = 0; d < rank; d++) count *= y_shape[d];
    size_t index[8] = {0};
    for (size_t i = 0; i < count; i++) {
        size_t rest = i;
        for (size_t d = rank; d-- > 0;) {
            index[d] = rest % y_shape[d];
            rest /= y_shape[d];
        }
        size_t ai = 0, bi = 0;
        for (size_t d = 0; d < rank; d++) {
            if (d >= rank - a_rank) {
                const size_t ad = a_shape[d - (rank - a_rank)];
                ai = ai * ad + (ad == 1 ? 0 : index[d]);
            }
            if (d >= rank - b_rank) {
                const size_t bd = b_shape[d - (rank - b_rank)];
                bi = bi * bd + (bd == 1 ? 0 : index[d]);
            }
        }
        y[i] = reference_binary_op(op, a[ai], b[bi]);
    }
}

void reference_channel_affine(size_t batch, size_t channels, size_t plane, const float *x, const float *scale,
                              const float *shift, float *y) {
    for (size_t i = 0; i < batch * channels * plane; i++) {
        const size_t c = i / plane % channels;
        const float product = x[i] * scale[c]; /* rounded, then the sum rounded */
        y[i] = product + shift[c];
    }
}

void reference_transpose(size_t rank, const size_t *shape, const size_t *perm, const float *x, float *y) {
    size_t count = 1, stride[FOVEA_TRANSPOSE_MAX_RANK], s = 1;
    for (size_t i = rank; i-- > 0;) stride[i] = s, s *= shape[i];
    for (size_t i = 0; i < rank; i++) count *= shape[perm[i]];
    for (size_t t = 0; t < count; t++) {
        size_t rest = t, in = 0;
        for (size_t i = rank; i-- > 0;) {
            const size_t d = shape[perm[i]];
            in += (rest % d) * stride[perm[i]];
            rest /= d;
        }
        y[t] = x[in];
    }
}

uint16_t reference_bf16_from_f32(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    const uint32_t kept = bits >> 16, dropped = bits & 0xFFFFu;
    if (isnan(value)) return (uint16_t)(kept | 0x0040u);
    if (dropped > 0x8000u || (dropped == 0x8000u && (kept & 1u))) return (uint16_t)(kept + 1u);
    return (uint16_t)kept;
}

float reference_round_to_bf16(float value) {
    const uint32_t bits = (uint32_t)reference_bf16_from_f32(value) << 16;
    float result;
    memcpy(&result, &bits, sizeof result);
    return result;
}

void reference_qconv2d(const fovea_conv2d_params *p, const fovea_qconv2d_quantization *q, const int8_t *w,
                       const int32_t *bias, const void *x, void *y, size_t y_batch_stride) {
    const size_t gc = p->channels / p->groups, gm = p->output_channels / p->groups;
    const long H = (long)p->input_height, W = (long)p->input_width;
    const uint8_t *xu = (const uint8_t *)x;
    const int8_t *xs = (const int8_t *)x;
    for (size_t n = 0; n < p->batch; n++) {
        for (size_t m = 0; m < p->output_channels; m++) {
            const size_t g = m / gm;
            const float w_scale = q->weight_scales[q->weight_scale_count == 1 ? 0 : m];
            const float scale = q->input_scale * w_scale / q->output_scale;
            for (size_t oh = 0; oh < p->output_height; oh++) {
                for (size_t ow = 0; ow < p->output_width; ow++) {
                    int64_t acc = bias != NULL ? bias[m] : 0;
                    for (size_t c = 0; c < gc; c++) {
                        for (size_t kh = 0; kh < p->kernel_height; kh++) {
                            for (size_t kw = 0; kw < p->kernel_width; kw++) {
                                const long ih = (long)(oh * p->stride_height + kh * p->dilation_height) - (long)p->pad_top;
                                const long iw = (long)(ow * p->stride_width + kw * p->dilation_width) - (long)p->pad_left;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W) continue;
                                const size_t xi = ((n * p->channels + g * gc + c) * (size_t)H + (size_t)ih) * (size_t)W + (size_t)iw;
                                const int32_t xv = q->input_type == FOVEA_QTYPE_U8 ? xu[xi] : xs[xi];
                                const int32_t wv = w[((m * gc + c) * p->kernel_height + kh) * p->kernel_width + kw];
                                acc += (int64_t)(xv - q->input_zero_point) * wv;
                            }
                        }
                    }
                    const int32_t wrapped = (int32_t)(uint32_t)(uint64_t)acc;
                    float v = (float)wrapped * scale;
                    const float lo = (float)(q->output_min - q->output_zero_point);
                    const float hi = (float)(q->output_max - q->output_zero_point);
                    v = v < lo ? lo : v > hi ? hi : v;
                    const int32_t out = (int32_t)nearbyintf(v) + q->output_zero_point;
                    uint8_t *yb = (uint8_t *)y + n * y_batch_stride + (m * p->output_height + oh) * p->output_width + ow;
                    *yb = q->output_type == FOVEA_QTYPE_U8 ? (uint8_t)out : (uint8_t)(int8_t)out;
                }
            }
        }
    }
}
