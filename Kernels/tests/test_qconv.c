/*
 * The quantized convolution (fovea_qconv.h) on every int8 GEMM kernel this CPU
 * runs, against reference_qconv2d, byte for byte: integer sums are exact and
 * the requantization is MLAS's on every kernel, so there is no tolerance.
 *
 *  - shapes of the fp32 convolution tests: 1×1, 3×3 pad 1, stride 2, 7×7
 *    stride 2 pad 3, dilation 2, groups, odd sizes, M and pixel counts that
 *    are not multiples of any tile, batch 2 with strided outputs whose gaps
 *    stay untouched, 1 and 2 threads, and random shapes;
 *  - random quantization: uint8 and int8 inputs and outputs, zero points
 *    anywhere in their range, per-tensor and per-channel scales, int32 bias,
 *    a fused clamp (Relu-like and Clip-like), scales that make exact ties
 *    (multiplier 0.5) for round-half-to-even;
 *  - extremes at the largest K (65536): all 255 × 127 and all 0 × −128 with
 *    the input zero point at both ends of its range;
 *  - bad arguments, each with its status.
 * Kernels this CPU cannot run are skipped with the reason printed; the
 * portable kernels over the VNNI and AMX layouts ("..._c4_scalar",
 * "..._c64_scalar") run their packing and driver everywhere.
 */
#include "support/reference.h"
#include "support/test_support.h"

static size_t output_extent(size_t in, size_t kernel, size_t stride, size_t dilation, size_t pad) {
    const long span = (long)(dilation * (kernel - 1) + 1);
    const long room = (long)(in + 2 * pad) - span;
    return room < 0 ? 0 : (size_t)(room / (long)stride + 1);
}

static fovea_conv2d_params make(size_t batch, size_t channels, size_t height, size_t width, size_t outputs,
                                size_t groups, size_t kernel, size_t stride, size_t dilation, size_t pad) {
    fovea_conv2d_params p = {batch, channels, height, width, outputs, groups, 0, 0, kernel, kernel, stride, stride,
                             dilation, dilation, pad, pad};
    p.output_height = output_extent(height, kernel, stride, dilation, pad);
    p.output_width = output_extent(width, kernel, stride, dilation, pad);
    return p;
}

static size_t k_of(const fovea_conv2d_params *p) { return p->channels / p->groups * p->kernel_height * p->kernel_width; }

/* The data of one case: quantization, weights, bias, input. */
typedef struct qcase {
    fovea_conv2d_params p;
    fovea_qconv2d_quantization q;
    float *w_scales;
    int8_t *w;
    int32_t *bias;
    uint8_t *x;
} qcase;

static void free_case(qcase *c) {
    free(c->w_scales);
    free(c->w);
    free(c->bias);
    free(c->x);
}

static int32_t type_min(fovea_qtype t) { return t == FOVEA_QTYPE_U8 ? 0 : -128; }
static int32_t type_max(fovea_qtype t) { return t == FOVEA_QTYPE_U8 ? 255 : 127; }

/* Random data for shape p; `ties`: multiplier exactly 0.5 (round-half-to-even on every odd sum). */
static qcase random_case(test_rng *rng, fovea_conv2d_params p, int ties) {
    qcase c = {.p = p};
    const size_t K = k_of(&p), wn = p.output_channels * K;
    const size_t xn = p.batch * p.channels * p.input_height * p.input_width;
    c.q.input_type = rng_int(rng, 0, 1) ? FOVEA_QTYPE_S8 : FOVEA_QTYPE_U8;
    c.q.output_type = rng_int(rng, 0, 1) ? FOVEA_QTYPE_S8 : FOVEA_QTYPE_U8;
    c.q.input_zero_point = (int32_t)rng_int(rng, type_min(c.q.input_type), type_max(c.q.input_type));
    c.q.output_zero_point = (int32_t)rng_int(rng, type_min(c.q.output_type), type_max(c.q.output_type));
    c.q.output_min = type_min(c.q.output_type);
    c.q.output_max = type_max(c.q.output_type);
    const long clamp = rng_int(rng, 0, 3);
    if (clamp == 1) c.q.output_min = c.q.output_zero_point; /* Relu */
    if (clamp == 2) {                                       /* Clip: a random sub-range */
        c.q.output_min = (int32_t)rng_int(rng, c.q.output_min, c.q.output_zero_point);
        c.q.output_max = (int32_t)rng_int(rng, c.q.output_zero_point, c.q.output_max);
    }
    c.q.weight_scale_count = rng_int(rng, 0, 1) ? p.output_channels : 1;
    c.w_scales = malloc(c.q.weight_scale_count * sizeof(float));
    c.q.input_scale = ties ? 1.0f : 0.02f * (1.0f + 0.5f * rng_float(rng));
    const float w_base = 0.01f;
    for (size_t i = 0; i < c.q.weight_scale_count; i++) {
        c.w_scales[i] = ties ? 0.5f : w_base * exp2f(rng_float(rng));
    }
    c.q.weight_scales = c.w_scales;
    /* Sums of K products of about ±70 · ±60: aim the typical output at a few tens of steps. */
    c.q.output_scale = ties ? 1.0f : c.q.input_scale * w_base * 4000.0f * sqrtf((float)K) / 30.0f;
    c.w = malloc(wn);
    c.bias = malloc(p.output_channels * sizeof(int32_t));
    c.x = malloc(xn);
    for (size_t i = 0; i < wn; i++) c.w[i] = (int8_t)rng_int(rng, -128, 127);
    /* Biases about as large as the sums (larger ones would saturate most outputs), and 1 case in 8 up to 2^20. */
    const long bias_range = rng_int(rng, 0, 7) == 0 ? 1 << 20 : (long)(8000.0f * sqrtf((float)K));
    for (size_t i = 0; i < p.output_channels; i++) c.bias[i] = (int32_t)rng_int(rng, -bias_range, bias_range);
    for (size_t i = 0; i < xn; i++) c.x[i] = (uint8_t)rng_int(rng, 0, 255);
    return c;
}

static const char *describe(const fovea_conv2d_params *p) {
    static _Thread_local char text[200];
    snprintf(text, sizeof text, "N%zu C%zu %zux%zu M%zu G%zu k%zux%zu s%zu d%zu pad%zu", p->batch, p->channels,
             p->input_height, p->input_width, p->output_channels, p->groups, p->kernel_height, p->kernel_width,
             p->stride_height, p->dilation_height, p->pad_top);
    return text;
}

/* Packs for `kernel`, runs on `threads`, compares every byte (and the gaps of a strided y). */
static void check_case(const char *kernel, const qcase *c, size_t threads, size_t gap) {
    const fovea_conv2d_params *p = &c->p;
    const size_t image = p->output_channels * p->output_height * p->output_width, stride = image + gap;
    const size_t packed_bytes = fovea_qconv2d_packed_size(p, kernel);
    CHECK(packed_bytes > 0, "%s: packed size 0 for %s", kernel, describe(p));
    if (packed_bytes == 0) return;
    void *packed = malloc(packed_bytes);
    CHECK_STATUS(fovea_qconv2d_pack(p, &c->q, c->w, c->bias, kernel, packed, packed_bytes), FOVEA_STATUS_OK);
    CHECK(fovea_qconv2d_kernel_name(packed) != NULL && strcmp(fovea_qconv2d_kernel_name(packed), kernel) == 0,
          "kernel name %s, expected %s", fovea_qconv2d_kernel_name(packed), kernel);
    const size_t ws_bytes = fovea_qconv2d_workspace_size(packed, threads);
    void *ws = malloc(ws_bytes);
    uint8_t *got = malloc(p->batch * stride), *want = malloc(p->batch * stride);
    memset(got, 0xA5, p->batch * stride);
    memset(want, 0xA5, p->batch * stride);
    reference_qconv2d(p, &c->q, c->w, c->bias, c->x, want, stride);
    CHECK_STATUS(fovea_qconv2d_run(p, packed, c->x, got, stride, ws, ws_bytes, test_pool(threads)), FOVEA_STATUS_OK);
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < p->batch * stride; i++) {
        if (got[i] != want[i] && bad++ == 0) first = i;
    }
    CHECK(bad == 0, "%s %s in%s out%s threads %zu: %zu bytes differ, first at %zu (got %d, want %d)", kernel,
          describe(p), c->q.input_type ? "s8" : "u8", c->q.output_type ? "s8" : "u8", threads, bad, first,
          got[first], want[first]);
    free(packed);
    free(ws);
    free(got);
    free(want);
}

static void check_shapes(const char *kernel, test_rng *rng) {
    const fovea_conv2d_params shapes[] = {
        make(1, 64, 13, 13, 64, 1, 1, 1, 1, 0),   /* SqueezeNet 1×1 */
        make(1, 16, 8, 8, 64, 1, 3, 1, 1, 1),     /* 3×3 pad 1 */
        make(1, 7, 9, 11, 13, 1, 3, 1, 1, 1),     /* odd everything */
        make(2, 12, 10, 10, 20, 1, 3, 2, 1, 1),   /* stride 2, batch 2 */
        make(1, 3, 23, 23, 10, 1, 7, 2, 1, 3),    /* a stem */
        make(1, 8, 12, 12, 9, 1, 3, 1, 2, 2),     /* dilation 2 */
        make(2, 12, 7, 9, 18, 3, 3, 1, 1, 1),     /* groups */
        make(1, 33, 5, 5, 37, 1, 1, 1, 1, 0),     /* M and pixels ragged */
        make(1, 5, 1, 1, 7, 1, 1, 1, 1, 0),       /* fully connected */
        make(1, 300, 4, 4, 40, 1, 3, 1, 1, 1),    /* K 2700, not a multiple of 64 */
        make(1, 16, 40, 40, 8, 1, 1, 1, 1, 0),    /* 1600 pixels: more than one block */
        make(1, 4, 6, 6, 4, 4, 3, 1, 1, 1),       /* depthwise as groups */
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        qcase c = random_case(rng, shapes[s], 0);
        check_case(kernel, &c, 1, s % 3 == 0 ? 17 : 0);
        if (s % 2 == 0) check_case(kernel, &c, 2, 5);
        free_case(&c);
    }
    qcase ties = random_case(rng, make(2, 6, 5, 7, 11, 1, 3, 1, 1, 1), 1);
    check_case(kernel, &ties, 1, 3);
    free_case(&ties);
    for (int i = 0; i < 40; i++) {
        const size_t groups = rng_int(rng, 0, 4) == 0 ? (size_t)rng_int(rng, 2, 3) : 1;
        const size_t kernel_size = (size_t)rng_int(rng, 1, 5), stride = (size_t)rng_int(rng, 1, 2);
        fovea_conv2d_params p = make((size_t)rng_int(rng, 1, 2), groups * (size_t)rng_int(rng, 1, 40),
                                     (size_t)rng_int(rng, 1, 15), (size_t)rng_int(rng, 1, 19),
                                     groups * (size_t)rng_int(rng, 1, 45), groups, kernel_size, stride,
                                     (size_t)rng_int(rng, 1, 2), (size_t)rng_int(rng, 0, kernel_size / 2));
        if (p.output_height == 0 || p.output_width == 0) continue;
        qcase c = random_case(rng, p, rng_int(rng, 0, 7) == 0);
        check_case(kernel, &c, (size_t)rng_int(rng, 1, 2), (size_t)rng_int(rng, 0, 9));
        free_case(&c);
    }
}

/* K = 65536 (the largest accepted), every input x and weight w, input zero point zp; all 4 output types/clamps. */
static void check_extreme(const char *kernel, uint8_t x, int8_t w, fovea_qtype in_type, int32_t zp) {
    const size_t K = 65536;
    fovea_conv2d_params p = make(1, K, 1, 3, 5, 1, 1, 1, 1, 0);
    qcase c = {.p = p};
    c.w_scales = malloc(5 * sizeof(float));
    for (int i = 0; i < 5; i++) c.w_scales[i] = 1.0f / (float)(1 << i); /* per channel: 1, 1/2, 1/4, ... */
    c.q = (fovea_qconv2d_quantization){in_type, 1.0f, zp, c.w_scales, 5, NULL, FOVEA_QTYPE_U8, 1.0f, 128, 0, 255};
    c.w = malloc(5 * K);
    memset(c.w, (unsigned char)w, 5 * K);
    c.bias = NULL;
    c.x = malloc(3 * K);
    memset(c.x, x, 3 * K);
    /* Output scale from the sum itself, so the result lands mid-range instead of saturating. */
    const double sum = ((double)(in_type == FOVEA_QTYPE_S8 ? (int8_t)x : x) - zp) * w * (double)K;
    c.q.output_scale = sum == 0 ? 1.0f : (float)(fabs(sum) / 100.0);
    check_case(kernel, &c, 1, 0);
    c.q.output_type = FOVEA_QTYPE_S8;
    c.q.output_zero_point = -7;
    c.q.output_min = -128;
    c.q.output_max = 127;
    check_case(kernel, &c, 2, 4);
    c.q.output_scale = 1e-3f; /* saturates: both ends of the clamp */
    check_case(kernel, &c, 1, 0);
    free_case(&c);
}

static void check_bad_arguments(void) {
    const fovea_conv2d_params p = make(1, 4, 5, 5, 3, 1, 3, 1, 1, 1);
    const float scales[3] = {0.1f, 0.2f, 0.3f};
    int8_t w[3 * 36] = {0};
    const fovea_qconv2d_quantization good = {FOVEA_QTYPE_U8, 0.5f, 3, scales, 3, NULL, FOVEA_QTYPE_S8, 0.25f, -1, -128, 127};
    const size_t bytes = fovea_qconv2d_packed_size(&p, "qs8_gemm_4x8c2_scalar");
    void *packed = malloc(bytes);
    const char *k = "qs8_gemm_4x8c2_scalar";
    CHECK_STATUS(fovea_qconv2d_pack(NULL, &good, w, NULL, k, packed, bytes), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_qconv2d_pack(&p, NULL, w, NULL, k, packed, bytes), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_qconv2d_pack(&p, &good, NULL, NULL, k, packed, bytes), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_qconv2d_pack(&p, &good, w, NULL, k, packed, bytes - 1), FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fovea_qconv2d_pack(&p, &good, w, NULL, "qs8_gemm_bogus", packed, bytes), FOVEA_STATUS_UNKNOWN_ISA);
    CHECK(fovea_qconv2d_packed_size(&p, "qs8_gemm_bogus") == 0, "size of an unknown kernel");
    for (size_t i = 0; fovea_qconv2d_kernel_at(i) != NULL; i++) {
        const char *name = fovea_qconv2d_kernel_at(i);
        if (!fovea_qconv2d_kernel_supported(name)) {
            CHECK_STATUS(fovea_qconv2d_pack(&p, &good, w, NULL, name, packed, bytes), FOVEA_STATUS_UNSUPPORTED_ISA);
        }
    }
    const float bad_scales[] = {0.0f, -1.0f, NAN, INFINITY};
    for (int i = 0; i < 4; i++) {
        fovea_qconv2d_quantization q = good;
        q.input_scale = bad_scales[i];
        CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
        q = good;
        q.output_scale = bad_scales[i];
        CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
        float ws[3] = {0.1f, bad_scales[i], 0.3f};
        q = good;
        q.weight_scales = ws;
        CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
    }
    fovea_qconv2d_quantization q = good;
    q.weight_scale_count = 2;
    CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
    q = good;
    q.input_zero_point = 256;
    CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
    q = good;
    q.output_zero_point = 128; /* int8 output */
    CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
    q = good;
    q.output_min = 10;
    q.output_max = 9;
    CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
    q = good;
    q.input_type = (fovea_qtype)2;
    CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
    const int8_t zero_points[3] = {0, 1, 0}, zeros[3] = {0, 0, 0};
    q = good;
    q.weight_zero_points = zero_points;
    CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_UNSUPPORTED_QUANTIZATION);
    q.weight_zero_points = zeros;
    CHECK_STATUS(fovea_qconv2d_pack(&p, &q, w, NULL, k, packed, bytes), FOVEA_STATUS_OK);
    /* K past 65536 could wrap the int32 sums: refused. */
    const fovea_conv2d_params big = make(1, 65537, 1, 1, 1, 1, 1, 1, 1, 0);
    CHECK(fovea_qconv2d_packed_size(&big, k) == 0, "K 65537 sized");
    CHECK_STATUS(fovea_qconv2d_pack(&big, &good, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);
    fovea_conv2d_params zero = p;
    zero.stride_height = 0;
    CHECK_STATUS(fovea_qconv2d_pack(&zero, &good, w, NULL, k, packed, bytes), FOVEA_STATUS_INVALID_PARAMETER);

    /* Runs: packed for p. */
    CHECK_STATUS(fovea_qconv2d_pack(&p, &good, w, NULL, k, packed, bytes), FOVEA_STATUS_OK);
    const size_t ws_bytes = fovea_qconv2d_workspace_size(packed, 1);
    void *ws = malloc(ws_bytes);
    uint8_t x[100] = {0}, y[75];
    CHECK_STATUS(fovea_qconv2d_run(&p, packed, x, y, 75, ws, ws_bytes, NULL), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_qconv2d_run(&p, packed, NULL, y, 75, ws, ws_bytes, NULL), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_qconv2d_run(&p, packed, x, y, 74, ws, ws_bytes, NULL), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_qconv2d_run(&p, packed, x, y, 75, ws, 10, NULL), FOVEA_STATUS_BUFFER_TOO_SMALL);
    fovea_conv2d_params other = p;
    other.output_channels = 6;
    CHECK_STATUS(fovea_qconv2d_run(&other, packed, x, y, 150, ws, ws_bytes, NULL), FOVEA_STATUS_PACKING_MISMATCH);
    CHECK_STATUS(fovea_qconv2d_run(&p, x, x, y, 75, ws, ws_bytes, NULL), FOVEA_STATUS_PACKING_MISMATCH);
    CHECK(fovea_qconv2d_kernel_name(x) == NULL, "kernel name of garbage");
    CHECK(fovea_qconv2d_workspace_size(x, 1) == 0, "workspace of garbage");
    CHECK(strstr(fovea_status_description(FOVEA_STATUS_UNSUPPORTED_QUANTIZATION), "zero point") != NULL,
          "status text names the zero point");
    free(ws);
    free(packed);
}

/* Depthwise (fovea_qdwconv2d_*) against the same reference, with groups == channels. */
static void check_depthwise(test_rng *rng) {
    const fovea_conv2d_params shapes[] = {
        make(1, 32, 28, 28, 32, 32, 3, 1, 1, 1), make(2, 24, 17, 15, 24, 24, 3, 2, 1, 1),
        make(1, 8, 9, 9, 8, 8, 5, 1, 1, 2),      make(1, 5, 11, 7, 5, 5, 7, 2, 1, 3),
        make(1, 6, 10, 10, 6, 6, 3, 1, 2, 2),    make(2, 3, 1, 1, 3, 3, 3, 1, 1, 1),
        make(1, 4, 56, 56, 4, 4, 3, 1, 1, 1),    make(1, 3, 7, 40, 3, 3, 5, 1, 1, 2), /* vector rows, ragged ends */
        make(1, 2, 20, 37, 2, 2, 3, 1, 1, 0),    make(2, 2, 9, 18, 2, 2, 1, 1, 1, 0),
    };
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] * 2; s++) {
        /* Every shape on the portable loop (FOVEA_ISA scalar) and on the best ISA's kernel. */
        fovea_kernels_set_isa(s % 2 ? "auto" : "scalar");
        for (int round = 0; round < 3; round++) {
            qcase c = random_case(rng, shapes[s / 2], round == 2);
            const fovea_conv2d_params *p = &c.p;
            const size_t image = p->output_channels * p->output_height * p->output_width, stride = image + 3 * (s % 2);
            const size_t bytes = fovea_qdwconv2d_packed_size(p);
            CHECK(bytes > 0, "depthwise packed size 0 for %s", describe(p));
            void *packed = malloc(bytes);
            CHECK_STATUS(fovea_qdwconv2d_pack(p, &c.q, c.w, c.bias, packed, bytes), FOVEA_STATUS_OK);
            uint8_t *got = malloc(p->batch * stride), *want = malloc(p->batch * stride);
            memset(got, 0x5A, p->batch * stride);
            memset(want, 0x5A, p->batch * stride);
            reference_qconv2d(p, &c.q, c.w, c.bias, c.x, want, stride);
            CHECK_STATUS(fovea_qdwconv2d_run(p, packed, c.x, got, stride, test_pool((size_t)round)), FOVEA_STATUS_OK);
            CHECK(memcmp(got, want, p->batch * stride) == 0, "depthwise %s on %s differs", describe(p),
                  fovea_kernels_isa_name());
            free(packed), free(got), free(want);
            free_case(&c);
        }
    }
    fovea_kernels_set_isa("auto");
    const fovea_conv2d_params not_depthwise = make(1, 4, 5, 5, 8, 4, 3, 1, 1, 1);
    CHECK(fovea_qdwconv2d_packed_size(&not_depthwise) == 0, "channel multiplier 2 sized");
    const fovea_conv2d_params p = make(1, 2, 3, 3, 2, 2, 3, 1, 1, 1);
    const float scales[1] = {0.5f};
    const int8_t w[18] = {0}, zp[1] = {3};
    fovea_qconv2d_quantization q = {FOVEA_QTYPE_U8, 1.0f, 0, scales, 1, zp, FOVEA_QTYPE_U8, 1.0f, 0, 0, 255};
    uint8_t packed[4096], x[18] = {0}, y[18];
    CHECK_STATUS(fovea_qdwconv2d_pack(&p, &q, w, NULL, packed, sizeof packed), FOVEA_STATUS_UNSUPPORTED_QUANTIZATION);
    q.weight_zero_points = NULL;
    q.output_scale = -1.0f;
    CHECK_STATUS(fovea_qdwconv2d_pack(&p, &q, w, NULL, packed, sizeof packed), FOVEA_STATUS_INVALID_PARAMETER);
    q.output_scale = 1.0f;
    CHECK_STATUS(fovea_qdwconv2d_pack(&p, &q, w, NULL, packed, 8), FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fovea_qdwconv2d_pack(&p, &q, w, NULL, packed, sizeof packed), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_qdwconv2d_run(&p, packed, x, y, 17, NULL), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_qdwconv2d_run(&p, x, x, y, 18, NULL), FOVEA_STATUS_PACKING_MISMATCH);
    CHECK_STATUS(fovea_qdwconv2d_run(&p, packed, NULL, y, 18, NULL), FOVEA_STATUS_NULL_POINTER);
}

/* Which kernel each ISA level packs for on this CPU. */
static void check_default_kernels(void) {
    CHECK_STATUS(fovea_kernels_set_isa("scalar"), FOVEA_STATUS_OK);
    CHECK(strcmp(fovea_qconv2d_default_kernel(), "qs8_gemm_4x8c2_scalar") == 0, "scalar default %s",
          fovea_qconv2d_default_kernel());
    for (int i = 1; i < test_isa_count; i++) {
        if (fovea_kernels_set_isa(test_isas[i]) != FOVEA_STATUS_OK) continue;
        const char *name = fovea_qconv2d_default_kernel();
        printf("ISA %s packs int8 weights for %s\n", test_isas[i], name);
        CHECK(fovea_qconv2d_kernel_supported(name), "default %s unsupported", name);
        if (strcmp(test_isas[i], "neon") == 0) {
            /* SMMLA where HWCAP2 reports i8mm (qemu's max CPU), SDOT where HWCAP reports only the dot product,
             * else the portable tile (cortex-a72). */
            const char *features = fovea_kernels_arm_features();
            const char *want = features != NULL && strstr(features, "i8mm") != NULL      ? "qs8_gemm_8x8c8_neoni8mm"
                               : features != NULL && strstr(features, "dotprod") != NULL ? "qs8_gemm_8x12c4_neondot"
                                                                                         : "qs8_gemm_4x8c2_scalar";
            CHECK(strcmp(name, want) == 0, "ISA neon packs for %s, expected %s", name, want);
        } else {
            CHECK(strstr(name, "scalar") == NULL, "ISA %s falls back to %s", test_isas[i], name);
        }
    }
    fovea_kernels_set_isa("auto");
}

int main(void) {
    test_rng rng = {20261207};
    for (size_t i = 0; fovea_qconv2d_kernel_at(i) != NULL; i++) {
        const char *kernel = fovea_qconv2d_kernel_at(i);
        if (!fovea_qconv2d_kernel_supported(kernel)) {
            printf("skip %s: this CPU lacks its instructions (%s)\n", kernel,
                   strstr(kernel, "amx") ? "AMX-INT8 with the OS's tile permission"
                   : strstr(kernel, "avx512vnni") ? "AVX512-VNNI"
                   : strstr(kernel, "avxvnni") ? "AVX-VNNI (CPUID 7.1:EAX bit 4)"
                   : strstr(kernel, "neondot") ? "the ARMv8.2 dot product (HWCAP asimddp)"
                   : strstr(kernel, "neoni8mm") ? "the int8 matrix multiply (HWCAP2 i8mm)" : "AVX2");
            continue;
        }
        printf("kernel %s\n", kernel);
        check_shapes(kernel, &rng);
        check_extreme(kernel, 255, 127, FOVEA_QTYPE_U8, 0);
        check_extreme(kernel, 255, 127, FOVEA_QTYPE_U8, 255);
        check_extreme(kernel, 0, -128, FOVEA_QTYPE_U8, 0);
        check_extreme(kernel, 0, -128, FOVEA_QTYPE_U8, 255);
        check_extreme(kernel, 0x7F, 127, FOVEA_QTYPE_S8, -128);
        check_extreme(kernel, 0x80, -128, FOVEA_QTYPE_S8, 127);
    }
    check_depthwise(&rng);
    check_default_kernels();
    check_bad_arguments();
    return test_finish("qconv");
}
