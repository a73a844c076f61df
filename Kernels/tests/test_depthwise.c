/*
 * Depthwise convolution: every variant (3×3, 5×5 and 7×7 stride 1 and 2,
 * any k×k / stride / dilation) on every ISA the CPU supports, against a naive
 * double-precision convolution written here, over hundreds of seeded random
 * shapes (odd sizes, pads, strides, dilations, channel multipliers, batch > 1,
 * strided outputs with untouched gaps, inputs against inaccessible pages),
 * plus special values, MobileNet shapes, thread counts and bad parameters.
 *
 * Tolerance: each output y may differ from the exact result ŷ (double, then
 * the activation) by (taps + 2)·2⁻²⁴·(|bias| + Σ|w·x|)·max(1, |alpha|):
 * float rounding of a sum of taps+1 terms in any order, with or without FMA.
 * A NaN or infinite ŷ must be matched exactly (NaN by any NaN).
 */
#include "support/reference.h"
#include "support/test_support.h"

/* ---- The expected result ----------------------------------------------------------- */

/* Expected outputs (dense, batch × output_channels × OH × OW) and their error bounds, from the shared reference. */
static void expected_outputs(const fovea_conv2d_params *p, const float *w, const float *bias, const float *x,
                             const fovea_activation *act, double *expected, double *bound) {
    const double slope = act != NULL && act->kind == FOVEA_ACTIVATION_LEAKY_RELU && fabs(act->alpha) > 1
                             ? fabs(act->alpha) : 1.0;
    const size_t count = p->batch * p->output_channels * p->output_height * p->output_width;
    const double taps = (double)(p->kernel_height * p->kernel_width);
    reference_conv2d(p, w, bias, x, expected, bound); /* bound holds the magnitudes first */
    for (size_t i = 0; i < count; i++) {
        expected[i] = test_activation(act, expected[i]);
        /* An infinite or NaN sum that the activation made finite (Clip, ReLU) must be exact. */
        bound[i] = isfinite(bound[i]) ? (taps + 2) * ldexp(1.0, -24) * bound[i] * slope + 1e-37 : 0.0;
    }
}

static int within(float got, double want, double bound) {
    if (want != want) return got != got;
    if (isinf(want)) return (double)got == want;
    return fabs((double)got - want) <= bound;
}

/* ---- Comparing every ISA with the naive result ------------------------------------- */

/*
 * The variant dispatch must pick: 3×3 stride 1/2 everywhere; 5×5 and 7×7
 * stride 1/2 on AVX2, AVX-512 and NEON; k×k otherwise.
 */
static const char *expected_kind(const fovea_conv2d_params *p, const char *isa) {
    if (p->kernel_height != p->kernel_width || p->stride_height != p->stride_width || p->dilation_height != 1 ||
        p->dilation_width != 1 || p->stride_height > 2) {
        return "kxk";
    }
    const int s2 = p->stride_height == 2, scalar = strcmp(isa, "scalar") == 0;
    switch (p->kernel_height) {
    case 3: return s2 ? "3x3s2" : "3x3s1";
    case 5: return scalar ? "kxk" : s2 ? "5x5s2" : "5x5s1";
    case 7: return scalar ? "kxk" : s2 ? "7x7s2" : "7x7s1";
    default: return "kxk";
    }
}

/* Index of a kind in variant_runs. */
static int kind_index(const char *kind) {
    static const char *const kinds[] = {"3x3s1", "3x3s2", "5x5s1", "5x5s2", "7x7s1", "7x7s2", "kxk"};
    for (int i = 0; i < 6; i++) {
        if (strcmp(kind, kinds[i]) == 0) return i;
    }
    return 6;
}

static void describe(const fovea_conv2d_params *p, size_t gap, const fovea_activation *act, char *text,
                     size_t size) {
    snprintf(text, size,
             "N%zu C%zu M%zu in %zux%zu out %zux%zu kernel %zux%zu stride %zux%zu dilation %zux%zu pads t%zu l%zu "
             "gap %zu act %d",
             p->batch, p->channels, p->output_channels, p->input_height, p->input_width, p->output_height,
             p->output_width, p->kernel_height, p->kernel_width, p->stride_height, p->stride_width,
             p->dilation_height, p->dilation_width, p->pad_top, p->pad_left, gap, act ? (int)act->kind : -1);
}

/* Same bits everywhere (any NaN matching any NaN). */
static int same_floats(const float *a, const float *b, size_t count) {
    for (size_t i = 0; i < count; i++) {
        if (!same_float(a[i], b[i])) return 0;
    }
    return 1;
}

static long cases_run = 0, variant_runs[7] = {0, 0, 0, 0, 0, 0, 0};

/*
 * Runs every supported ISA on one problem: y images `gap` floats apart beyond
 * their size (the gaps must stay untouched), checks against the naive result
 * and that different thread counts give the same bits.
 */
static void compare_all(const fovea_conv2d_params *p, const float *w, const float *bias, const float *x,
                        const fovea_activation *act, size_t gap, size_t threads, size_t misalign) {
    const size_t image = p->output_channels * p->output_height * p->output_width;
    const size_t stride = image + gap, total = p->batch * stride;
    const size_t count = p->batch * image;
    double *expected = (double *)malloc((count ? count : 1) * sizeof(double));
    double *bound = (double *)malloc((count ? count : 1) * sizeof(double));
    if (expected == NULL || bound == NULL) exit(2);
    expected_outputs(p, w, bias, x, act, expected, bound);
    char text[320];
    describe(p, gap, act, text, sizeof text);
    cases_run++;

    for (int isa = 0; isa < test_isa_count; isa++) {
        if (!fovea_kernels_isa_supported(test_isas[isa])) continue;
        CHECK_STATUS(fovea_kernels_set_isa(test_isas[isa]), FOVEA_STATUS_OK);
        const char *kind = expected_kind(p, test_fp32_isa(test_isas[isa]));
        char name[64];
        snprintf(name, sizeof name, "dwconv_%s_%s", kind, test_fp32_isa(test_isas[isa]));
        const char *got_name = fovea_depthwise_kernel_name(p);
        CHECK(got_name != NULL && strcmp(got_name, name) == 0, "kernel name %s, expected %s (%s)",
              got_name ? got_name : "NULL", name, text);
        variant_runs[kind_index(kind)]++;

        guarded_buffer y = guarded_alloc(total, misalign);
        CHECK_STATUS(fovea_depthwise_conv2d_f32(p, w, bias, x, y.data, stride, act, test_pool(threads)), FOVEA_STATUS_OK);
        long bad = 0, first = -1;
        for (size_t n = 0; n < p->batch; n++) {
            for (size_t i = 0; i < image; i++) {
                if (!within(y.data[n * stride + i], expected[n * image + i], bound[n * image + i])) {
                    if (first < 0) first = (long)(n * image + i);
                    bad++;
                }
            }
            for (size_t i = image; i < stride; i++) {
                CHECK(float_bits(y.data[n * stride + i]) == guard_bits, "[%s] wrote into the gap after image %zu (%s)",
                      test_isas[isa], n, text);
            }
        }
        if (bad) {
            const size_t f = (size_t)first, n = f / image, i = f % image;
            CHECK(0, "[%s] %ld of %zu outputs off, first #%zu: %.9g, expected %.9g ± %.3g (%s)", test_isas[isa], bad,
                  count, f, (double)y.data[n * stride + i], expected[f], bound[f], text);
        } else {
            CHECK(1, "ok");
        }
        CHECK(guards_intact(&y), "[%s] wrote outside y (%s)", test_isas[isa], text);

        /* The same bits on one thread (row bands and plane order must not change any output). */
        if (threads > 1) {
            guarded_buffer one = guarded_alloc(total, misalign);
            CHECK_STATUS(fovea_depthwise_conv2d_f32(p, w, bias, x, one.data, stride, act, test_pool(1)), FOVEA_STATUS_OK);
            CHECK(same_floats(one.data, y.data, total),
                  "[%s] %zu threads differ from 1 thread (%s)", test_isas[isa], threads, text);
            guarded_free(&one);
        }
        guarded_free(&y);
    }
    CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
    free(expected);
    free(bound);
}

/* ---- Random problems -------------------------------------------------------------- */

static void fill(test_rng *rng, float *v, size_t count, int special) {
    for (size_t i = 0; i < count; i++) {
        float value = rng_float(rng);
        if (special) {
            const long pick = rng_int(rng, 0, 199);
            if (pick == 0) value = NAN;
            else if (pick == 1) value = INFINITY;
            else if (pick == 2) value = -INFINITY;
            else if (pick == 3) value = -0.0f;
        }
        v[i] = value;
    }
}

static size_t random_extent(test_rng *rng) {
    static const size_t sizes[] = {1, 2, 3, 5, 7, 14, 16, 17, 31, 33, 47, 56, 113};
    return sizes[rng_int(rng, 0, 12)];
}

static fovea_activation random_activation(test_rng *rng, int *use_null) {
    fovea_activation a = {FOVEA_ACTIVATION_NONE, 0, 0, 0};
    *use_null = 0;
    switch (rng_int(rng, 0, 5)) {
    case 0: *use_null = 1; break;
    case 1: break;
    case 2: a.kind = FOVEA_ACTIVATION_RELU; break;
    case 3: a.kind = FOVEA_ACTIVATION_CLIP; a.min = 0.0f; a.max = 6.0f; break;
    case 4: a.kind = FOVEA_ACTIVATION_CLIP; a.min = -0.25f; a.max = 0.5f; break;
    default: a.kind = FOVEA_ACTIVATION_LEAKY_RELU; a.alpha = rng_int(rng, 0, 1) ? 0.1f : -1.5f; break;
    }
    return a;
}

static void random_problem(test_rng *rng, int c) {
    fovea_conv2d_params p;
    memset(&p, 0, sizeof p);
    p.batch = (size_t)rng_int(rng, 1, 3);
    p.channels = p.groups = (size_t)rng_int(rng, 1, 5);
    p.output_channels = p.channels * (size_t)(rng_int(rng, 0, 3) == 0 ? rng_int(rng, 2, 3) : 1);
    p.input_height = random_extent(rng);
    p.input_width = random_extent(rng);
    const long shape = rng_int(rng, 0, 11);
    if (shape < 4) { /* 3×3 stride 1 */
        p.kernel_height = p.kernel_width = 3;
        p.stride_height = p.stride_width = 1;
        p.dilation_height = p.dilation_width = 1;
    } else if (shape < 7) { /* 3×3 stride 2 */
        p.kernel_height = p.kernel_width = 3;
        p.stride_height = p.stride_width = 2;
        p.dilation_height = p.dilation_width = 1;
    } else if (shape < 9) { /* 5×5 or 7×7, stride 1 or 2 (their own variants) */
        p.kernel_height = p.kernel_width = rng_int(rng, 0, 1) ? 7 : 5;
        p.stride_height = p.stride_width = (size_t)rng_int(rng, 1, 2);
        p.dilation_height = p.dilation_width = 1;
    } else { /* anything */
        p.kernel_height = (size_t)rng_int(rng, 1, 5);
        p.kernel_width = (size_t)rng_int(rng, 1, 5);
        p.stride_height = (size_t)rng_int(rng, 1, 3);
        p.stride_width = (size_t)rng_int(rng, 1, 4);
        p.dilation_height = (size_t)rng_int(rng, 1, 3);
        p.dilation_width = (size_t)rng_int(rng, 1, 3);
    }
    const long span_h = (long)((p.kernel_height - 1) * p.dilation_height);
    const long span_w = (long)((p.kernel_width - 1) * p.dilation_width);
    p.pad_top = (size_t)rng_int(rng, 0, span_h + (rng_int(rng, 0, 9) == 0 ? 3 : 0));
    p.pad_left = (size_t)rng_int(rng, 0, span_w + (rng_int(rng, 0, 9) == 0 ? 3 : 0));
    const long pad_bottom = rng_int(rng, 0, span_h), pad_right = rng_int(rng, 0, span_w);
    const long room_h = (long)p.input_height + (long)p.pad_top + pad_bottom - span_h - 1;
    const long room_w = (long)p.input_width + (long)p.pad_left + pad_right - span_w - 1;
    if (room_h < 0 || room_w < 0) return; /* window larger than the padded input: draw again */
    p.output_height = (size_t)(room_h / (long)p.stride_height + 1);
    p.output_width = (size_t)(room_w / (long)p.stride_width + 1);
    if (rng_int(rng, 0, 14) == 0) { /* extra outputs whose windows are all padding: bias only */
        p.output_height += (size_t)rng_int(rng, 0, 3);
        p.output_width += (size_t)rng_int(rng, 0, 3);
    }

    const size_t x_count = p.batch * p.channels * p.input_height * p.input_width;
    const size_t w_count = p.output_channels * p.kernel_height * p.kernel_width;
    float *w = (float *)malloc(w_count * sizeof(float));
    float *bias = (float *)malloc(p.output_channels * sizeof(float));
    if (w == NULL || bias == NULL) exit(2);
    fill(rng, w, w_count, 0);
    fill(rng, bias, p.output_channels, 0);
    int null_activation = 0;
    const fovea_activation act = random_activation(rng, &null_activation);
    const size_t gap = rng_int(rng, 0, 2) == 0 ? (size_t)rng_int(rng, 1, 40) : 0;
    const size_t threads = (size_t)rng_int(rng, 1, 3);
    const int special = c % 10 == 9;
    const float *b = rng_int(rng, 0, 3) == 0 ? NULL : bias;
    if (c % 3 == 0) {
        fenced_buffer x = fenced_alloc(x_count, c % 2);
        fill(rng, x.data, x_count, special);
        compare_all(&p, w, b, x.data, null_activation ? NULL : &act, gap, threads, 0);
        fenced_free(&x);
    } else {
        guarded_buffer x = guarded_alloc(x_count, (size_t)rng_int(rng, 0, 3));
        fill(rng, x.data, x_count, special);
        compare_all(&p, w, b, x.data, null_activation ? NULL : &act, gap, threads, (size_t)rng_int(rng, 0, 3));
        CHECK(guards_intact(&x), "a kernel wrote into its input's guard area");
        guarded_free(&x);
    }
    free(w);
    free(bias);
}

/* ---- Fixed cases -------------------------------------------------------------------- */

static fovea_conv2d_params params(size_t n, size_t c, size_t mult, size_t h, size_t w, size_t k, size_t s,
                                  size_t pad) {
    fovea_conv2d_params p;
    memset(&p, 0, sizeof p);
    p.batch = n;
    p.channels = p.groups = c;
    p.output_channels = c * mult;
    p.input_height = h;
    p.input_width = w;
    p.kernel_height = p.kernel_width = k;
    p.stride_height = p.stride_width = s;
    p.dilation_height = p.dilation_width = 1;
    p.pad_top = p.pad_left = pad;
    p.output_height = (h + 2 * pad - k) / s + 1;
    p.output_width = (w + 2 * pad - k) / s + 1;
    return p;
}

static void run_fixed(test_rng *rng, const fovea_conv2d_params *p, const fovea_activation *act, size_t threads,
                      int fenced) {
    const size_t x_count = p->batch * p->channels * p->input_height * p->input_width;
    const size_t w_count = p->output_channels * p->kernel_height * p->kernel_width;
    float *w = (float *)malloc(w_count * sizeof(float));
    float *bias = (float *)malloc(p->output_channels * sizeof(float));
    if (w == NULL || bias == NULL) exit(2);
    fill(rng, w, w_count, 0);
    fill(rng, bias, p->output_channels, 0);
    if (fenced) {
        fenced_buffer x = fenced_alloc(x_count, 1);
        fill(rng, x.data, x_count, 0);
        compare_all(p, w, bias, x.data, act, 0, threads, 0);
        fenced_free(&x);
    } else {
        float *x = (float *)malloc(x_count * sizeof(float));
        if (x == NULL) exit(2);
        fill(rng, x, x_count, 0);
        compare_all(p, w, bias, x, act, 3, threads, 1);
        free(x);
    }
    free(w);
    free(bias);
}

/* MobileNetV2's depthwise layers (fewer channels, to keep the naive loop quick), ReLU6 fused. */
static void mobilenet_shapes(test_rng *rng) {
    const fovea_activation relu6 = {FOVEA_ACTIVATION_CLIP, 0.0f, 6.0f, 0.0f};
    const size_t shapes[][3] = {{112, 1, 4}, {112, 2, 3}, {56, 1, 5}, {56, 2, 3}, {28, 1, 4},
                                {28, 2, 2}, {14, 1, 7}, {14, 2, 3}, {7, 1, 9}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const fovea_conv2d_params p = params(1, shapes[i][2], 1, shapes[i][0], shapes[i][0], 3, shapes[i][1], 1);
        run_fixed(rng, &p, &relu6, 2, (int)(i % 2));
    }
    /* Batch 2 on few planes: row bands across threads. */
    const fovea_conv2d_params p = params(2, 1, 1, 112, 112, 3, 1, 1);
    run_fixed(rng, &p, NULL, 3, 0);
    const fovea_conv2d_params q = params(1, 1, 2, 113, 97, 3, 2, 1);
    run_fixed(rng, &q, NULL, 2, 1);
    const fovea_conv2d_params r = params(1, 2, 1, 60, 70, 5, 2, 2); /* 5×5 stride 2 (MnasNet, EfficientNet) */
    run_fixed(rng, &r, NULL, 2, 1);
    /* ConvNeXt's 7×7 pad 3 at each stage's size, EfficientNet's 5×5 pad 2 stride 1 and 2 (few channels). */
    const size_t big[][4] = {{56, 7, 1, 3}, {28, 7, 1, 3}, {14, 7, 1, 3}, {7, 7, 1, 3}, {112, 5, 2, 2},
                             {28, 5, 1, 2}, {14, 5, 2, 2}, {7, 5, 1, 2}, {57, 7, 2, 3}, {13, 5, 1, 2}};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        const fovea_conv2d_params b = params(1, 3, 1, big[i][0], big[i][0], big[i][1], big[i][2], big[i][3]);
        run_fixed(rng, &b, i % 3 == 0 ? &relu6 : NULL, 1 + i % 3, (int)(i % 2));
    }
}

/* Hand-checked: a 3×3 all-ones kernel over a 3×3 ramp with pads 1 sums each neighbourhood. */
static void known_values(void) {
    const float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const float w[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    const float bias[1] = {0.5f};
    const float want[9] = {12.5f, 21.5f, 16.5f, 27.5f, 45.5f, 33.5f, 24.5f, 39.5f, 28.5f};
    const float want_s2[4] = {12.5f, 16.5f, 24.5f, 28.5f};
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        fovea_conv2d_params p = params(1, 1, 1, 3, 3, 3, 1, 1);
        float y[9];
        CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, w, bias, x, y, 9, NULL, test_pool(1)), FOVEA_STATUS_OK);
        for (int i = 0; i < 9; i++) CHECK(y[i] == want[i], "[%s] 3x3s1 ramp output %d: %g, want %g", test_isas[isa], i,
                                          (double)y[i], (double)want[i]);
        p = params(1, 1, 1, 3, 3, 3, 2, 1);
        CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, w, bias, x, y, 4, NULL, test_pool(1)), FOVEA_STATUS_OK);
        for (int i = 0; i < 4; i++) CHECK(y[i] == want_s2[i], "[%s] 3x3s2 ramp output %d: %g, want %g",
                                          test_isas[isa], i, (double)y[i], (double)want_s2[i]);
        /* Clip at 20: the fused activation. */
        const fovea_activation clip = {FOVEA_ACTIVATION_CLIP, 0.0f, 20.0f, 0.0f};
        p = params(1, 1, 1, 3, 3, 3, 1, 1);
        CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, w, bias, x, y, 9, &clip, test_pool(1)), FOVEA_STATUS_OK);
        for (int i = 0; i < 9; i++) CHECK(y[i] == (want[i] > 20 ? 20 : want[i]), "[%s] clipped output %d: %g",
                                          test_isas[isa], i, (double)y[i]);
        /* Multiplier 2: channel m reads input channel m / 2; a 1×1 kernel scales it. */
        p = params(1, 1, 2, 3, 3, 1, 1, 0);
        const float scales[2] = {2.0f, -1.0f};
        float y2[18];
        CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, scales, NULL, x, y2, 18, NULL, test_pool(1)), FOVEA_STATUS_OK);
        for (int i = 0; i < 9; i++) {
            CHECK(y2[i] == 2 * x[i] && y2[9 + i] == -x[i], "[%s] multiplier output %d: %g %g", test_isas[isa], i,
                  (double)y2[i], (double)y2[9 + i]);
        }
    }
    fovea_kernels_set_isa("auto");
}

/* A NaN or an infinity at every position of a plane: it reaches exactly the outputs whose window holds it. */
static void special_values(void) {
    enum { H = 9, W = 21 };
    const float w[9] = {0.5f, -0.25f, 1, 0.75f, 2, -1, 0.125f, 1.5f, -0.5f};
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        for (int stride = 1; stride <= 2; stride++) {
            const fovea_conv2d_params p = params(1, 1, 1, H, W, 3, (size_t)stride, 1);
            const size_t OH = p.output_height, OW = p.output_width;
            for (int at = 0; at < H * W; at++) {
                float x[H * W], y[H * W];
                for (int i = 0; i < H * W; i++) x[i] = 1.0f;
                x[at] = at % 2 ? NAN : INFINITY;
                /* ReLU for the infinities; none for NaN (a fused ReLU would map it to 0, checked below). */
                const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
                CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, w, NULL, x, y, OH * OW, at % 2 ? NULL : &relu, test_pool(1)),
                             FOVEA_STATUS_OK);
                float y_relu[H * W];
                CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, w, NULL, x, y_relu, OH * OW, &relu, test_pool(1)), FOVEA_STATUS_OK);
                const long ah = at / W, aw = at % W;
                for (long oh = 0; oh < (long)OH; oh++) {
                    for (long ow = 0; ow < (long)OW; ow++) {
                        const long kh = ah - (oh * stride - 1), kw = aw - (ow * stride - 1);
                        const int hit = kh >= 0 && kh < 3 && kw >= 0 && kw < 3;
                        const float v = y[oh * (long)OW + ow];
                        if (at % 2) {
                            const float r = y_relu[oh * (long)OW + ow];
                            CHECK(!hit ? isfinite(r) : r == 0.0f, "[%s] s%d NaN at %d with ReLU: (%ld,%ld) is %g",
                                  test_isas[isa], stride, at, oh, ow, (double)r);
                        }
                        if (!hit) {
                            CHECK(isfinite(v), "[%s] s%d special at %d leaked to (%ld,%ld)", test_isas[isa], stride,
                                  at, oh, ow);
                        } else if (at % 2) {
                            CHECK(isnan(v), "[%s] s%d NaN at %d: (%ld,%ld) is %g", test_isas[isa], stride, at, oh, ow,
                                  (double)v);
                        } else {
                            /* relu(+inf * w): +inf for a positive tap, 0 for a negative one. */
                            const float want = w[kh * 3 + kw] > 0 ? INFINITY : 0.0f;
                            CHECK(v == want, "[%s] s%d inf at %d: (%ld,%ld) is %g, want %g", test_isas[isa], stride,
                                  at, oh, ow, (double)v, (double)want);
                        }
                    }
                }
            }
        }
    }
    fovea_kernels_set_isa("auto");
}

/* ---- Bad parameters ------------------------------------------------------------------- */

static void bad_parameters(void) {
    float x[64] = {0}, w[64] = {0}, y[64];
    const fovea_conv2d_params good = params(1, 2, 1, 4, 4, 3, 1, 1);
    const size_t image = 2 * 16;
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&good, w, NULL, x, y, image, NULL, test_pool(1)), FOVEA_STATUS_OK);
    CHECK(fovea_depthwise_kernel_name(&good) != NULL, "a valid shape has a kernel name");

    CHECK_STATUS(fovea_depthwise_conv2d_f32(NULL, w, NULL, x, y, image, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&good, NULL, NULL, x, y, image, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&good, w, NULL, NULL, y, image, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&good, w, NULL, x, NULL, image, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK(fovea_depthwise_kernel_name(NULL) == NULL, "no name for NULL");

    /* Each bad field, and nothing written. */
    for (int field = 0; field < 12; field++) {
        fovea_conv2d_params p = good;
        size_t stride = image;
        fovea_status want = FOVEA_STATUS_INVALID_PARAMETER;
        switch (field) {
        case 0: p.kernel_height = 0; break;
        case 1: p.kernel_width = 0; break;
        case 2: p.stride_height = 0; break;
        case 3: p.stride_width = 0; break;
        case 4: p.dilation_height = 0; break;
        case 5: p.dilation_width = 0; break;
        case 6: p.groups = 1; break;                          /* not depthwise */
        case 7: p.output_channels = 3; break;                 /* not a multiple of channels */
        case 8: stride = image - 1; break;                    /* images would overlap */
        case 9: p.pad_left = FOVEA_KERNELS_MAX_EXTENT + 1; break;
        case 10: p.batch = (size_t)1 << 62; want = FOVEA_STATUS_TOO_LARGE; break;
        case 11: p.output_channels = 0; break;                /* multiplier 0 */
        }
        for (size_t i = 0; i < 64; i++) y[i] = 42.0f;
        CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, w, NULL, x, y, stride, NULL, test_pool(1)), want);
        int untouched = 1;
        for (size_t i = 0; i < 64; i++) untouched &= y[i] == 42.0f;
        CHECK(untouched, "field %d: output written despite an error", field);
        if (field != 8) CHECK(fovea_depthwise_kernel_name(&p) == NULL, "field %d: a name for a bad shape", field);
    }
    /* A batch stride whose span overflows. */
    fovea_conv2d_params p = good;
    p.batch = 2;
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, w, NULL, x, y, SIZE_MAX / 2, NULL, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
    /* An unknown activation kind. */
    const fovea_activation bogus = {(fovea_activation_kind)9, 0, 0, 0};
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&good, w, NULL, x, y, image, &bogus, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);

    /* Nothing to do: pointers may be NULL, nothing written. */
    p = good;
    p.batch = 0;
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, NULL, NULL, NULL, NULL, 0, NULL, test_pool(1)), FOVEA_STATUS_OK);
    p = good;
    p.output_width = 0;
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, NULL, NULL, NULL, NULL, 0, NULL, test_pool(1)), FOVEA_STATUS_OK);
    p = good;
    p.channels = p.groups = p.output_channels = 0;
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, NULL, NULL, NULL, NULL, 0, NULL, test_pool(1)), FOVEA_STATUS_OK);
    /* An empty input with outputs: every window is padding, so outputs are bias (then activation). */
    p = good;
    p.input_height = 0;
    const float bias[2] = {-1.5f, 2.5f};
    for (size_t i = 0; i < image; i++) y[i] = 42.0f;
    const fovea_activation relu = {FOVEA_ACTIVATION_RELU, 0, 0, 0};
    CHECK_STATUS(fovea_depthwise_conv2d_f32(&p, w, bias, NULL, y, image, &relu, test_pool(1)), FOVEA_STATUS_OK);
    for (size_t i = 0; i < image; i++) CHECK(y[i] == (i < 16 ? 0.0f : 2.5f), "empty input output %zu: %g", i,
                                             (double)y[i]);
}

int main(void) {
    test_rng rng = {0xD3E7D15Eull};
    printf("ISA: %s (default), OpenMP: %s\n", fovea_kernels_isa_name(), fovea_kernels_has_openmp() ? "yes" : "no");
    for (int isa = 0; isa < test_isa_count; isa++) {
        printf("  %s: %s\n", test_isas[isa], fovea_kernels_isa_supported(test_isas[isa]) ? "tested" : "not supported here");
    }
    known_values();
    special_values();
    bad_parameters();
    mobilenet_shapes(&rng);
    for (int c = 0; cases_run < 900; c++) random_problem(&rng, c);
    printf("problems: %ld (variant runs: 3x3s1 %ld, 3x3s2 %ld, 5x5s1 %ld, 5x5s2 %ld, 7x7s1 %ld, 7x7s2 %ld, kxk %ld)\n",
           cases_run, variant_runs[0], variant_runs[1], variant_runs[2], variant_runs[3], variant_runs[4],
           variant_runs[5], variant_runs[6]);
    return test_finish("test_depthwise");
}
