/*
 * Direct small-channel convolution (fovea_conv_smallc.h): every ISA variant
 * the CPU supports against the shared double-precision reference convolution,
 * over seeded random shapes (1–4 input channels, kernels 1–7, strides 1–2
 * each way, pads, tiny and odd planes, batch > 1, output channels not a
 * multiple of the tile, strided outputs with untouched gaps, inputs against
 * inaccessible pages, every activation), the three stem layers it is for,
 * 1 thread against 2, and bad parameters.
 *
 * Tolerance: each output y may differ from the exact result ŷ (double, then
 * the activation) by (taps + 2)·2⁻²⁴·(|bias| + Σ|w·x|)·max(1, |alpha|): float
 * rounding of a sum of taps + 1 terms in any order, with or without FMA.
 */
#include "support/reference.h"
#include "support/test_support.h"

/* Expected outputs (after the activation) and their error bounds, from the shared reference. */
static void expected_outputs(const fovea_conv2d_params *p, const float *w, const float *bias, const float *x,
                             const fovea_activation *act, double *expected, double *bound) {
    const double slope = act != NULL && act->kind == FOVEA_ACTIVATION_LEAKY_RELU && fabs(act->alpha) > 1
                             ? fabs(act->alpha) : 1.0;
    const size_t count = p->batch * p->output_channels * p->output_height * p->output_width;
    const double taps = (double)(p->channels * p->kernel_height * p->kernel_width);
    reference_conv2d(p, w, bias, x, expected, bound); /* bound holds the magnitudes first */
    for (size_t i = 0; i < count; i++) {
        expected[i] = test_activation(act, expected[i]);
        bound[i] = (taps + 2) * ldexp(1.0, -24) * bound[i] * slope + 1e-37;
    }
}

static long cases_run = 0;

/* fovea_conv2d_smallc_f32 with a workspace of exactly the size asked for (NULL if it asks for none). */
static fovea_status smallc(const fovea_conv2d_params *p, const float *w, const float *bias, const float *x, float *y,
                           size_t stride, const fovea_activation *act, size_t threads) {
    const size_t bytes = fovea_conv2d_smallc_workspace_size(p, threads);
    guarded_buffer workspace = guarded_alloc(bytes / sizeof(float) + 1, 0);
    const fovea_status status = fovea_conv2d_smallc_f32(p, w, bias, x, y, stride, act, workspace.data, bytes, test_pool(threads));
    CHECK(guards_intact(&workspace), "wrote outside the workspace");
    guarded_free(&workspace);
    return status;
}

/* Runs p on every ISA (threads 1, then `threads`), with y images `gap` floats apart beyond their size. */
static void compare_all(const fovea_conv2d_params *p, const float *w, const float *bias, const float *x,
                        const fovea_activation *act, size_t gap, size_t threads) {
    const size_t plane = p->output_height * p->output_width, image = p->output_channels * plane;
    const size_t stride = image + gap, total = (p->batch - 1) * stride + image;
    double *expected = malloc(p->batch * image * sizeof(double)), *bound = malloc(p->batch * image * sizeof(double));
    expected_outputs(p, w, bias, x, act, expected, bound);
    char text[200];
    snprintf(text, sizeof text, "n%zu c%zu %zux%zu -> m%zu %zux%zu k%zux%zu s%zux%zu pad%zu,%zu act %d gap %zu",
             p->batch, p->channels, p->input_height, p->input_width, p->output_channels, p->output_height,
             p->output_width, p->kernel_height, p->kernel_width, p->stride_height, p->stride_width, p->pad_top,
             p->pad_left, act ? (int)act->kind : -1, gap);
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (!fovea_kernels_isa_supported(test_isas[isa])) continue;
        CHECK_STATUS(fovea_kernels_set_isa(test_isas[isa]), FOVEA_STATUS_OK);
        const char *name = fovea_conv2d_smallc_kernel_name(p);
        CHECK(name != NULL && strstr(name, test_isa_without_neon(test_isas[isa])) != NULL, "[%s] kernel name %s", test_isas[isa],
              name ? name : "NULL");
        guarded_buffer y = guarded_alloc(total, (size_t)isa);
        CHECK_STATUS(smallc(p, w, bias, x, y.data, stride, act, 1), FOVEA_STATUS_OK);
        long bad = 0;
        size_t first = 0;
        for (size_t n = 0; n < p->batch; n++) {
            for (size_t j = 0; j < image; j++) {
                const float got = y.data[n * stride + j];
                const double want = expected[n * image + j];
                const int ok = want != want ? got != got : fabs((double)got - want) <= bound[n * image + j];
                if (!ok && bad++ == 0) first = n * image + j;
            }
            for (size_t j = image; n + 1 < p->batch && j < stride; j++) {
                if (float_bits(y.data[n * stride + j]) != guard_bits) bad++;
            }
        }
        if (bad) {
            CHECK(0, "[%s] %ld outputs off, first #%zu: %.9g, expected %.9g ± %.3g (%s)", test_isas[isa], bad, first,
                  (double)y.data[first / image * stride + first % image], expected[first], bound[first], text);
        } else {
            CHECK(1, "ok");
        }
        CHECK(guards_intact(&y), "[%s] wrote outside y (%s)", test_isas[isa], text);
        if (threads > 1) {
            guarded_buffer many = guarded_alloc(total, 0);
            CHECK_STATUS(smallc(p, w, bias, x, many.data, stride, act, threads), FOVEA_STATUS_OK);
            int same = 1;
            for (size_t n = 0; n < p->batch; n++) {
                for (size_t j = 0; j < image; j++) same &= same_float(many.data[n * stride + j], y.data[n * stride + j]);
            }
            CHECK(same, "[%s] %zu threads differ from 1 thread (%s)", test_isas[isa], threads, text);
            guarded_free(&many);
        }
        guarded_free(&y);
    }
    CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
    free(expected);
    free(bound);
    cases_run++;
}

static fovea_activation random_activation(test_rng *rng, int *none) {
    fovea_activation a = {FOVEA_ACTIVATION_NONE, 0, 0, 0};
    *none = 0;
    switch (rng_int(rng, 0, 4)) {
    case 0: *none = 1; break;
    case 1: a.kind = FOVEA_ACTIVATION_RELU; break;
    case 2: a.kind = FOVEA_ACTIVATION_CLIP; a.min = 0; a.max = 6; break;
    case 3: a.kind = FOVEA_ACTIVATION_LEAKY_RELU; a.alpha = 0.1f; break;
    default: a.kind = FOVEA_ACTIVATION_CLIP; a.min = -0.5f; a.max = 0.25f; break;
    }
    return a;
}

/* One convolution with random data; the input sits against an inaccessible page (before or after). */
static void run_case(test_rng *rng, fovea_conv2d_params p, int with_bias, size_t gap, size_t threads) {
    const size_t xs = p.batch * p.channels * p.input_height * p.input_width;
    const size_t ws = p.output_channels * p.channels * p.kernel_height * p.kernel_width;
    fenced_buffer x = fenced_alloc(xs, (int)rng_int(rng, 0, 1));
    float *w = malloc(ws * sizeof(float)), *b = malloc(p.output_channels * sizeof(float));
    for (size_t i = 0; i < xs; i++) x.data[i] = rng_float(rng) * 4;
    for (size_t i = 0; i < ws; i++) w[i] = rng_float(rng);
    for (size_t i = 0; i < p.output_channels; i++) b[i] = rng_float(rng);
    int none = 0;
    const fovea_activation act = random_activation(rng, &none);
    compare_all(&p, w, with_bias ? b : NULL, x.data, none ? NULL : &act, gap, threads);
    free(w);
    free(b);
    fenced_free(&x);
}

static fovea_conv2d_params shape(size_t n, size_t c, size_t h, size_t wd, size_t m, size_t kh, size_t kw, size_t sh,
                                 size_t sw, size_t pt, size_t pl, size_t pb, size_t pr) {
    fovea_conv2d_params p = {0};
    p.batch = n; p.channels = c; p.input_height = h; p.input_width = wd; p.output_channels = m; p.groups = 1;
    p.kernel_height = kh; p.kernel_width = kw; p.stride_height = sh; p.stride_width = sw;
    p.dilation_height = p.dilation_width = 1; p.pad_top = pt; p.pad_left = pl;
    const long oh = ((long)h + (long)pt + (long)pb - (long)kh) / (long)sh + 1;
    const long ow = ((long)wd + (long)pl + (long)pr - (long)kw) / (long)sw + 1;
    p.output_height = oh > 0 ? (size_t)oh : 0;
    p.output_width = ow > 0 ? (size_t)ow : 0;
    return p;
}

static void random_problem(test_rng *rng) {
    static const size_t sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 17, 31, 33, 47, 50, 67, 100};
    const size_t k = (size_t)rng_int(rng, 1, 7), kw = rng_int(rng, 0, 3) == 0 ? (size_t)rng_int(rng, 1, 7) : k;
    const size_t s = (size_t)rng_int(rng, 1, 2), sw = rng_int(rng, 0, 3) == 0 ? (size_t)rng_int(rng, 1, 2) : s;
    const size_t h = sizes[rng_int(rng, 0, 14)], w = sizes[rng_int(rng, 0, 14)];
    const size_t pt = (size_t)rng_int(rng, 0, (long)k), pl = (size_t)rng_int(rng, 0, (long)kw);
    const size_t pb = (size_t)rng_int(rng, 0, (long)k), pr = (size_t)rng_int(rng, 0, (long)kw);
    fovea_conv2d_params p = shape((size_t)rng_int(rng, 1, 3), (size_t)rng_int(rng, 1, 4), h, w,
                                  (size_t)rng_int(rng, 1, 21), k, kw, s, sw, pt, pl, pb, pr);
    if (p.output_height == 0 || p.output_width == 0 || h + pt + pb < k || w + pl + pr < kw) return;
    run_case(rng, p, (int)rng_int(rng, 0, 3) != 0, rng_int(rng, 0, 2) == 0 ? (size_t)rng_int(rng, 1, 9) : 0,
             (size_t)rng_int(rng, 1, 3));
}

/* The stems the kernel is for: SqueezeNet 1.1 conv0, MobileNetV2 features.0, ResNet-50 conv1. */
static void stem_shapes(test_rng *rng) {
    /* Under emulation on 112×112 images: a quarter of the pixels, the same code paths. */
    const size_t side = test_emulated() ? 112 : 224;
    run_case(rng, shape(1, 3, side, side, 64, 3, 3, 2, 2, 0, 0, 0, 0), 1, 0, 2);
    run_case(rng, shape(1, 3, side, side, 32, 3, 3, 2, 2, 1, 1, 1, 1), 1, 0, 2);
    run_case(rng, shape(2, 3, side, side, 64, 7, 7, 2, 2, 3, 3, 3, 3), 1, 0, 2);
}

/* A window wholly in the padding gets the bias through the activation. */
static void padding_only(void) {
    const fovea_conv2d_params p = shape(1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1); /* 3×3 output, 1×1 kernel */
    const float x[1] = {2.0f}, w[2] = {3.0f, -1.0f}, bias[2] = {0.5f, -0.25f};
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        float y[18];
        CHECK_STATUS(smallc(&p, w, bias, x, y, 18, NULL, 1), FOVEA_STATUS_OK);
        for (int i = 0; i < 9; i++) {
            CHECK(y[i] == (i == 4 ? 6.5f : 0.5f), "[%s] channel 0 output %d: %g", test_isas[isa], i, (double)y[i]);
            CHECK(y[9 + i] == (i == 4 ? -2.25f : -0.25f), "[%s] channel 1 output %d: %g", test_isas[isa], i,
                  (double)y[9 + i]);
        }
    }
    fovea_kernels_set_isa("auto");
}

static void bad_parameters(void) {
    float x[64] = {0}, w[64] = {0}, y[64];
    const fovea_conv2d_params good = shape(1, 2, 4, 4, 2, 3, 3, 1, 1, 1, 1, 1, 1);
    const size_t image = 2 * 16;
    CHECK(fovea_conv2d_smallc_supports(&good), "a 2-channel 3x3 is supported");
    CHECK_STATUS(smallc(&good, w, NULL, x, y, image, NULL, 1), FOVEA_STATUS_OK);
    CHECK_STATUS(smallc(NULL, w, NULL, x, y, image, NULL, 1), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(smallc(&good, NULL, NULL, x, y, image, NULL, 1), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(smallc(&good, w, NULL, NULL, y, image, NULL, 1), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(smallc(&good, w, NULL, x, NULL, image, NULL, 1), FOVEA_STATUS_NULL_POINTER);
    CHECK(fovea_conv2d_smallc_kernel_name(NULL) == NULL, "no name for NULL");
    for (int field = 0; field < 9; field++) {
        fovea_conv2d_params p = good;
        size_t stride = image;
        fovea_status want = FOVEA_STATUS_INVALID_PARAMETER;
        switch (field) {
        case 0: p.channels = 5; p.output_channels = 2; break; /* too many input channels */
        case 1: p.groups = 2; break;                          /* grouped */
        case 2: p.stride_width = 3; break;
        case 3: p.stride_height = 3; break;
        case 4: p.dilation_width = 2; break;
        case 5: p.kernel_height = 0; break;
        case 6: stride = image - 1; break;                    /* images would overlap */
        case 7: p.batch = 2; stride = SIZE_MAX / 2; want = FOVEA_STATUS_TOO_LARGE; break; /* span overflows */
        case 8: p.output_width = 0; break;
        }
        for (size_t i = 0; i < 64; i++) y[i] = 42.0f;
        CHECK_STATUS(smallc(&p, w, NULL, x, y, stride, NULL, 1), want);
        int untouched = 1;
        for (size_t i = 0; i < 64; i++) untouched &= y[i] == 42.0f;
        CHECK(untouched, "field %d: output written despite an error", field);
        if (field != 6 && field != 7) CHECK(fovea_conv2d_smallc_kernel_name(&p) == NULL, "field %d: a name for a bad shape", field);
    }
    float workspace[256];
    const size_t need = fovea_conv2d_smallc_workspace_size(&good, 1);
    CHECK(need > 0 && need <= sizeof workspace, "workspace size %zu", need);
    CHECK_STATUS(fovea_conv2d_smallc_f32(&good, w, NULL, x, y, image, NULL, NULL, need, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_conv2d_smallc_f32(&good, w, NULL, x, y, image, NULL, workspace, need - 1, test_pool(1)),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK(fovea_conv2d_smallc_workspace_size(NULL, 1) == 0, "no workspace size for NULL");
    const fovea_activation bogus = {(fovea_activation_kind)9, 0, 0, 0};
    CHECK_STATUS(smallc(&good, w, NULL, x, y, image, &bogus, 1), FOVEA_STATUS_INVALID_PARAMETER);
}

int main(void) {
    test_rng rng = {0x57E3C0DEull};
    printf("ISA: %s (default), OpenMP: %s\n", fovea_kernels_isa_name(), fovea_kernels_has_openmp() ? "yes" : "no");
    padding_only();
    bad_parameters();
    stem_shapes(&rng);
    while (cases_run < test_cases(500)) random_problem(&rng);
    printf("problems: %ld\n", cases_run);
    return test_finish("test_conv_smallc");
}
