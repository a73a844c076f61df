/*
 * Pooling on 8-bit quantized tensors (fovea_qpool.h) against naive loops
 * written here from the definitions, byte for byte: max pooling over uint8
 * and int8 (padding, dilation, windows of only padding, strided and ragged
 * shapes, 1 and 2 threads), and QLinearGlobalAveragePool with MLAS's
 * arithmetic (zero points at both ends, plane sizes up to 4096, scales that
 * saturate), plus bad arguments.
 */
#include "support/test_support.h"

static void reference_maxpool(const fovea_pool2d_params *p, int s8, const uint8_t *x, uint8_t *y) {
    for (size_t plane = 0; plane < p->batch * p->channels; plane++) {
        for (size_t oh = 0; oh < p->output_height; oh++) {
            for (size_t ow = 0; ow < p->output_width; ow++) {
                int best = s8 ? -128 : 0;
                for (size_t kh = 0; kh < p->kernel_height; kh++) {
                    for (size_t kw = 0; kw < p->kernel_width; kw++) {
                        const long ih = (long)(oh * p->stride_height + kh * p->dilation_height) - (long)p->pad_top;
                        const long iw = (long)(ow * p->stride_width + kw * p->dilation_width) - (long)p->pad_left;
                        if (ih < 0 || iw < 0 || ih >= (long)p->input_height || iw >= (long)p->input_width) continue;
                        const uint8_t b = x[(plane * p->input_height + (size_t)ih) * p->input_width + (size_t)iw];
                        const int v = s8 ? (int8_t)b : b;
                        if (v > best) best = v;
                    }
                }
                y[(plane * p->output_height + oh) * p->output_width + ow] = (uint8_t)best;
            }
        }
    }
}

static void check_maxpool(test_rng *rng) {
    for (int i = 0; i < 120; i++) {
        /* The last cases have rows about 4096 bytes wide, on both sides of the widest
         * row the kernel takes column maxima for (wider rows test each tap). */
        const int wide = i >= 110;
        fovea_pool2d_params p = {0};
        p.batch = (size_t)rng_int(rng, 1, 2);
        p.channels = wide ? 1 : (size_t)rng_int(rng, 1, 6);
        p.input_height = (size_t)rng_int(rng, 1, wide ? 4 : 20);
        p.input_width = (size_t)(wide ? rng_int(rng, 4090, 4102) : rng_int(rng, 1, 20));
        p.kernel_height = (size_t)rng_int(rng, 1, 3);
        p.kernel_width = (size_t)rng_int(rng, 1, 3);
        p.stride_height = (size_t)rng_int(rng, 1, 2);
        p.stride_width = (size_t)rng_int(rng, 1, 2);
        p.dilation_height = p.dilation_width = (size_t)rng_int(rng, 1, 2);
        p.pad_top = p.pad_bottom = (size_t)rng_int(rng, 0, 3); /* 3 > a 1-tap window: windows of only padding */
        p.pad_left = p.pad_right = (size_t)rng_int(rng, 0, 2);
        const long oh = ((long)(p.input_height + 2 * p.pad_top) - (long)(p.dilation_height * (p.kernel_height - 1) + 1)) / (long)p.stride_height + 1;
        const long ow = ((long)(p.input_width + 2 * p.pad_left) - (long)(p.dilation_width * (p.kernel_width - 1) + 1)) / (long)p.stride_width + 1;
        if (oh <= 0 || ow <= 0) continue;
        p.output_height = (size_t)oh;
        p.output_width = (size_t)ow;
        const size_t xn = p.batch * p.channels * p.input_height * p.input_width;
        const size_t yn = p.batch * p.channels * p.output_height * p.output_width;
        uint8_t *x = malloc(xn), *got = malloc(yn + 1), *want = malloc(yn);
        for (size_t j = 0; j < xn; j++) x[j] = (uint8_t)rng_int(rng, 0, 255);
        for (int s8 = 0; s8 < 2; s8++) {
            memset(got, 0xEE, yn + 1);
            reference_maxpool(&p, s8, x, want);
            CHECK_STATUS(fovea_maxpool2d_q8(&p, s8 ? FOVEA_QTYPE_S8 : FOVEA_QTYPE_U8, x, got, test_pool((size_t)(i % 3))),
                         FOVEA_STATUS_OK);
            CHECK(memcmp(got, want, yn) == 0 && got[yn] == 0xEE, "maxpool %s case %d differs", s8 ? "s8" : "u8", i);
        }
        free(x), free(got), free(want);
    }
    fovea_pool2d_params p = {1, 1, 2, 2, 1, 1, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0, 0};
    uint8_t x[4] = {0}, y[1];
    CHECK_STATUS(fovea_maxpool2d_q8(NULL, FOVEA_QTYPE_U8, x, y, NULL), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_maxpool2d_q8(&p, (fovea_qtype)5, x, y, NULL), FOVEA_STATUS_INVALID_PARAMETER);
    p.stride_width = 0;
    CHECK_STATUS(fovea_maxpool2d_q8(&p, FOVEA_QTYPE_U8, x, y, NULL), FOVEA_STATUS_INVALID_PARAMETER);
}

/* MLAS's QLinearGlobalAveragePool from its definition, in the input's own type. */
static uint8_t reference_global_average(const uint8_t *x, size_t size, int s8, float xs, int32_t xzp, float ys,
                                        int32_t yzp) {
    int64_t sum = 0;
    for (size_t i = 0; i < size; i++) sum += (s8 ? (int8_t)x[i] : x[i]) - xzp;
    const float scale = xs / (ys * (float)size);
    float v = nearbyintf((float)(int32_t)sum * scale) + (float)yzp;
    const float lo = s8 ? -128.0f : 0.0f, hi = s8 ? 127.0f : 255.0f;
    v = v < lo ? lo : v > hi ? hi : v;
    return (uint8_t)(int32_t)v;
}

static void check_global_average(test_rng *rng) {
    const size_t sizes[] = {1, 7, 49, 169, 196, 3025, 4096};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        for (int i = 0; i < 12; i++) {
            const int s8 = i % 2;
            const size_t planes = (size_t)rng_int(rng, 1, 40), size = sizes[s];
            uint8_t *x = malloc(planes * size), *got = malloc(planes), *want = malloc(planes);
            const int extreme = i % 4;
            for (size_t j = 0; j < planes * size; j++) {
                x[j] = extreme == 2 ? (uint8_t)(s8 ? 0x7F : 0xFF) : extreme == 3 ? (uint8_t)(s8 ? 0x80 : 0) : (uint8_t)rng_int(rng, 0, 255);
            }
            const int32_t lo = s8 ? -128 : 0, hi = s8 ? 127 : 255;
            const int32_t xzp = i < 4 ? lo : i < 8 ? hi : (int32_t)rng_int(rng, lo, hi);
            const int32_t yzp = (int32_t)rng_int(rng, lo, hi);
            const float xs = 0.05f * exp2f(rng_float(rng)), ys = i == 11 ? xs / 200.0f : xs * (0.5f + 0.5f * (rng_float(rng) + 1.0f));
            for (size_t j = 0; j < planes; j++) want[j] = reference_global_average(x + j * size, size, s8, xs, xzp, ys, yzp);
            CHECK_STATUS(fovea_global_avgpool_q8(planes, size, s8 ? FOVEA_QTYPE_S8 : FOVEA_QTYPE_U8, xs, xzp, ys, yzp, x, got,
                                                 test_pool((size_t)(i % 3))),
                         FOVEA_STATUS_OK);
            CHECK(memcmp(got, want, planes) == 0, "global average size %zu case %d differs", size, i);
            free(x), free(got), free(want);
        }
    }
    uint8_t x[4] = {0}, y[1];
    CHECK_STATUS(fovea_global_avgpool_q8(1, 4, FOVEA_QTYPE_U8, 1.0f, 0, 1.0f, 0, NULL, y, NULL), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_global_avgpool_q8(1, 0, FOVEA_QTYPE_U8, 1.0f, 0, 1.0f, 0, x, y, NULL), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_global_avgpool_q8(1, 4, FOVEA_QTYPE_U8, 0.0f, 0, 1.0f, 0, x, y, NULL), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_global_avgpool_q8(1, 4, FOVEA_QTYPE_U8, 1.0f, 0, NAN, 0, x, y, NULL), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_global_avgpool_q8(1, 4, FOVEA_QTYPE_S8, 1.0f, 128, 1.0f, 0, x, y, NULL), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_global_avgpool_q8(1, 4, FOVEA_QTYPE_U8, 2000.0f, 0, 1.0f, 0, x, y, NULL), FOVEA_STATUS_INVALID_PARAMETER); /* 500 >= 256 */
    CHECK_STATUS(fovea_global_avgpool_q8(1, 1u << 24, FOVEA_QTYPE_U8, 1.0f, 0, 1.0f, 0, x, y, NULL), FOVEA_STATUS_INVALID_PARAMETER);
}

int main(void) {
    test_rng rng = {7};
    check_maxpool(&rng);
    check_global_average(&rng);
    return test_finish("qpool");
}
