/*
 * The GEMM convolution with bf16-packed weights (fovea_conv2d_pack_precision)
 * on every ISA the CPU has, against reference_conv2d:
 *
 *  - on the bf16-rounded weights and inputs (reference_round_to_bf16): the
 *    kernels multiply exactly those values, and a product of two bf16 values
 *    (8-bit significands) is exact in float32, so the only error left is the
 *    float32 accumulation: each of the K products, the bias, the residual and
 *    the carry of each reduction block into y is one float32 addition, and a
 *    sum of n terms in any order is within γ_n·Σ|terms| ≤ 1.01·n·2⁻²⁴·Σ|terms|
 *    of the exact sum. So per output |error| ≤ (K + 8)·2⁻²⁴·(|bias| + |y₀| +
 *    Σ|w·x|) (8 covers bias, residual and up to six block carries: K ≤ 3500
 *    here), plus (K + 8)·2⁻¹²⁵ absolute: vdpbf16ps flushes denormal operands
 *    and sums to zero, losing at most 2⁻¹²⁶·|w| ≤ 2⁻¹²⁶ per term (|w| ≤ 1);
 *  - on the unrounded float32 weights and inputs: each product then also
 *    carries two bf16 roundings, |w̃x̃ − wx| ≤ (2·2⁻⁸ + 2⁻¹⁶)·|wx|, so the
 *    bound becomes (2⁻⁷ + 2⁻¹⁵ + (K + 8)·2⁻²³)·(|bias| + |y₀| + Σ|w·x|):
 *    the accuracy bf16 costs (the test prints the worst error seen, relative
 *    to that magnitude, next to the bound).
 *
 * Shapes: 1×1, 3×3 pad 1, stride 2, 7×7 stride 2, groups, dilation, odd
 * sizes, batches (column panels straddling images), a fully connected layer
 * (1×1 input), K odd and not a multiple of 32, M and N ragged, strided y
 * outputs whose gaps stay untouched, the residual (fovea_conv2d_add_f32), each
 * activation, and random shapes; special inputs (±0, denormals, ±inf, NaN)
 * propagate like the float32 kernels (NaN through the sum, ReLU(NaN) = 0).
 * Then: the packing ISA's kernel runs whatever ISA is forced later, the kernel
 * names, the fallback (avx512 forced: the FMA kernel; scalar: the C one), and
 * bad arguments.
 */
#include "support/reference.h"
#include "support/test_support.h"

static double worst_rounded = 0, worst_unrounded = 0; /* errors / magnitude, for the printout */

static size_t output_extent(size_t in, size_t kernel, size_t stride, size_t dilation, size_t pad_begin,
                            size_t pad_end) {
    const long span = (long)(dilation * (kernel - 1) + 1);
    const long room = (long)(in + pad_begin + pad_end) - span;
    return room < 0 ? 0 : (size_t)(room / (long)stride + 1);
}

static fovea_conv2d_params make(size_t batch, size_t channels, size_t height, size_t width, size_t outputs,
                                size_t groups, size_t kernel, size_t stride, size_t dilation, size_t pad) {
    fovea_conv2d_params p = {batch, channels, height, width, outputs, groups, 0, 0, kernel, kernel, stride, stride,
                             dilation, dilation, pad, pad};
    p.output_height = output_extent(height, kernel, stride, dilation, pad, pad);
    p.output_width = output_extent(width, kernel, stride, dilation, pad, pad);
    return p;
}

static fovea_conv2d_params random_params(test_rng *rng) {
    for (;;) {
        const size_t groups = rng_int(rng, 0, 4) == 0 ? (size_t)rng_int(rng, 2, 3) : 1;
        const int pointwise = rng_int(rng, 0, 2) == 0;
        size_t channels = groups * (size_t)rng_int(rng, 1, 24);
        if (pointwise && groups == 1 && rng_int(rng, 0, 4) == 0) channels = (size_t)rng_int(rng, 500, 700);
        const fovea_conv2d_params p =
            make((size_t)rng_int(rng, 1, 3), channels, (size_t)rng_int(rng, 1, 19), (size_t)rng_int(rng, 1, 37),
                 groups * (size_t)rng_int(rng, 1, 40), groups, pointwise ? 1 : (size_t)rng_int(rng, 1, 5),
                 pointwise ? 1 : (size_t)rng_int(rng, 1, 3), pointwise ? 1 : (size_t)rng_int(rng, 1, 2),
                 pointwise ? 0 : (size_t)rng_int(rng, 0, 2));
        if (p.output_height > 0 && p.output_width > 0) return p;
    }
}

/* A special input value, or an ordinary one. */
static float input_value(test_rng *rng, int specials) {
    if (specials && rng_int(rng, 0, 9) == 0) {
        const float values[] = {0.0f, -0.0f, 0x1p-130f, -0x1p-140f, 0x1.fffffcp-127f, INFINITY, -INFINITY, NAN};
        return values[rng_int(rng, 0, 7)];
    }
    return rng_float(rng);
}

/*
 * Whether `got` is within `bound` of `want` (non-finite: the same class; NaN
 * matches NaN). An activation can make a non-finite sum finite (ReLU(NaN) = 0,
 * ReLU(-inf) = 0): then the bound is not finite either, and only equality passes.
 */
static int within(double got, double want, double bound) {
    if (isnan(want)) return isnan(got);
    if (got == want) return 1;
    if (isinf(want)) return got == want;
    return fabs(got - want) <= bound;
}

/* One shape on the forced ISA: random data (with special inputs when asked), threads, bias, activation, gaps, residual. */
static void check_shape(const char *isa, test_rng *rng, const fovea_conv2d_params p, int specials) {
    const fovea_activation activations[] = {{FOVEA_ACTIVATION_NONE, 0, 0, 0}, {FOVEA_ACTIVATION_RELU, 0, 0, 0},
                                            {FOVEA_ACTIVATION_CLIP, -0.5f, 0.5f, 0},
                                            {FOVEA_ACTIVATION_LEAKY_RELU, 0, 0, 0.25f}};
    const size_t gc = p.channels / p.groups, k = gc * p.kernel_height * p.kernel_width;
    const size_t x_count = p.batch * p.channels * p.input_height * p.input_width;
    const size_t w_count = p.output_channels * k;
    const size_t image = p.output_channels * p.output_height * p.output_width;
    const size_t y_stride = image + (size_t)rng_int(rng, 0, 1) * (size_t)rng_int(rng, 0, 40);
    const size_t threads = (size_t)rng_int(rng, 1, 3);
    const int bias_mode = rng_int(rng, 0, 2); /* 0 none, 1 packed, 2 at run time */
    const fovea_activation *activation = specials ? NULL : &activations[rng_int(rng, 0, 3)];
    if (specials && rng_int(rng, 0, 1)) activation = &activations[1]; /* ReLU(NaN) = 0 */
    const int add = rng_int(rng, 0, 2) == 0;

    float *x = malloc(x_count * sizeof(float)), *xr = malloc(x_count * sizeof(float));
    float *w = malloc(w_count * sizeof(float)), *wr = malloc(w_count * sizeof(float));
    float *bias = malloc(p.output_channels * sizeof(float)), *residual = malloc(p.batch * image * sizeof(float));
    for (size_t i = 0; i < x_count; i++) xr[i] = reference_round_to_bf16(x[i] = input_value(rng, specials));
    for (size_t i = 0; i < w_count; i++) wr[i] = reference_round_to_bf16(w[i] = rng_float(rng));
    for (size_t i = 0; i < p.output_channels; i++) bias[i] = rng_float(rng);
    for (size_t i = 0; i < p.batch * image; i++) residual[i] = 4 * rng_float(rng);

    const size_t packed_bytes = fovea_conv2d_packed_size_precision(&p, FOVEA_PRECISION_BF16);
    void *packed = malloc(packed_bytes);
    CHECK_STATUS(fovea_conv2d_pack_precision(&p, FOVEA_PRECISION_BF16, w, bias_mode == 1 ? bias : NULL, packed,
                                             packed_bytes),
                 FOVEA_STATUS_OK);
    CHECK(fovea_conv2d_packed_precision(packed) == FOVEA_PRECISION_BF16, "packed precision");
    const size_t workspace_bytes = fovea_conv2d_workspace_size(packed, threads);
    void *workspace = malloc(workspace_bytes);
    guarded_buffer y = guarded_alloc((p.batch - 1) * y_stride + image, 0);
    if (add) {
        for (size_t n = 0; n < p.batch; n++) memcpy(y.data + n * y_stride, residual + n * image, image * sizeof(float));
        CHECK_STATUS(fovea_conv2d_add_f32(&p, packed, x, y.data, y_stride, bias_mode == 2 ? bias : NULL, activation,
                                          workspace, workspace_bytes, test_pool(threads)),
                     FOVEA_STATUS_OK);
    } else {
        CHECK_STATUS(fovea_conv2d_f32(&p, packed, x, y.data, y_stride, bias_mode == 2 ? bias : NULL, activation,
                                      workspace, workspace_bytes, test_pool(threads)),
                     FOVEA_STATUS_OK);
    }

    double *sum = malloc(p.batch * image * sizeof(double)), *magnitude = malloc(p.batch * image * sizeof(double));
    double *sum32 = malloc(p.batch * image * sizeof(double)), *magnitude32 = malloc(p.batch * image * sizeof(double));
    reference_conv2d(&p, wr, bias_mode ? bias : NULL, xr, sum, magnitude);
    reference_conv2d(&p, w, bias_mode ? bias : NULL, x, sum32, magnitude32);
    const double accumulation = (double)(k + 8) * 0x1p-24, absolute = (double)(k + 8) * 0x1p-125;
    const double rounding = 0x1p-7 + 0x1p-15 + (double)(k + 8) * 0x1p-23;
    long bad = 0, bad32 = 0, gap_written = 0;
    for (size_t n = 0; n < p.batch; n++) {
        for (size_t i = 0; i < image; i++) {
            const size_t o = n * image + i;
            const double start = add ? residual[o] : 0;
            const double got = y.data[n * y_stride + i];
            const double scale = magnitude[o] + fabs(start), want = test_activation(activation, start + sum[o]);
            if (!within(got, want, accumulation * scale + absolute)) {
                if (bad++ == 0)
                    CHECK(0, "[%s] %s output %zu of image %zu: %.9g, want %.9g (± %.3g)", isa,
                          fovea_conv2d_kernel_name(packed), i, n, got, want, accumulation * scale + absolute);
            } else if (isfinite(want) && scale > 0 && fabs(got - want) / scale > worst_rounded) {
                worst_rounded = fabs(got - want) / scale;
            }
            if (!specials) {
                const double scale32 = magnitude32[o] + fabs(start);
                const double want32 = test_activation(activation, start + sum32[o]);
                if (!within(got, want32, rounding * scale32 + absolute)) {
                    if (bad32++ == 0)
                        CHECK(0, "[%s] output %zu: %.9g, unrounded reference %.9g (± %.3g)", isa, i, got, want32,
                              rounding * scale32);
                } else if (scale32 > 0 && fabs(got - want32) / scale32 > worst_unrounded) {
                    worst_unrounded = fabs(got - want32) / scale32;
                }
            }
        }
        if (n + 1 < p.batch)
            for (size_t i = image; i < y_stride; i++) gap_written |= float_bits(y.data[n * y_stride + i]) != guard_bits;
    }
    CHECK(bad == 0 && bad32 == 0,
          "[%s] %ld (rounded) / %ld (unrounded) outputs off: N %zu C %zu M %zu G %zu %zux%zu k %zux%zu s %zu d %zu p %zu%s",
          isa, bad, bad32, p.batch, p.channels, p.output_channels, p.groups, p.input_height, p.input_width,
          p.kernel_height, p.kernel_width, p.stride_height, p.dilation_height, p.pad_top, add ? " add" : "");
    CHECK(!gap_written && guards_intact(&y), "[%s] wrote outside the output images", isa);
    free(sum), free(magnitude), free(sum32), free(magnitude32), free(workspace), free(packed);
    free(x), free(xr), free(w), free(wr), free(bias), free(residual);
    guarded_free(&y);
}

/* The kernel a forced ISA packs bf16 weights for. */
static const char *expected_kernel_suffix(const char *isa) {
    /* No bf16 tile of its own on neon yet (BFMMLA/BFDOT kernels: not written): the portable one. */
    if (strcmp(isa, "scalar") == 0 || strcmp(isa, "neon") == 0) return "bf16_gemm_4x16_scalar";
    if (strcmp(isa, "avx2") == 0) return "bf16_gemm_6x16_avx2";
    if (strcmp(isa, "avx512") == 0) return "bf16_gemm_8x32_avx512";
    return "_avx512bf16"; /* amx: until the AMX tile is in the build */
}

static void check_isa(const char *isa, test_rng *rng) {
    CHECK_STATUS(fovea_kernels_set_isa(isa), FOVEA_STATUS_OK);
    const fovea_conv2d_params shapes[] = {
        make(1, 64, 14, 14, 64, 1, 1, 1, 1, 0),     /* 1×1 */
        make(2, 37, 9, 11, 29, 1, 1, 1, 1, 0),      /* 1×1, K odd, batch 2: panels straddle images */
        make(1, 16, 13, 13, 24, 1, 3, 1, 1, 1),     /* 3×3 pad 1 */
        make(1, 9, 17, 15, 13, 1, 3, 2, 1, 1),      /* 3×3 stride 2, K 81 */
        make(1, 3, 31, 29, 20, 1, 7, 2, 1, 3),      /* 7×7 stride 2 (a stem), K 147 */
        make(2, 12, 10, 10, 18, 3, 3, 1, 1, 1),     /* groups */
        make(1, 8, 15, 15, 16, 1, 3, 1, 2, 2),      /* dilation 2 */
        make(3, 100, 1, 1, 70, 1, 1, 1, 1, 0),      /* fully connected, batch 3 */
        make(1, 300, 1, 1, 33, 1, 1, 1, 1, 0),      /* fully connected, one column */
        make(1, 390, 7, 7, 40, 1, 3, 1, 1, 1),      /* K 3510: several reduction blocks */
        make(1, 5, 1, 1, 1, 1, 1, 1, 1, 0),         /* one output */
    };
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        check_shape(isa, rng, shapes[i], 0);
        check_shape(isa, rng, shapes[i], 1);
    }
    for (int trial = 0; trial < 40; trial++) check_shape(isa, rng, random_params(rng), trial % 4 == 0);

    /* AVX512_BF16 packs 12-row panels unless 8 rows pad M clearly less (64 channels: 72 rows against 64). */
    if (strcmp(isa, "avx512bf16") == 0) {
        const size_t outputs[] = {24, 64, 512, 16};
        const char *const want[] = {"bf16_gemm_12x32_avx512bf16", "bf16_gemm_8x32_avx512bf16",
                                    "bf16_gemm_12x32_avx512bf16", "bf16_gemm_8x32_avx512bf16"};
        for (int i = 0; i < 4; i++) {
            const fovea_conv2d_params q = make(1, 8, 4, 4, outputs[i], 1, 1, 1, 1, 0);
            const size_t size = fovea_conv2d_packed_size_precision(&q, FOVEA_PRECISION_BF16);
            void *weights = calloc(1, size);
            float *zeros = calloc(outputs[i] * 8, sizeof(float));
            CHECK_STATUS(fovea_conv2d_pack_precision(&q, FOVEA_PRECISION_BF16, zeros, NULL, weights, size),
                         FOVEA_STATUS_OK);
            const char *got = fovea_conv2d_kernel_name(weights);
            CHECK(got != NULL && strcmp(got, want[i]) == 0, "M %zu: %s, want %s", outputs[i], got ? got : "NULL",
                  want[i]);
            free(weights), free(zeros);
        }
    }

    /* Names, and the packing ISA's kernel runs whatever is forced later. */
    const fovea_conv2d_params p = make(2, 20, 9, 9, 30, 1, 3, 1, 1, 1);
    float w[30 * 20 * 9], x[2 * 20 * 81], first[2 * 30 * 81], second[2 * 30 * 81];
    for (size_t i = 0; i < sizeof w / sizeof *w; i++) w[i] = rng_float(rng);
    for (size_t i = 0; i < sizeof x / sizeof *x; i++) x[i] = rng_float(rng);
    const size_t bytes = fovea_conv2d_packed_size_precision(&p, FOVEA_PRECISION_BF16);
    void *packed = malloc(bytes);
    CHECK_STATUS(fovea_conv2d_pack_precision(&p, FOVEA_PRECISION_BF16, w, NULL, packed, bytes), FOVEA_STATUS_OK);
    const char *name = fovea_conv2d_kernel_name(packed);
    const char *suffix = expected_kernel_suffix(isa);
    CHECK(name != NULL && strncmp(name, "bf16_gemm_", 10) == 0 && strstr(name, suffix) != NULL &&
              strcmp(name + strlen(name) - strlen(suffix), suffix) == 0,
          "[%s] kernel %s, expected one ending in %s", isa, name ? name : "NULL", suffix);
    static unsigned char workspace[1 << 22];
    CHECK(fovea_conv2d_workspace_size(packed, 2) <= sizeof workspace, "workspace");
    CHECK_STATUS(fovea_conv2d_f32(&p, packed, x, first, 30 * 81, NULL, NULL, workspace, sizeof workspace, test_pool(2)),
                 FOVEA_STATUS_OK);
    for (int other = 0; other < test_isa_count; other++) {
        if (fovea_kernels_set_isa(test_isas[other]) != FOVEA_STATUS_OK) continue;
        CHECK(strcmp(fovea_conv2d_kernel_name(packed), name) == 0, "[%s] name follows packing", isa);
        CHECK_STATUS(fovea_conv2d_f32(&p, packed, x, second, 30 * 81, NULL, NULL, workspace, sizeof workspace,
                                      test_pool(1)),
                     FOVEA_STATUS_OK);
        CHECK(memcmp(first, second, sizeof first) == 0, "[%s] packed, run with %s forced: different bits", isa,
              test_isas[other]);
    }
    free(packed);
}

static void check_bad_arguments(void) {
    fovea_conv2d_params p = make(1, 4, 5, 5, 8, 1, 3, 1, 1, 1);
    float w[8 * 4 * 9] = {0}, x[4 * 25] = {0}, y[8 * 25];
    CHECK(fovea_conv2d_packed_size_precision(&p, (fovea_precision)7) == 0, "a bad precision has a packed size");
    const size_t bytes = fovea_conv2d_packed_size_precision(&p, FOVEA_PRECISION_BF16);
    /* At most the widest layout any ISA packs (AMX: M and K padded to 32, two bytes each), bias and header. */
    CHECK(bytes > 0 && bytes <= 32 * 64 * 2 + 32 * sizeof(float) + 256, "bf16 weights of 8x36: %zu bytes", bytes);
    CHECK(fovea_conv2d_packed_size_precision(&p, FOVEA_PRECISION_F32) == fovea_conv2d_packed_size(&p),
          "F32 is fovea_conv2d_packed_size");
    void *packed = malloc(bytes);
    CHECK_STATUS(fovea_conv2d_pack_precision(&p, (fovea_precision)7, w, NULL, packed, bytes),
                 FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_conv2d_pack_precision(&p, FOVEA_PRECISION_BF16, w, NULL, packed, bytes - 1),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fovea_conv2d_pack_precision(&p, FOVEA_PRECISION_BF16, NULL, NULL, packed, bytes),
                 FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_conv2d_pack_precision(NULL, FOVEA_PRECISION_BF16, w, NULL, packed, bytes),
                 FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_conv2d_pack_precision(&p, FOVEA_PRECISION_BF16, w, NULL, packed, bytes), FOVEA_STATUS_OK);
    const size_t workspace_bytes = fovea_conv2d_workspace_size(packed, 1);
    void *workspace = malloc(workspace_bytes);
    for (size_t i = 0; i < 8 * 25; i++) y[i] = 7.0f;
    CHECK_STATUS(fovea_conv2d_f32(&p, packed, x, y, 8 * 25, NULL, NULL, workspace, workspace_bytes - 4, test_pool(1)),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    fovea_conv2d_params other = p;
    other.pad_top = 0;
    CHECK_STATUS(fovea_conv2d_f32(&other, packed, x, y, 8 * 25, NULL, NULL, workspace, workspace_bytes, test_pool(1)),
                 FOVEA_STATUS_PACKING_MISMATCH);
    int untouched = 1;
    for (size_t i = 0; i < 8 * 25; i++) untouched &= y[i] == 7.0f;
    CHECK(untouched, "a failed call wrote to y");
    CHECK(fovea_conv2d_packed_precision(x) == (fovea_precision)-1, "garbage has a precision");
    CHECK(fovea_conv2d_packed_precision(NULL) == (fovea_precision)-1, "NULL has a precision");
    /* The fused conv + max pool runs float32 weights only. */
    const fovea_pool2d_params pool = {.batch = 1, .channels = 8, .input_height = 5, .input_width = 5,
                                      .output_height = 2, .output_width = 2, .kernel_height = 2, .kernel_width = 2,
                                      .stride_height = 2, .stride_width = 2, .dilation_height = 1,
                                      .dilation_width = 1};
    CHECK(fovea_conv2d_maxpool_workspace_size(packed, &pool, 1) == 0, "conv + max pool takes bf16 weights");
    CHECK_STATUS(fovea_conv2d_maxpool_f32(&p, packed, &pool, x, y, NULL, NULL, workspace, workspace_bytes,
                                          test_pool(1)),
                 FOVEA_STATUS_PACKING_MISMATCH);
    free(packed), free(workspace);
}

/* Nothing forced: the default ISA's kernel (FOVEA_ISA=avx512 in ctest: the fallback without bf16 hardware). */
static void check_default(test_rng *rng) {
    const char *isa = fovea_kernels_default_isa_name();
    const fovea_conv2d_params p = make(1, 21, 6, 7, 19, 1, 3, 1, 1, 1);
    float w[19 * 21 * 9];
    for (size_t i = 0; i < sizeof w / sizeof *w; i++) w[i] = rng_float(rng);
    const size_t bytes = fovea_conv2d_packed_size_precision(&p, FOVEA_PRECISION_BF16);
    void *packed = malloc(bytes);
    CHECK_STATUS(fovea_conv2d_pack_precision(&p, FOVEA_PRECISION_BF16, w, NULL, packed, bytes), FOVEA_STATUS_OK);
    const char *name = fovea_conv2d_kernel_name(packed), *suffix = expected_kernel_suffix(isa);
    printf("default ISA %s packs bf16 weights for %s\n", isa, name ? name : "NULL");
    CHECK(name != NULL && strlen(name) >= strlen(suffix) && strcmp(name + strlen(name) - strlen(suffix), suffix) == 0,
          "default %s: kernel %s", isa, name ? name : "NULL");
    free(packed);
    check_shape(isa, rng, p, 0);
    check_shape(isa, rng, make(2, 70, 5, 5, 33, 1, 1, 1, 1, 0), 1);
}

int main(void) {
    test_rng rng = {2026120731};
    check_default(&rng);
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (!fovea_kernels_isa_supported(test_isas[isa])) {
            printf("skipping %s (not supported here)\n", test_isas[isa]);
            continue;
        }
        check_isa(test_isas[isa], &rng);
    }
    fovea_kernels_set_isa("auto");
    check_bad_arguments();
    printf("worst error / (|bias| + |y0| + sum |w x|): %.3g against the rounded operands (bound (K+8)*2^-24), "
           "%.3g against float32 (bound 2^-7 + ...)\n", worst_rounded, worst_unrounded);
    return test_finish("conv_bf16");
}
