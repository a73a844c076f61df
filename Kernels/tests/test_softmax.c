/*
 * Softmax and LogSoftmax on every ISA the CPU supports, against a naive
 * double-precision softmax written here, over hundreds of seeded random
 * outer × axis × inner shapes (axis contiguous or strided, ragged sizes, in
 * place, values spread widely so many exponentials underflow), plus the
 * special values and bad arguments.
 *
 * Tolerances (u = 2⁻²⁴), for the exact result ŷ:
 *   softmax:     |y − ŷ| ≤ (axis + 12 + |x − max|)·u·ŷ + 8·2⁻¹⁴⁹ (a float sum of
 *                `axis` positive terms, ~1 ulp exponentials, the reciprocal; x − max
 *                rounded in float is off by up to u·|x − max|, which exp turns into
 *                that much relative error: tiny outputs of wide spreads; the last
 *                term covers subnormal outputs)
 *   log softmax: |y − ŷ| ≤ (axis + 12)·u·(1 + |ŷ|)
 * A slice holding a NaN or +inf, or only -inf, must come out all NaN; a -inf
 * entry among finite ones gives exactly 0 (log: exactly -inf).
 */
#include "support/reference.h"
#include "support/test_support.h"

#include <float.h>

static int within(float got, double want, size_t axis, double spread, int take_log) {
    if (want != want) return got != got;
    if (isinf(want)) return (double)got == want;
    const double u = ldexp(1.0, -24), slack = ((double)axis + 12 + (take_log ? 0 : spread)) * u;
    const double bound = take_log ? slack * (1.0 + fabs(want)) : slack * want + 8 * ldexp(1.0, -149);
    return fabs((double)got - want) <= bound;
}

static long cases_run = 0;
static double worst_ratio[2] = {0, 0}; /* observed error / (axis·u) scale, for the log */

/* Runs one problem on every ISA; `scale` spreads the values. */
static void check_problem(test_rng *rng, size_t outer, size_t axis, size_t inner, float scale, int flavour,
                          int take_log, int in_place, size_t threads, int fenced) {
    const size_t count = outer * axis * inner;
    float *x = (float *)malloc((count ? count : 1) * sizeof(float));
    double *want = (double *)malloc((count ? count : 1) * sizeof(double));
    double *spread = (double *)malloc((count ? count : 1) * sizeof(double));
    if (x == NULL || want == NULL || spread == NULL) exit(2);
    for (size_t i = 0; i < count; i++) {
        float v = rng_float(rng) * scale;
        if (flavour == 1 && rng_int(rng, 0, 9) == 0) v = -INFINITY;
        if (flavour == 2) {
            const long pick = rng_int(rng, 0, 199);
            if (pick == 0) v = NAN;
            else if (pick == 1) v = INFINITY;
            else if (pick < 20) v = -INFINITY;
        }
        x[i] = v;
    }
    if (flavour == 3) { /* -inf slices, whole or in part */
        for (size_t o = 0; o < outer; o++) {
            for (size_t j = 0; j < inner; j++) {
                const int whole = (int)rng_int(rng, 0, 1);
                for (size_t k = 0; k < axis; k++) {
                    if (whole || rng_int(rng, 0, 1)) x[(o * axis + k) * inner + j] = -INFINITY;
                }
            }
        }
    }
    reference_softmax(outer, axis, inner, x, want, spread, take_log);
    char text[160];
    snprintf(text, sizeof text, "outer %zu axis %zu inner %zu scale %g flavour %d log %d in place %d threads %zu",
             outer, axis, inner, (double)scale, flavour, take_log, in_place, threads);
    cases_run++;

    fenced_buffer fence = {0};
    const float *input = x;
    if (fenced && !in_place) {
        fence = fenced_alloc(count, (int)(cases_run % 2));
        memcpy(fence.data, x, count * sizeof(float));
        input = fence.data;
    }
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (!fovea_kernels_isa_supported(test_isas[isa])) continue;
        CHECK_STATUS(fovea_kernels_set_isa(test_isas[isa]), FOVEA_STATUS_OK);
        guarded_buffer y = guarded_alloc(count, (size_t)rng_int(rng, 0, 3));
        if (in_place) memcpy(y.data, x, count * sizeof(float));
        CHECK_STATUS(fovea_softmax_f32(outer, axis, inner, in_place ? y.data : input, y.data, take_log, test_pool(threads)),
                     FOVEA_STATUS_OK);
        long bad = 0;
        size_t first = 0;
        for (size_t i = 0; i < count; i++) {
            const int ok = within(y.data[i], want[i], axis, spread[i], take_log);
            /* -inf among finite entries: exactly 0 (log: exactly -inf) */
            const int exact_ok = !(x[i] == -INFINITY && want[i] == want[i]) ||
                                 (take_log ? y.data[i] == -INFINITY : float_bits(y.data[i]) == 0u);
            if (!ok || !exact_ok) {
                if (bad++ == 0) first = i;
            }
            if (want[i] == want[i] && !isinf(want[i]) && want[i] != 0) {
                const double err = fabs((double)y.data[i] - want[i]) / (take_log ? 1.0 + fabs(want[i]) : want[i]);
                const double ratio = err / (((double)axis + (take_log ? 0 : spread[i])) * ldexp(1.0, -24));
                if ((take_log || want[i] > 1e-30) && ratio > worst_ratio[take_log]) worst_ratio[take_log] = ratio;
            }
        }
        CHECK(bad == 0, "[%s] %ld of %zu outputs off, first #%zu: %.9g, want %.12g (x %.9g) (%s)", test_isas[isa],
              bad, count, first, (double)y.data[first], want[first], (double)x[first], text);
        CHECK(guards_intact(&y), "[%s] wrote outside y (%s)", test_isas[isa], text);
        guarded_free(&y);
    }
    CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
    if (fence.mapping) fenced_free(&fence);
    free(x);
    free(want);
    free(spread);
}

static void random_problems(test_rng *rng, int cases) {
    static const size_t axes[] = {1, 2, 3, 7, 8, 15, 16, 17, 31, 33, 100, 1000, 1001};
    static const size_t inners[] = {1, 1, 1, 2, 3, 5, 16, 17, 49, 64, 65, 130};
    static const float scales[] = {1.0f, 10.0f, 100.0f, 1000.0f};
    for (int c = 0; c < cases; c++) {
        const size_t outer = (size_t)rng_int(rng, 1, 4);
        const size_t axis = axes[rng_int(rng, 0, 12)];
        const size_t inner = inners[rng_int(rng, 0, 11)];
        if (outer * axis * inner > 200000) {
            c--;
            continue;
        }
        const int flavour = c % 10 == 7 ? 1 : c % 10 == 8 ? 2 : c % 20 == 9 ? 3 : 0;
        check_problem(rng, outer, axis, inner, scales[rng_int(rng, 0, 3)], flavour, (int)rng_int(rng, 0, 1),
                      rng_int(rng, 0, 3) == 0, (size_t)rng_int(rng, 1, 3), c % 3 == 0);
    }
}

/* Classifier heads and large multithreaded cases. */
static void fixed_problems(test_rng *rng) {
    for (int take_log = 0; take_log <= 1; take_log++) {
        check_problem(rng, 1, 1000, 1, 10.0f, 0, take_log, 0, 1, 1);     /* ImageNet logits */
        check_problem(rng, 64, 1000, 1, 10.0f, 0, take_log, 0, 2, 0);    /* a batch, parallel rows */
        check_problem(rng, 2, 21, 4096, 5.0f, 0, take_log, 0, 2, 1);     /* segmentation: axis strided */
        check_problem(rng, 3, 4, 3001, 50.0f, 1, take_log, 1, 3, 0);     /* short strided axis, in place */
    }
}

static void special_values(void) {
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        for (int inner_case = 0; inner_case < 2; inner_case++) {
            /* Slices along the axis (inner 1) or strided (inner 2, the other column all zeros). */
            const size_t inner = inner_case ? 2 : 1;
            float x[40], y[40];
            const float row[5] = {1.0f, -INFINITY, 2.0f, -INFINITY, 0.0f};
            for (size_t k = 0; k < 5; k++) {
                x[k * inner] = row[k];
                if (inner == 2) x[k * 2 + 1] = 0.0f;
            }
            CHECK_STATUS(fovea_softmax_f32(1, 5, inner, x, y, 0, test_pool(1)), FOVEA_STATUS_OK);
            CHECK(float_bits(y[1 * inner]) == 0 && float_bits(y[3 * inner]) == 0, "[%s] softmax(-inf) is +0",
                  test_isas[isa]);
            const double s = exp(-1.0) + 1.0 + exp(-2.0);
            CHECK(fabs(y[2 * inner] - 1.0 / s) < 1e-6, "[%s] softmax value %g", test_isas[isa], (double)y[2 * inner]);
            CHECK_STATUS(fovea_softmax_f32(1, 5, inner, x, y, 1, test_pool(1)), FOVEA_STATUS_OK);
            CHECK(y[1 * inner] == -INFINITY && y[3 * inner] == -INFINITY, "[%s] log softmax(-inf) is -inf",
                  test_isas[isa]);
            CHECK(fabs(y[2 * inner] + log(s)) < 1e-6, "[%s] log softmax value %g", test_isas[isa],
                  (double)y[2 * inner]);
            /* One NaN or +inf: the whole slice is NaN (the other column untouched by it). */
            const float bad[2] = {NAN, INFINITY};
            for (int b = 0; b < 2; b++) {
                for (size_t at = 0; at < 5; at++) {
                    for (size_t k = 0; k < 5; k++) x[k * inner] = row[k];
                    x[at * inner] = bad[b];
                    for (int take_log = 0; take_log <= 1; take_log++) {
                        CHECK_STATUS(fovea_softmax_f32(1, 5, inner, x, y, take_log, test_pool(1)), FOVEA_STATUS_OK);
                        for (size_t k = 0; k < 5; k++) {
                            CHECK(isnan(y[k * inner]), "[%s] %g at %zu: output %zu is %g (log %d)", test_isas[isa],
                                  (double)bad[b], at, k, (double)y[k * inner], take_log);
                            if (inner == 2) CHECK(y[k * 2 + 1] == (take_log ? -logf(5.0f) : 0.2f) ||
                                                      fabs(y[k * 2 + 1] - (take_log ? -log(5.0) : 0.2)) < 1e-6,
                                                  "[%s] the neighbouring slice changed: %g", test_isas[isa],
                                                  (double)y[k * 2 + 1]);
                        }
                    }
                }
            }
            /* A single element: softmax 1, log softmax 0. */
            const float one = -123.5f;
            float out = 0;
            CHECK_STATUS(fovea_softmax_f32(1, 1, 1, &one, &out, 0, test_pool(1)), FOVEA_STATUS_OK);
            CHECK(out == 1.0f, "[%s] softmax of one element is %g", test_isas[isa], (double)out);
            CHECK_STATUS(fovea_softmax_f32(1, 1, 1, &one, &out, 1, test_pool(1)), FOVEA_STATUS_OK);
            CHECK(out == 0.0f, "[%s] log softmax of one element is %g", test_isas[isa], (double)out);
            /* Huge spreads: FLT_MAX and -FLT_MAX. */
            const float wide[3] = {FLT_MAX, -FLT_MAX, FLT_MAX};
            float w3[3];
            CHECK_STATUS(fovea_softmax_f32(1, 3, 1, wide, w3, 0, test_pool(1)), FOVEA_STATUS_OK);
            CHECK(w3[0] == 0.5f && w3[1] == 0.0f && w3[2] == 0.5f, "[%s] softmax(FLT_MAX, -FLT_MAX, FLT_MAX) = %g %g %g",
                  test_isas[isa], (double)w3[0], (double)w3[1], (double)w3[2]);
        }
    }
    fovea_kernels_set_isa("auto");
}

static void bad_arguments(void) {
    float x[16] = {0}, y[16];
    CHECK_STATUS(fovea_softmax_f32(2, 4, 2, x, y, 0, test_pool(1)), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_softmax_f32(2, 4, 2, NULL, y, 0, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_softmax_f32(2, 4, 2, x, NULL, 1, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_softmax_f32(2, 4, 2, x, x + 1, 0, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_softmax_f32(2, 4, 2, x + 3, x, 0, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_softmax_f32(2, 4, 2, x, x, 0, test_pool(1)), FOVEA_STATUS_OK); /* in place */
    CHECK_STATUS(fovea_softmax_f32((size_t)1 << 40, (size_t)1 << 40, 1, x, y, 0, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
    CHECK_STATUS(fovea_softmax_f32(0, 4, 2, NULL, NULL, 0, test_pool(1)), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_softmax_f32(2, 0, 2, NULL, NULL, 0, test_pool(1)), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_softmax_f32(2, 4, 0, NULL, NULL, 0, test_pool(1)), FOVEA_STATUS_OK);
    for (int i = 0; i < 16; i++) y[i] = 42.0f;
    CHECK_STATUS(fovea_softmax_f32(2, 4, 2, x, x + 1, 0, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_softmax_f32((size_t)1 << 62, 4, 2, x, y, 0, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
    int untouched = 1;
    for (int i = 0; i < 16; i++) untouched &= y[i] == 42.0f;
    CHECK(untouched, "softmax wrote its output despite an error");
}

int main(void) {
    test_rng rng = {0x50F7A4ull};
    printf("ISA: %s (default), OpenMP: %s\n", fovea_kernels_isa_name(), fovea_kernels_has_openmp() ? "yes" : "no");
    for (int isa = 0; isa < test_isa_count; isa++) {
        printf("  %s: %s\n", test_isas[isa], fovea_kernels_isa_supported(test_isas[isa]) ? "tested" : "not supported here");
    }
    bad_arguments();
    special_values();
    fixed_problems(&rng);
    random_problems(&rng, 400);
    printf("problems: %ld; worst error / ((axis + |x - max|) * 2^-24): softmax %.3g, log softmax %.3g\n", cases_run, worst_ratio[0],
           worst_ratio[1]);
    return test_finish("test_softmax");
}
