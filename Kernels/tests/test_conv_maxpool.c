/*
 * fovea_conv2d_maxpool_f32 against the unfused pair (fovea_conv2d_f32, then
 * fovea_maxpool2d_f32) on random shapes with odd sizes, paddings, strides,
 * dilations, batches and thread counts, for every ISA this machine has: the
 * results must be the same bits (the fused run uses the same microkernels
 * and the same pooling code, on a rolling buffer of rows). Then the stem of
 * SqueezeNet 1.1, the shapes the kernel is for, and bad parameters.
 */
#include "support/test_support.h"

static long cases_run = 0;

static size_t pool_out(size_t in, size_t k, size_t s, size_t d, size_t pad0, size_t pad1) {
    const size_t window = (k - 1) * d + 1;
    return in + pad0 + pad1 < window ? 0 : (in + pad0 + pad1 - window) / s + 1;
}

static void run_case(test_rng *rng, const fovea_conv2d_params *p, const fovea_pool2d_params *q, int relu,
                     int with_bias, size_t threads) {
    if (!fovea_conv2d_maxpool_supported(p, q)) return;
    const size_t wn = p->output_channels * p->channels * p->kernel_height * p->kernel_width;
    const size_t xn = p->batch * p->channels * p->input_height * p->input_width;
    const size_t cn = p->batch * p->output_channels * p->output_height * p->output_width;
    const size_t yn = q->batch * q->channels * q->output_height * q->output_width;
    float *w = malloc(wn * sizeof(float)), *x = malloc(xn * sizeof(float)), *bias = malloc(p->output_channels * 4);
    float *conv = malloc(cn * sizeof(float)), *expected = malloc(yn * sizeof(float));
    for (size_t i = 0; i < wn; i++) w[i] = rng_float(rng);
    for (size_t i = 0; i < xn; i++) x[i] = rng_float(rng);
    for (size_t i = 0; i < p->output_channels; i++) bias[i] = rng_float(rng);
    const fovea_activation act = {relu ? FOVEA_ACTIVATION_RELU : FOVEA_ACTIVATION_NONE, 0, 0, 0};

    const size_t packed_bytes = fovea_conv2d_packed_size(p);
    void *packed = aligned_alloc(64, (packed_bytes + 63) / 64 * 64);
    CHECK_STATUS(fovea_conv2d_pack(p, w, with_bias ? bias : NULL, packed, packed_bytes), FOVEA_STATUS_OK);
    const size_t conv_ws = fovea_conv2d_workspace_size(packed, threads);
    void *ws = aligned_alloc(64, (conv_ws + 63) / 64 * 64 + 64);
    CHECK_STATUS(fovea_conv2d_f32(p, packed, x, conv, cn / p->batch, NULL, &act, ws, conv_ws, test_pool(threads)),
                 FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_maxpool2d_f32(q, conv, expected, test_pool(1)), FOVEA_STATUS_OK);
    free(ws);

    const size_t fused_ws = fovea_conv2d_maxpool_workspace_size(packed, q, threads);
    CHECK(fused_ws > 0, "no workspace size");
    float *work = aligned_alloc(64, (fused_ws + 63) / 64 * 64 + 64);
    guarded_buffer y = guarded_alloc(yn, (size_t)rng_int(rng, 0, 3));
    CHECK_STATUS(fovea_conv2d_maxpool_f32(p, packed, q, x, y.data, NULL, &act, work, fused_ws, test_pool(threads)),
                 FOVEA_STATUS_OK);
    CHECK(guards_intact(&y), "write outside y");
    size_t mismatches = 0, first = 0;
    for (size_t i = 0; i < yn; i++) {
        if (!same_float(y.data[i], expected[i])) {
            if (mismatches++ == 0) first = i;
        }
    }
    CHECK(mismatches == 0,
          "%zu/%zu differ (first %zu: %g vs %g); conv n%zu c%zu %zux%zu m%zu k%zux%zu s%zu,%zu pad %zu,%zu d%zu; "
          "pool k%zux%zu s%zu,%zu pad %zu,%zu,%zu,%zu d%zu -> %zux%zu; threads %zu",
          mismatches, yn, first, mismatches ? y.data[first] : 0.0, mismatches ? expected[first] : 0.0, p->batch,
          p->channels, p->input_height, p->input_width, p->output_channels, p->kernel_height, p->kernel_width,
          p->stride_height, p->stride_width, p->pad_top, p->pad_left,
          p->dilation_height, q->kernel_height, q->kernel_width, q->stride_height, q->stride_width, q->pad_top,
          q->pad_left, q->pad_bottom, q->pad_right, q->dilation_height, q->output_height, q->output_width, threads);
    cases_run++;
    guarded_free(&y);
    free(work), free(packed), free(w), free(x), free(bias), free(conv), free(expected);
}

static fovea_pool2d_params pool_for(const fovea_conv2d_params *p, size_t k, size_t s, size_t d, size_t pt, size_t pl,
                                    size_t pb, size_t pr) {
    fovea_pool2d_params q;
    memset(&q, 0, sizeof q);
    q.batch = p->batch;
    q.channels = p->output_channels;
    q.input_height = p->output_height;
    q.input_width = p->output_width;
    q.kernel_height = q.kernel_width = k;
    q.stride_height = q.stride_width = s;
    q.dilation_height = q.dilation_width = d;
    q.pad_top = pt, q.pad_left = pl, q.pad_bottom = pb, q.pad_right = pr;
    q.output_height = pool_out(q.input_height, k, s, d, pt, pb);
    q.output_width = pool_out(q.input_width, k, s, d, pl, pr);
    return q;
}

/*
 * `wide`: many channels on larger planes, so a band holds a few rows only and
 * every case runs several bands (the rows kept between them); else small
 * shapes, mostly one band, with the most varied edges.
 */
static void random_cases(test_rng *rng, int count, int wide) {
    for (int i = 0; i < count; i++) {
        fovea_conv2d_params p;
        memset(&p, 0, sizeof p);
        p.batch = (size_t)rng_int(rng, 1, 2);
        p.channels = (size_t)rng_int(rng, 1, 6);
        p.input_height = (size_t)rng_int(rng, 3, wide ? 90 : 41);
        p.input_width = (size_t)rng_int(rng, wide ? 30 : 3, wide ? 90 : 41);
        p.output_channels = (size_t)rng_int(rng, wide ? 100 : 1, wide ? 260 : 40);
        p.groups = 1;
        p.kernel_height = (size_t)rng_int(rng, 1, 3);
        p.kernel_width = (size_t)rng_int(rng, 1, 3);
        p.stride_height = (size_t)rng_int(rng, 1, 2);
        p.stride_width = (size_t)rng_int(rng, 1, 2);
        p.dilation_height = (size_t)rng_int(rng, 1, 2);
        p.dilation_width = 1;
        p.pad_top = (size_t)rng_int(rng, 0, 2), p.pad_left = (size_t)rng_int(rng, 0, 2);
        const size_t pad_bottom = (size_t)rng_int(rng, 0, 2), pad_right = (size_t)rng_int(rng, 0, 2);
        const size_t eh = (p.kernel_height - 1) * p.dilation_height + 1, ew = p.kernel_width;
        if (p.input_height + p.pad_top + pad_bottom < eh || p.input_width + p.pad_left + pad_right < ew) continue;
        p.output_height = (p.input_height + p.pad_top + pad_bottom - eh) / p.stride_height + 1;
        p.output_width = (p.input_width + p.pad_left + pad_right - ew) / p.stride_width + 1;
        const size_t k = (size_t)rng_int(rng, 1, 3), s = (size_t)rng_int(rng, 1, 3), d = (size_t)rng_int(rng, 1, 2);
        const size_t pad = k > 1 ? k - 1 : 0;
        fovea_pool2d_params q = pool_for(&p, k, s, d, (size_t)rng_int(rng, 0, (long)pad),
                                         (size_t)rng_int(rng, 0, (long)pad), (size_t)rng_int(rng, 0, (long)pad),
                                         (size_t)rng_int(rng, 0, (long)pad));
        if (q.output_height == 0 || q.output_width == 0) continue;
        run_case(rng, &p, &q, (int)rng_int(rng, 0, 1), (int)rng_int(rng, 0, 1), (size_t)rng_int(rng, 1, 3));
    }
}

/* SqueezeNet 1.1's stem (3×3/2, 3 -> 64, 224 -> 111, then 3×3/2 max pooling to 55), and ResNet's (7×7/2 pad 3, pool pad 1). */
static void stems(test_rng *rng) {
    const fovea_conv2d_params squeeze = {1, 3, 224, 224, 64, 1, 111, 111, 3, 3, 2, 2, 1, 1, 0, 0};
    const fovea_pool2d_params squeeze_pool = pool_for(&squeeze, 3, 2, 1, 0, 0, 0, 0);
    CHECK(squeeze_pool.output_height == 55, "SqueezeNet's pool gives %zu rows", squeeze_pool.output_height);
    CHECK(fovea_conv2d_maxpool_supported(&squeeze, &squeeze_pool), "SqueezeNet's stem is not supported");
    for (size_t threads = 1; threads <= 2; threads++) run_case(rng, &squeeze, &squeeze_pool, 1, 1, threads);
    const fovea_conv2d_params resnet = {2, 3, 57, 57, 16, 1, 29, 29, 7, 7, 2, 2, 1, 1, 3, 3};
    const fovea_pool2d_params resnet_pool = pool_for(&resnet, 3, 2, 1, 1, 1, 1, 1);
    for (size_t threads = 1; threads <= 3; threads++) run_case(rng, &resnet, &resnet_pool, 1, 0, threads);
}

static void bad_parameters(void) {
    const fovea_conv2d_params p = {1, 3, 9, 9, 8, 1, 9, 9, 3, 3, 1, 1, 1, 1, 1, 1};
    const fovea_pool2d_params q = pool_for(&p, 2, 2, 1, 0, 0, 0, 0);
    float w[8 * 3 * 9] = {0}, x[3 * 81] = {0}, y[8 * 16];
    const size_t packed_bytes = fovea_conv2d_packed_size(&p);
    void *packed = aligned_alloc(64, (packed_bytes + 63) / 64 * 64);
    CHECK_STATUS(fovea_conv2d_pack(&p, w, NULL, packed, packed_bytes), FOVEA_STATUS_OK);
    const size_t ws_bytes = fovea_conv2d_maxpool_workspace_size(packed, &q, 1);
    void *ws = aligned_alloc(64, (ws_bytes + 63) / 64 * 64);
    CHECK_STATUS(fovea_conv2d_maxpool_f32(&p, packed, &q, x, y, NULL, NULL, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_conv2d_maxpool_f32(&p, packed, &q, x, y, NULL, NULL, ws, ws_bytes - 4, test_pool(1)),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fovea_conv2d_maxpool_f32(&p, packed, &q, NULL, y, NULL, NULL, ws, ws_bytes, test_pool(1)),
                 FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_conv2d_maxpool_f32(&p, NULL, &q, x, y, NULL, NULL, ws, ws_bytes, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    fovea_pool2d_params wrong = q;
    wrong.channels = 7; /* not the convolution's output channels */
    CHECK(!fovea_conv2d_maxpool_supported(&p, &wrong), "a pool of other channels is supported");
    CHECK_STATUS(fovea_conv2d_maxpool_f32(&p, packed, &wrong, x, y, NULL, NULL, ws, ws_bytes, test_pool(1)),
                 FOVEA_STATUS_INVALID_PARAMETER);
    wrong = q;
    wrong.input_width = 8;
    CHECK(!fovea_conv2d_maxpool_supported(&p, &wrong), "a pool of another size is supported");
    wrong = q;
    wrong.stride_height = 0;
    CHECK(!fovea_conv2d_maxpool_supported(&p, &wrong), "a zero stride is supported");
    fovea_conv2d_params other = p;
    other.pad_top = 0, other.output_height = 8;
    const fovea_pool2d_params other_pool = pool_for(&other, 2, 2, 1, 0, 0, 0, 0);
    CHECK_STATUS(fovea_conv2d_maxpool_f32(&other, packed, &other_pool, x, y, NULL, NULL, ws, ws_bytes, test_pool(1)),
                 FOVEA_STATUS_PACKING_MISMATCH);
    fovea_conv2d_params grouped = p;
    grouped.groups = 2, grouped.channels = 4;
    CHECK(!fovea_conv2d_maxpool_supported(&grouped, &q), "a grouped convolution is supported");
    CHECK(fovea_conv2d_maxpool_workspace_size(NULL, &q, 1) == 0, "workspace for no weights");
    free(ws), free(packed);
}

int main(void) {
    test_rng rng = {20261124};
    long isas = 0;
    for (int i = 0; i < test_isa_count; i++) {
        if (!fovea_kernels_isa_supported(test_isas[i])) continue;
        isas++;
        CHECK_STATUS(fovea_kernels_set_isa(test_isas[i]), FOVEA_STATUS_OK);
        random_cases(&rng, 150, 0);
        random_cases(&rng, 25, 1);
        stems(&rng);
    }
    CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
    bad_parameters();
    /* Per ISA the machine has (scalar alone off x86): most of the 175 random shapes are supported. */
    printf("%ld cases on %ld ISAs\n", cases_run, isas);
    CHECK(cases_run > 100 * isas, "only %ld cases ran on %ld ISAs", cases_run, isas);
    return test_finish("conv_maxpool");
}
