/*
 * 2-D max and average pooling: every ISA variant the CPU supports against
 * the shared naive reference (support/reference.c), over hundreds of seeded
 * random shapes, plus hand-checked numbers and the edge cases (special
 * values, windows of padding only, bad parameters, nothing to do).
 */
#include "support/reference.h"
#include "support/test_support.h"

#include <float.h>

/* ONNX's output size along one axis; 0 if the padded input is shorter than the window. */
static size_t pooled_size(size_t input, size_t kernel, size_t stride, size_t dilation, size_t pad_begin,
                          size_t pad_end, int ceil_mode) {
    const long span = (long)((kernel - 1) * dilation + 1);
    const long room = (long)(input + pad_begin + pad_end) - span;
    if (room < 0) return 0;
    long size = (ceil_mode ? (room + (long)stride - 1) / (long)stride : room / (long)stride) + 1;
    /* In ceil mode the last window must start inside the input or the begin padding. */
    if (ceil_mode && (size - 1) * (long)stride >= (long)(input + pad_begin)) size--;
    return (size_t)size;
}

/* ---- Comparing every variant with the naive implementation -------------------- */

static long cases_compared = 0, cases_with_empty_window = 0;

static void describe(const fovea_pool2d_params *p, char *text, size_t size) {
    snprintf(text, size,
             "N%zu C%zu in %zux%zu out %zux%zu kernel %zux%zu stride %zux%zu dilation %zux%zu "
             "pads t%zu l%zu b%zu r%zu cip %d",
             p->batch, p->channels, p->input_height, p->input_width, p->output_height, p->output_width,
             p->kernel_height, p->kernel_width, p->stride_height, p->stride_width, p->dilation_height,
             p->dilation_width, p->pad_top, p->pad_left, p->pad_bottom, p->pad_right, p->count_include_pad);
}

/*
 * Runs max and average pooling with every supported ISA on `threads` threads
 * and checks them against the naive result (max bit-exact, average within 1e-6 relative) and
 * against each other (bit-exact), and that nothing is written outside y.
 */
static void compare_all_variants(const fovea_pool2d_params *p, const float *x, size_t misalign, size_t threads) {
    const size_t planes = p->batch * p->channels;
    const size_t count = planes * p->output_height * p->output_width;
    char text[256];
    describe(p, text, sizeof text);

    for (int is_max = 0; is_max <= 1; is_max++) {
        float *expected = (float *)malloc((count ? count : 1) * sizeof(float));
        float *scalar_result = (float *)malloc((count ? count : 1) * sizeof(float));
        if (expected == NULL || scalar_result == NULL) exit(2);
        const long empty = reference_pool2d(p, x, expected, is_max);
        if (is_max == 0) {
            cases_compared++;
            if (empty > 0) cases_with_empty_window++;
        }

        for (int isa = 0; isa < test_isa_count; isa++) {
            if (!fovea_kernels_isa_supported(test_isas[isa])) continue;
            CHECK_STATUS(fovea_kernels_set_isa(test_isas[isa]), FOVEA_STATUS_OK);
            guarded_buffer y = guarded_alloc(count, misalign);
            const fovea_status status = is_max ? fovea_maxpool2d_f32(p, x, y.data, test_pool(threads))
                                                : fovea_avgpool2d_f32(p, x, y.data, test_pool(threads));
            CHECK(status == FOVEA_STATUS_OK, "%s %s: status %d (%s)", test_isas[isa], is_max ? "max" : "avg",
                  (int)status, text);
            long mismatches = 0;
            size_t first = 0;
            for (size_t i = 0; i < count; i++) {
                /* Max pooling never gives NaN; average pooling within rounding, the same bits on every ISA. */
                const int ok = is_max ? same_float(y.data[i], expected[i]) && !isnan(y.data[i])
                                      : close_float(y.data[i], expected[i], 1e-6);
                const int same_as_scalar = isa == 0 || same_float(y.data[i], scalar_result[i]);
                if (!ok || !same_as_scalar) {
                    if (mismatches == 0) first = i;
                    mismatches++;
                }
            }
            CHECK(mismatches == 0, "%s %s: %ld of %zu outputs differ, first at %zu: %.9g (0x%08x), naive %.9g "
                  "(0x%08x), scalar %.9g (%s)", test_isas[isa], is_max ? "max" : "avg", mismatches, count, first,
                  (double)y.data[first], (unsigned)float_bits(y.data[first]), (double)expected[first],
                  (unsigned)float_bits(expected[first]), (double)scalar_result[first], text);
            if (isa == 0) memcpy(scalar_result, y.data, count * sizeof(float));
            CHECK(guards_intact(&y), "%s %s wrote outside its output (%s)", test_isas[isa], is_max ? "max" : "avg", text);
            guarded_free(&y);
        }
        free(expected);
        free(scalar_result);
    }
    CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
}

/* ---- Random shapes ------------------------------------------------------------ */

/*
 * Fills x: mostly uniform in [-1, 1); some cases use few levels (ties, +0 and
 * -0), sprinkled special values, or mostly special values (windows of nothing
 * but NaN and -inf, zeros of both signs).
 */
static void fill_input(test_rng *rng, float *x, size_t count, int flavour) {
    for (size_t i = 0; i < count; i++) {
        float v = rng_float(rng);
        if (flavour == 1) {
            v = (float)rng_int(rng, -2, 2) * 0.5f; /* ties */
            if (v == 0.0f && rng_int(rng, 0, 1)) v = -0.0f;
        } else if (flavour == 2) {
            const long pick = rng_int(rng, 0, 99);
            if (pick == 0) v = NAN;
            else if (pick == 1) v = INFINITY;
            else if (pick == 2) v = -INFINITY;
            else if (pick == 3) v = -0.0f;
            else if (pick == 4) v = 0.0f;
            else if (pick == 5) v = FLT_MAX;
            else if (pick == 6) v = -FLT_MAX;
        } else if (flavour == 3) {
            static const float specials[] = {NAN, NAN, NAN, -INFINITY, -INFINITY, -FLT_MAX, 0.0f, -0.0f, -1.0f};
            v = specials[rng_int(rng, 0, (long)(sizeof specials / sizeof specials[0]) - 1)];
        }
        x[i] = v;
    }
}

static size_t random_extent(test_rng *rng) {
    static const size_t sizes[] = {1, 7, 37, 113};
    const long pick = rng_int(rng, 0, 9);
    if (pick < 8) return sizes[pick % 3];      /* mostly the small sizes: 1, 7, 37 */
    if (pick == 8) return (size_t)rng_int(rng, 2, 20);
    return sizes[3];                            /* sometimes 113 */
}

static void random_cases(test_rng *rng, int cases) {
    for (int c = 0; c < cases; c++) {
        fovea_pool2d_params p;
        memset(&p, 0, sizeof p);
        p.batch = rng_int(rng, 0, 1) ? 3 : 1;
        p.channels = (size_t)rng_int(rng, 1, 3);
        p.input_height = random_extent(rng);
        p.input_width = random_extent(rng);
        p.kernel_height = (size_t)rng_int(rng, 1, 5);
        p.kernel_width = (size_t)rng_int(rng, 1, 5);
        p.stride_height = (size_t)rng_int(rng, 1, 3);
        p.stride_width = (size_t)rng_int(rng, 1, 3);
        p.dilation_height = (size_t)rng_int(rng, 1, 2);
        p.dilation_width = (size_t)rng_int(rng, 1, 2);
        /*
         * Pads up to the window span, asymmetric; a few windows may then hold only padding.
         * One case in eight pads beyond the window (pads >= kernel: whole rows / columns of
         * windows in the padding, as ONNX allows).
         */
        const long extra = c % 8 == 5 ? 3 : 0;
        const long span_h = (long)((p.kernel_height - 1) * p.dilation_height) + extra;
        const long span_w = (long)((p.kernel_width - 1) * p.dilation_width) + extra;
        p.pad_top = (size_t)rng_int(rng, 0, span_h);
        p.pad_bottom = (size_t)rng_int(rng, 0, span_h);
        p.pad_left = (size_t)rng_int(rng, 0, span_w);
        p.pad_right = (size_t)rng_int(rng, 0, span_w);
        p.count_include_pad = (int)rng_int(rng, 0, 1);
        const int ceil_mode = (int)rng_int(rng, 0, 1);
        p.output_height = pooled_size(p.input_height, p.kernel_height, p.stride_height, p.dilation_height,
                                      p.pad_top, p.pad_bottom, ceil_mode);
        p.output_width = pooled_size(p.input_width, p.kernel_width, p.stride_width, p.dilation_width, p.pad_left,
                                     p.pad_right, ceil_mode);
        if (p.output_height == 0 || p.output_width == 0) {
            c--; /* the window does not fit: draw again */
            continue;
        }
        const size_t count = p.batch * p.channels * p.input_height * p.input_width;
        const size_t misalign = (size_t)rng_int(rng, 0, 3);
        const int flavour = c % 10 == 7 ? 1 : c % 10 == 9 ? 2 : c % 10 == 3 ? 3 : 0;
        const size_t threads = (size_t)(c % 3); /* 0, 1 (the calling thread) or 2 */
        if (c % 3 == 0) {
            /* The input against an inaccessible page, after it or before it: over-reads crash. */
            fenced_buffer x = fenced_alloc(count, c % 2);
            fill_input(rng, x.data, count, flavour);
            compare_all_variants(&p, x.data, misalign, threads);
            fenced_free(&x);
        } else {
            guarded_buffer x = guarded_alloc(count, misalign);
            fill_input(rng, x.data, count, flavour);
            compare_all_variants(&p, x.data, misalign, threads);
            CHECK(guards_intact(&x), "a kernel wrote into its input's guard area");
            guarded_free(&x);
        }
    }
}

/* Wider strides and dilations than the main sweep: the gather paths with large steps. */
static void wide_step_cases(test_rng *rng, int cases) {
    for (int c = 0; c < cases; c++) {
        fovea_pool2d_params p;
        memset(&p, 0, sizeof p);
        p.batch = 1;
        p.channels = 2;
        p.input_height = (size_t)rng_int(rng, 1, 60);
        p.input_width = (size_t)rng_int(rng, 1, 200);
        p.kernel_height = (size_t)rng_int(rng, 1, 3);
        p.kernel_width = (size_t)rng_int(rng, 1, 3);
        p.stride_height = (size_t)rng_int(rng, 1, 9);
        p.stride_width = (size_t)rng_int(rng, 1, 9);
        p.dilation_height = (size_t)rng_int(rng, 1, 4);
        p.dilation_width = (size_t)rng_int(rng, 1, 4);
        p.pad_left = (size_t)rng_int(rng, 0, 2);
        p.pad_right = (size_t)rng_int(rng, 0, 2);
        p.count_include_pad = (int)rng_int(rng, 0, 1);
        p.output_height = pooled_size(p.input_height, p.kernel_height, p.stride_height, p.dilation_height, 0, 0, 0);
        p.output_width = pooled_size(p.input_width, p.kernel_width, p.stride_width, p.dilation_width, p.pad_left,
                                     p.pad_right, (int)rng_int(rng, 0, 1));
        if (p.output_height == 0 || p.output_width == 0) {
            c--;
            continue;
        }
        const size_t count = p.batch * p.channels * p.input_height * p.input_width;
        fenced_buffer x = fenced_alloc(count, 1);
        fill_input(rng, x.data, count, 0);
        compare_all_variants(&p, x.data, 0, (size_t)(c % 2) * 2);
        fenced_free(&x);
    }
}

/*
 * Column stride 2, which the SIMD variants read with contiguous loads and
 * shuffles (two taps per pair of loads), two output rows at a time when their
 * windows overlap: every row width up to 80 (so every number of lanes in the
 * last vector), kernel widths 1-5, dilations 1-3, kernel heights 1-3 with row
 * strides 1-2, pads, ceil mode, the input against an inaccessible page on
 * either side.
 */
static void stride2_cases(test_rng *rng) {
    for (size_t width = 1; width <= 80; width++) {
        for (size_t kernel = 1; kernel <= 5; kernel++) {
            fovea_pool2d_params p;
            memset(&p, 0, sizeof p);
            p.batch = 1;
            p.channels = 2;
            p.input_height = (size_t)rng_int(rng, 1, 9);
            p.input_width = width;
            p.kernel_height = (size_t)rng_int(rng, 1, 3);
            p.kernel_width = kernel;
            p.stride_height = (size_t)rng_int(rng, 1, 2);
            p.stride_width = 2;
            p.dilation_height = 1;
            p.dilation_width = kernel == 3 || kernel == 2 ? (size_t)rng_int(rng, 1, 3) : (size_t)rng_int(rng, 1, 2);
            if (width % 4 == 0) p.dilation_width = 1; /* mostly the common dense windows */
            const long span_w = (long)((p.kernel_width - 1) * p.dilation_width);
            p.pad_left = (size_t)rng_int(rng, 0, span_w);
            p.pad_right = (size_t)rng_int(rng, 0, span_w);
            if (width % 3 == 0) p.pad_left = p.pad_right = 0; /* SqueezeNet's: no padding */
            p.pad_top = (size_t)rng_int(rng, 0, (long)p.kernel_height - 1);
            p.count_include_pad = (int)rng_int(rng, 0, 1);
            const int ceil_mode = (int)rng_int(rng, 0, 1);
            p.output_height = pooled_size(p.input_height, p.kernel_height, p.stride_height, 1, p.pad_top, 0, ceil_mode);
            p.output_width = pooled_size(p.input_width, p.kernel_width, 2, p.dilation_width, p.pad_left, p.pad_right,
                                         ceil_mode);
            if (p.output_height == 0 || p.output_width == 0) continue;
            const size_t count = p.batch * p.channels * p.input_height * p.input_width;
            fenced_buffer x = fenced_alloc(count, (int)(width + kernel) % 2);
            fill_input(rng, x.data, count, (int)(width % 4));
            compare_all_variants(&p, x.data, width % 3, 1);
            fenced_free(&x);
        }
    }
}

/*
 * 3×3 stride-2 windows (SqueezeNet's pools), whose SIMD variants take each
 * input row's 3-wide maxima once for two output rows: every width up to 80,
 * heights 5-13, pads, ceil mode, and inputs full of ties (zeros of both
 * signs), NaN and infinities, so that the order in which rows and taps are
 * folded shows in the bits.
 */
static void stride2_3x3_cases(test_rng *rng) {
    for (size_t width = 3; width <= 80; width++) {
        for (int flavour = 1; flavour <= 3; flavour++) {
            fovea_pool2d_params p;
            memset(&p, 0, sizeof p);
            p.batch = 1;
            p.channels = (size_t)rng_int(rng, 1, 3);
            p.input_height = (size_t)rng_int(rng, 5, 13);
            p.input_width = width;
            p.kernel_height = p.kernel_width = 3;
            p.stride_height = p.stride_width = 2;
            p.dilation_height = p.dilation_width = 1;
            const int padded = rng_int(rng, 0, 2) == 0;
            p.pad_top = p.pad_left = padded ? 1 : 0;
            p.pad_bottom = p.pad_right = padded ? 1 : 0;
            const int ceil_mode = (int)rng_int(rng, 0, 1);
            p.output_height = pooled_size(p.input_height, 3, 2, 1, p.pad_top, p.pad_bottom, ceil_mode);
            p.output_width = pooled_size(p.input_width, 3, 2, 1, p.pad_left, p.pad_right, ceil_mode);
            const size_t count = p.batch * p.channels * p.input_height * p.input_width;
            fenced_buffer x = fenced_alloc(count, (int)width % 2);
            fill_input(rng, x.data, count, flavour);
            compare_all_variants(&p, x.data, width % 3, 1);
            fenced_free(&x);
        }
    }
}

/* ---- Hand-checked numbers ------------------------------------------------------- */

static fovea_pool2d_params params_2d(size_t height, size_t width, size_t out_height, size_t out_width, size_t kernel,
                                     size_t stride) {
    fovea_pool2d_params p;
    memset(&p, 0, sizeof p);
    p.batch = 1;
    p.channels = 1;
    p.input_height = height;
    p.input_width = width;
    p.output_height = out_height;
    p.output_width = out_width;
    p.kernel_height = p.kernel_width = kernel;
    p.stride_height = p.stride_width = stride;
    p.dilation_height = p.dilation_width = 1;
    return p;
}

static void check_outputs(const char *what, const float *got, const float *want, size_t count) {
    for (size_t i = 0; i < count; i++) {
        CHECK(same_float(got[i], want[i]), "%s [%s]: output %zu is %.9g, expected %.9g", what,
              fovea_kernels_isa_name(), i, (double)got[i], (double)want[i]);
    }
}

static void known_values(void) {
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;

        /* 4×4 ramp, 2×2 windows, stride 2. */
        float ramp[16];
        for (int i = 0; i < 16; i++) ramp[i] = (float)i;
        fovea_pool2d_params p = params_2d(4, 4, 2, 2, 2, 2);
        float y[4];
        CHECK_STATUS(fovea_maxpool2d_f32(&p, ramp, y, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("max 2x2/2 on a ramp", y, (const float[]){5, 7, 13, 15}, 4);
        CHECK_STATUS(fovea_avgpool2d_f32(&p, ramp, y, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("avg 2x2/2 on a ramp", y, (const float[]){2.5f, 4.5f, 10.5f, 12.5f}, 4);

        /* 1×1 input, 1×1 kernel: the identity. */
        p = params_2d(1, 1, 1, 1, 1, 1);
        const float one[1] = {-3.25f};
        CHECK_STATUS(fovea_maxpool2d_f32(&p, one, y, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("max 1x1", y, one, 1);
        CHECK_STATUS(fovea_avgpool2d_f32(&p, one, y, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("avg 1x1", y, one, 1);

        /* A 3×3 window larger than the 2×2 input, padded by 1 all round. */
        p = params_2d(2, 2, 2, 2, 3, 1);
        p.pad_top = p.pad_left = p.pad_bottom = p.pad_right = 1;
        const float small[4] = {1, 2, 3, 4};
        CHECK_STATUS(fovea_maxpool2d_f32(&p, small, y, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("max 3x3 over 2x2", y, (const float[]){4, 4, 4, 4}, 4);
        CHECK_STATUS(fovea_avgpool2d_f32(&p, small, y, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("avg 3x3 over 2x2", y, (const float[]){2.5f, 2.5f, 2.5f, 2.5f}, 4);
        p.count_include_pad = 1;
        CHECK_STATUS(fovea_avgpool2d_f32(&p, small, y, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("avg 3x3 over 2x2, pads counted", y, (const float[]){10.0f / 9, 10.0f / 9, 10.0f / 9, 10.0f / 9}, 4);

        /*
         * Ceil mode: 1×4 input [1 2 3 4], 1×3 window, stride 2, pads left 1 / right 1, 3 outputs.
         * Windows start at -1, 1, 3; the last one's taps are 3 (input), 4 (right pad), 5 (beyond the
         * pads: not counted even with count_include_pad).
         */
        p = params_2d(1, 4, 1, 3, 1, 1);
        p.kernel_width = 3;
        p.stride_width = 2;
        p.pad_left = p.pad_right = 1;
        const float row[4] = {1, 2, 3, 4};
        float y3[3];
        CHECK_STATUS(fovea_avgpool2d_f32(&p, row, y3, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("avg ceil mode", y3, (const float[]){1.5f, 3, 4}, 3);
        p.count_include_pad = 1;
        CHECK_STATUS(fovea_avgpool2d_f32(&p, row, y3, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("avg ceil mode, pads counted", y3, (const float[]){1, 3, 2}, 3);
        CHECK_STATUS(fovea_maxpool2d_f32(&p, row, y3, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("max ceil mode", y3, (const float[]){2, 4, 4}, 3);

        /* Dilation 2: taps 0, 2, 4 of a 1×5 row. */
        p = params_2d(1, 5, 1, 1, 1, 1);
        p.kernel_width = 3;
        p.dilation_width = 2;
        const float five[5] = {1, 100, 2, 100, 3};
        CHECK_STATUS(fovea_maxpool2d_f32(&p, five, y, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("max dilated", y, (const float[]){3}, 1);
        CHECK_STATUS(fovea_avgpool2d_f32(&p, five, y, test_pool(1)), FOVEA_STATUS_OK);
        check_outputs("avg dilated", y, (const float[]){2}, 1);
    }
    fovea_kernels_set_isa("auto");
}

/* 0 if the output bits differ from the expected ones (NaN matches only NaN). */
static int check_bits(const char *what, int at, const float *y, const float *want, int count) {
    for (int i = 0; i < count; i++) {
        if (!same_float(y[i], want[i])) {
            CHECK(0, "[%s] %s (special value at %d): output %d is %.9g (0x%08x), expected %.9g (0x%08x)",
                  fovea_kernels_isa_name(), what, at, i, (double)y[i], (unsigned)float_bits(y[i]), (double)want[i],
                  (unsigned)float_bits(want[i]));
            return 0;
        }
    }
    CHECK(1, "%s", what);
    return 1;
}

/*
 * NaN, infinities and signed zeros, in every lane position of a wide row (SIMD
 * body, masked tail, border): 1×3 windows, stride 1, one column of padding on
 * each side, so output i reads inputs i-1, i, i+1 (those inside the row).
 */
static void special_values(void) {
    enum { width = 40 };
    fovea_pool2d_params p = params_2d(1, width, 1, width, 1, 1);
    p.kernel_width = 3;
    p.pad_left = p.pad_right = 1;
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        float x[width], y[width], want[width];

        /* All NaN: nothing beats -FLT_MAX. Average: NaN. */
        for (int i = 0; i < width; i++) x[i] = NAN, want[i] = -FLT_MAX;
        CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max of all NaN", -1, y, want, width);
        for (int i = 0; i < width; i++) want[i] = NAN;
        CHECK_STATUS(fovea_avgpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("avg of all NaN", -1, y, want, width);

        /* All -inf: -FLT_MAX (not -inf). */
        for (int i = 0; i < width; i++) x[i] = -INFINITY, want[i] = -FLT_MAX;
        CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max of all -inf", -1, y, want, width);

        /* +0 and -0 alternating: of equal values the first tap inside the input stays. */
        for (int i = 0; i < width; i++) x[i] = i % 2 ? -0.0f : 0.0f;
        for (int i = 0; i < width; i++) want[i] = x[i > 0 ? i - 1 : 0];
        CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max of +0 / -0 alternating", -1, y, want, width);
        for (int i = 0; i < width; i++) x[i] = i % 2 ? 0.0f : -0.0f;
        for (int i = 0; i < width; i++) want[i] = x[i > 0 ? i - 1 : 0];
        CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max of -0 / +0 alternating", -1, y, want, width);
        for (int i = 0; i < width; i++) x[i] = -0.0f, want[i] = -0.0f;
        CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max of all -0", -1, y, want, width);
        for (int i = 0; i < width; i++) want[i] = 0.0f; /* +0 + -0 = +0, and the sum starts at +0 */
        CHECK_STATUS(fovea_avgpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("avg of all -0", -1, y, want, width);

        for (int at = 0; at < width; at++) {
            const int lo = at > 0 ? at - 1 : 0, hi = at < width - 1 ? at + 1 : width - 1; /* outputs reading x[at] */

            /* One NaN among -1: ignored by max; the windows holding it average to NaN. */
            for (int i = 0; i < width; i++) x[i] = -1.0f, want[i] = -1.0f;
            x[at] = NAN;
            CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
            check_bits("max ignores one NaN", at, y, want, width);
            CHECK_STATUS(fovea_avgpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
            for (int i = 0; i < width; i++) CHECK(isnan(y[i]) == (lo <= i && i <= hi), "[%s] avg with NaN at %d: output %d is %g", test_isas[isa], at, i, (double)y[i]);

            /* One -inf among NaN: -FLT_MAX everywhere. */
            for (int i = 0; i < width; i++) x[i] = NAN, want[i] = -FLT_MAX;
            x[at] = -INFINITY;
            CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
            check_bits("max of -inf and NaN", at, y, want, width);

            /* One -FLT_MAX, then one +inf, among -inf. */
            for (int i = 0; i < width; i++) x[i] = -INFINITY, want[i] = -FLT_MAX;
            x[at] = -FLT_MAX;
            CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
            check_bits("max of -FLT_MAX and -inf", at, y, want, width);
            x[at] = INFINITY;
            for (int i = lo; i <= hi; i++) want[i] = INFINITY;
            CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
            check_bits("max of +inf and -inf", at, y, want, width);
            CHECK_STATUS(fovea_avgpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
            for (int i = lo; i <= hi; i++) CHECK(isnan(y[i]), "[%s] avg of +inf and -inf is NaN", test_isas[isa]);

            /* One +0 among -0: it wins only where it is the first tap of its window. */
            for (int i = 0; i < width; i++) x[i] = -0.0f;
            x[at] = 0.0f;
            for (int i = 0; i < width; i++) want[i] = x[i > 0 ? i - 1 : 0];
            CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
            check_bits("max of one +0 among -0", at, y, want, width);
        }
    }
    fovea_kernels_set_isa("auto");
}

/*
 * Windows that cover only padding: -FLT_MAX for max, +0 for average (with or
 * without count_include_pad), as the reference backend; no error.
 */
static void padding_only_windows(void) {
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        float ramp[16], y[64];
        for (int i = 0; i < 16; i++) ramp[i] = (float)i;

        /* An output one column wider than the input allows: the third column reads only x[.., 4..5]. */
        fovea_pool2d_params p = params_2d(4, 4, 2, 3, 2, 2);
        CHECK_STATUS(fovea_maxpool2d_f32(&p, ramp, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max, a column of windows past the input", -1, y, (const float[]){5, 7, -FLT_MAX, 13, 15, -FLT_MAX}, 6);
        CHECK_STATUS(fovea_avgpool2d_f32(&p, ramp, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("avg, a column of windows past the input", -1, y, (const float[]){2.5f, 4.5f, 0, 10.5f, 12.5f, 0}, 6);
        p.count_include_pad = 1; /* no pads: those taps are beyond the padded input too */
        CHECK_STATUS(fovea_avgpool2d_f32(&p, ramp, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("avg, a column of windows past the input, pads counted", -1, y,
                   (const float[]){2.5f, 4.5f, 0, 10.5f, 12.5f, 0}, 6);

        /* Taps at -1 and 1 around a single input column: both in the padding. */
        p = params_2d(1, 1, 1, 1, 1, 1);
        p.kernel_width = 2;
        p.dilation_width = 2;
        p.pad_left = p.pad_right = 1;
        const float one[1] = {7};
        CHECK_STATUS(fovea_maxpool2d_f32(&p, one, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max, taps around the input", -1, y, (const float[]){-FLT_MAX}, 1);
        CHECK_STATUS(fovea_avgpool2d_f32(&p, one, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("avg, taps around the input", -1, y, (const float[]){0}, 1);
        p.count_include_pad = 1; /* 2 padded taps: 0 / 2 */
        CHECK_STATUS(fovea_avgpool2d_f32(&p, one, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("avg, taps around the input, pads counted", -1, y, (const float[]){0}, 1);

        /* No input rows at all. */
        p = params_2d(0, 4, 1, 1, 1, 1);
        p.pad_top = 1;
        CHECK_STATUS(fovea_maxpool2d_f32(&p, ramp, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max with no input rows", -1, y, (const float[]){-FLT_MAX}, 1);

        /*
         * LayerCheck.poolingSpecialCases: x = [1 -inf; NaN 4], 2×2 windows, stride 1, pads 3 all
         * round: 7×7 outputs, window (oh, ow) reads rows oh-3, oh-2 and columns ow-3, ow-2.
         */
        p = params_2d(2, 2, 7, 7, 2, 1);
        p.pad_top = p.pad_left = p.pad_bottom = p.pad_right = 3;
        const float x[4] = {1, -INFINITY, NAN, 4};
        const float F = -FLT_MAX;
        CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max, LayerCheck's windows in the padding", -1, y,
                   (const float[]){F, F, F, F, F, F, F,
                                   F, F, F, F, F, F, F,
                                   F, F, 1, 1, F, F, F,  /* row 0 only: (1), (1, -inf), (-inf) */
                                   F, F, 1, 4, 4, F, F,  /* rows 0-1: (1, NaN), all four, (-inf, 4) */
                                   F, F, F, 4, 4, F, F,  /* row 1 only: (NaN), (NaN, 4), (4) */
                                   F, F, F, F, F, F, F,
                                   F, F, F, F, F, F, F}, 49);
        CHECK_STATUS(fovea_avgpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
        const float N = NAN, Z = 0.0f;
        check_bits("avg, LayerCheck's windows in the padding", -1, y,
                   (const float[]){Z, Z, Z, Z, Z, Z, Z,
                                   Z, Z, Z, Z, Z, Z, Z,
                                   Z, Z, 1, -INFINITY, -INFINITY, Z, Z,
                                   Z, Z, N, N, -INFINITY, Z, Z,
                                   Z, Z, N, N, 4, Z, Z,
                                   Z, Z, Z, Z, Z, Z, Z,
                                   Z, Z, Z, Z, Z, Z, Z}, 49);

        /* LayerCheck's pairs: [-inf NaN -inf -inf] and [NaN NaN inf 2], 1×2 windows. */
        p = params_2d(1, 4, 1, 3, 1, 1);
        p.channels = 2;
        p.kernel_width = 2;
        const float pairs[8] = {-INFINITY, NAN, -INFINITY, -INFINITY, NAN, NAN, INFINITY, 2};
        CHECK_STATUS(fovea_maxpool2d_f32(&p, pairs, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("max of -inf and NaN pairs", -1, y, (const float[]){F, F, F, F, INFINITY, INFINITY}, 6);
        CHECK_STATUS(fovea_avgpool2d_f32(&p, pairs, y, test_pool(1)), FOVEA_STATUS_OK);
        check_bits("avg of -inf and NaN pairs", -1, y, (const float[]){N, N, -INFINITY, N, N, INFINITY}, 6);
    }
    fovea_kernels_set_isa("auto");
}

/* ---- Bad parameters and nothing-to-do calls ---------------------------------- */

static void bad_parameters(void) {
    float x[16] = {0}, y[16];
    const fovea_pool2d_params good = params_2d(4, 4, 2, 2, 2, 2);
    CHECK_STATUS(fovea_maxpool2d_f32(&good, x, y, test_pool(1)), FOVEA_STATUS_OK);

    CHECK_STATUS(fovea_maxpool2d_f32(NULL, x, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_avgpool2d_f32(&good, NULL, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_avgpool2d_f32(&good, x, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);

    fovea_pool2d_params p = good;
    p.kernel_width = 0;
    CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    p = good;
    p.stride_height = 0;
    CHECK_STATUS(fovea_avgpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    p = good;
    p.dilation_width = 0;
    CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    p = good;
    p.pad_left = FOVEA_KERNELS_MAX_EXTENT + 1;
    CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    p = good;
    p.input_width = (size_t)-1;
    CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);

    /* Element counts whose byte size overflows. */
    p = good;
    p.batch = (size_t)1 << 40;
    p.channels = (size_t)1 << 40;
    CHECK_STATUS(fovea_maxpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
    p = good;
    p.batch = (size_t)1 << 62;
    CHECK_STATUS(fovea_avgpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_TOO_LARGE);

    /* Nothing to do: no planes or no outputs. Pointers may then be NULL, and y is not touched. */
    p = good;
    p.batch = 0;
    CHECK_STATUS(fovea_maxpool2d_f32(&p, NULL, NULL, test_pool(1)), FOVEA_STATUS_OK);
    p = good;
    p.channels = 0;
    CHECK_STATUS(fovea_avgpool2d_f32(&p, NULL, NULL, test_pool(1)), FOVEA_STATUS_OK);
    p = good;
    p.output_height = 0;
    y[0] = 42.0f;
    CHECK_STATUS(fovea_avgpool2d_f32(&p, x, y, test_pool(1)), FOVEA_STATUS_OK);
    CHECK(y[0] == 42.0f, "an empty output must not be written");
}

/*
 * OpenMP: any per-call thread count gives the same bits (planes are
 * independent), including counts larger than the planes or the cores.
 */
static void thread_counts_agree(test_rng *rng) {
    fovea_pool2d_params p = params_2d(37, 37, 18, 18, 3, 2);
    p.batch = 3;
    p.channels = 24; /* enough work to go parallel */
    p.pad_top = p.pad_left = 1;
    const size_t in_count = 3 * 24 * 37 * 37, out_count = 3 * 24 * 18 * 18;
    float *x = (float *)malloc(in_count * sizeof(float));
    float *one = (float *)malloc(out_count * sizeof(float));
    float *many = (float *)malloc(out_count * sizeof(float));
    if (x == NULL || one == NULL || many == NULL) exit(2);
    fill_input(rng, x, in_count, 0);
    for (int is_max = 0; is_max <= 1; is_max++) {
        CHECK_STATUS(is_max ? fovea_maxpool2d_f32(&p, x, one, test_pool(1)) : fovea_avgpool2d_f32(&p, x, one, test_pool(1)), FOVEA_STATUS_OK);
        static const size_t counts[] = {0, 2, 3, 100};
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
            const size_t threads = counts[i];
            memset(many, 0xff, out_count * sizeof(float));
            CHECK_STATUS(is_max ? fovea_maxpool2d_f32(&p, x, many, test_pool(threads)) : fovea_avgpool2d_f32(&p, x, many, test_pool(threads)),
                         FOVEA_STATUS_OK);
            CHECK(memcmp(one, many, out_count * sizeof(float)) == 0, "%zu threads differ from 1 thread", threads);
        }
    }
    free(x);
    free(one);
    free(many);
}

int main(void) {
    test_rng rng = {20240611u};
    printf("ISA: %s (default), OpenMP: %s\n", fovea_kernels_isa_name(), fovea_kernels_has_openmp() ? "yes" : "no");
    for (int isa = 0; isa < test_isa_count; isa++) {
        printf("  %s: %s\n", test_isas[isa], fovea_kernels_isa_supported(test_isas[isa]) ? "tested" : "not supported here");
    }
    known_values();
    special_values();
    padding_only_windows();
    bad_parameters();
    thread_counts_agree(&rng);
    random_cases(&rng, 500);
    wide_step_cases(&rng, 100);
    stride2_cases(&rng);
    stride2_3x3_cases(&rng);
    printf("random shapes: %ld compared, %ld with a padding-only window\n", cases_compared, cases_with_empty_window);
    return test_finish("test_pool2d");
}
