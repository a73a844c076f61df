/*
 * fovea_unary_f32 and fovea_layer_norm_f32 on every ISA the CPU supports.
 *
 * Each function is compared with the exact function of the float input,
 * computed in double with libm, over a sweep of the whole float range (every
 * 509th bit pattern: all exponents, both signs, subnormals, ±inf and NaNs),
 * a dense sweep of [-12, 12], and special values. The error allowed is the
 * bound written in include/fovea_unary.h:
 *
 *   |y − exact| <= ulps · ulp(exact) + absolute · max(1, |x|)
 *
 * and NaN must give NaN (and only NaN). The largest error in ulp of each
 * function is printed, so a change in accuracy shows in the log.
 */
#include "support/test_support.h"

#include <float.h>

typedef double (*exact_fn)(double x, double alpha, double beta);

static double exact_sigmoid(double x, double a, double b) { (void)a; (void)b; return 1.0 / (1.0 + exp(-x)); }
static double exact_exp(double x, double a, double b) { (void)a; (void)b; return exp(x); }
static double exact_log(double x, double a, double b) { (void)b; return log((double)(float)(x + a)); }
static double exact_tanh(double x, double a, double b) { (void)a; (void)b; return tanh(x); }
static double exact_erf(double x, double a, double b) { (void)a; (void)b; return erf(x); }
static double exact_silu(double x, double a, double b) {
    (void)a; (void)b;
    return x == -INFINITY ? 0.0 : x / (1.0 + exp(-x));
}
static double exact_gelu_erf(double x, double a, double b) {
    (void)a; (void)b;
    return x == -INFINITY ? 0.0 : 0.5 * x * (1.0 + erf(x / sqrt(2.0)));
}
static double exact_gelu_tanh(double x, double a, double b) {
    (void)a; (void)b;
    if (x == -INFINITY) return 0.0;
    return 0.5 * x * (1.0 + tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}
static double exact_elu(double x, double a, double b) { (void)b; return x >= 0 ? x : a * expm1(x); }
static double exact_selu(double x, double a, double g) { return x > 0 ? g * x : g * a * expm1(x); }
static double exact_celu(double x, double a, double b) { (void)b; if (isnan(x)) return x; return (x > 0 ? x : 0) + (x < 0 ? a * expm1(x / a) : 0); }
static double exact_softplus(double x, double a, double b) {
    (void)a; (void)b;
    return (x > 0 ? x : 0) + log1p(exp(-fabs(x)));
}
static double exact_softsign(double x, double a, double b) { (void)a; (void)b; return isinf(x) ? copysign(1.0, x) : x / (1 + fabs(x)); }
static double exact_mish(double x, double a, double b) {
    if (x == -INFINITY) return 0.0;
    return x * tanh(exact_softplus(x, a, b));
}
static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }
static double exact_hard_sigmoid(double x, double a, double b) { return clamp01(a * x + b); }
static double exact_hard_swish(double x, double a, double b) { (void)a; (void)b; return x * clamp01(x / 6 + 0.5); }
static double exact_abs(double x, double a, double b) { (void)a; (void)b; return fabs(x); }
static double exact_neg(double x, double a, double b) { (void)a; (void)b; return -x; }
static double exact_floor(double x, double a, double b) { (void)a; (void)b; return floor(x); }
static double exact_ceil(double x, double a, double b) { (void)a; (void)b; return ceil(x); }
static double exact_sqrt(double x, double a, double b) { (void)a; (void)b; return sqrt(x); }
static double exact_reciprocal(double x, double a, double b) { (void)b; return 1.0 / (double)(float)(x + a); }
static double exact_rsqrt(double x, double a, double b) { (void)b; return 1.0 / sqrt((double)(float)(x + a)); }
static double exact_linear(double x, double a, double b) { return a * x + b; }
static double exact_power(double x, double a, double b) { (void)b; return pow(x, a); }
static double exact_thresholded_relu(double x, double a, double b) { (void)b; return x > a ? x : 0; }
static double exact_threshold(double x, double a, double b) { (void)b; if (isnan(x)) return x; return x > a ? x : a; }

typedef struct case_spec {
    const char *name;
    fovea_unary fn;
    exact_fn exact;
    double ulps;     /* allowed error in ulp of the exact result */
    double absolute; /* plus this much times max(1, |x|) */
} case_spec;

/* The bounds of include/fovea_unary.h. */
static const case_spec cases[] = {
    {"exp", {FOVEA_UNARY_EXP, 0, 0}, exact_exp, 2, 0},
    {"log", {FOVEA_UNARY_LOG, 0, 0}, exact_log, 2, 0},
    {"log(x+1e-3)", {FOVEA_UNARY_LOG, 1e-3f, 0}, exact_log, 2, 0},
    {"tanh", {FOVEA_UNARY_TANH, 0, 0}, exact_tanh, 2, 0},
    {"erf", {FOVEA_UNARY_ERF, 0, 0}, exact_erf, 8, 0},
    {"sigmoid", {FOVEA_UNARY_SIGMOID, 0, 0}, exact_sigmoid, 3, 0},
    {"silu", {FOVEA_UNARY_SILU, 0, 0}, exact_silu, 4, 0x1p-24},
    {"gelu", {FOVEA_UNARY_GELU_ERF, 0, 0}, exact_gelu_erf, 4, 0x1p-21},
    {"gelu-tanh", {FOVEA_UNARY_GELU_TANH, 0, 0}, exact_gelu_tanh, 4, 0x1p-24},
    {"elu", {FOVEA_UNARY_ELU, 1.0f, 0}, exact_elu, 4, 0x1p-22},
    {"selu", {FOVEA_UNARY_SELU, 1.67326319217681884765625f, 1.05070102214813232421875f}, exact_selu, 4, 0x1p-22},
    {"celu", {FOVEA_UNARY_CELU, 1.5f, 0}, exact_celu, 4, 0x1p-22},
    {"softplus", {FOVEA_UNARY_SOFTPLUS, 0, 0}, exact_softplus, 4, 0x1p-24},
    {"softsign", {FOVEA_UNARY_SOFTSIGN, 0, 0}, exact_softsign, 4, 0x1p-24},
    {"mish", {FOVEA_UNARY_MISH, 0, 0}, exact_mish, 4, 0x1p-24},
    {"hard-sigmoid", {FOVEA_UNARY_HARD_SIGMOID, 0.2f, 0.5f}, exact_hard_sigmoid, 4, 0x1p-24},
    {"hard-swish", {FOVEA_UNARY_HARD_SWISH, 0, 0}, exact_hard_swish, 4, 0x1p-24},
    {"abs", {FOVEA_UNARY_ABS, 0, 0}, exact_abs, 0, 0},
    {"neg", {FOVEA_UNARY_NEG, 0, 0}, exact_neg, 0, 0},
    {"floor", {FOVEA_UNARY_FLOOR, 0, 0}, exact_floor, 0, 0},
    {"ceil", {FOVEA_UNARY_CEIL, 0, 0}, exact_ceil, 0, 0},
    {"sqrt", {FOVEA_UNARY_SQRT, 0, 0}, exact_sqrt, 0.5, 0},
    {"reciprocal", {FOVEA_UNARY_RECIPROCAL, 0, 0}, exact_reciprocal, 0.5, 0},
    {"rsqrt", {FOVEA_UNARY_RSQRT, 1e-5f, 0}, exact_rsqrt, 1.5, 0},
    {"linear", {FOVEA_UNARY_LINEAR, 0.5f, -2.0f}, exact_linear, 1, 0},
    {"pow2", {FOVEA_UNARY_POWER, 2.0f, 0}, exact_power, 0.5, 0},
    {"pow3", {FOVEA_UNARY_POWER, 3.0f, 0}, exact_power, 1.5, 0},
    {"pow0.5", {FOVEA_UNARY_POWER, 0.5f, 0}, exact_power, 0.5, 0},
    {"pow1.7", {FOVEA_UNARY_POWER, 1.7f, 0}, exact_power, 2, 0},
    {"thresholded-relu", {FOVEA_UNARY_THRESHOLDED_RELU, 1.0f, 0}, exact_thresholded_relu, 0, 0},
    {"threshold", {FOVEA_UNARY_THRESHOLD, -0.5f, 0}, exact_threshold, 0, 0},
};
enum { case_count = sizeof cases / sizeof cases[0] };

static float from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* One unit in the last place of a float near v (2^-149 at the bottom; that of FLT_MAX above it). */
static double ulp_of(double v) {
    v = fabs(v);
    if (v < 0x1p-126) return 0x1p-149;
    if (v >= 0x1p127) return 0x1p104;
    int e;
    frexp(v, &e);
    return ldexp(1.0, e - 24);
}

/* The inputs: a sweep of bit patterns, a dense sweep of [-12, 12], special values. */
static size_t make_inputs(float *x, size_t capacity) {
    size_t n = 0;
    /* Under emulation both sweeps take wider steps (still every exponent of both signs). */
    const uint64_t step = (1021 * (uint64_t)(1000 / test_cases(1000))) | 1;
    for (uint64_t u = 0; u <= 0xFFFFFFFFull && n < capacity; u += step) x[n++] = from_bits((uint32_t)u);
    const int dense = test_cases(240000);
    for (int i = 0; i <= dense && n < capacity; i++) x[n++] = -12.0f + (float)i * (24.0f / (float)dense);
    const float specials[] = {0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, FLT_MIN, -FLT_MIN, FLT_MAX, -FLT_MAX,
                              0x1p-149f, -0x1p-149f, 88.72283f, 88.7229f, -87.33654f, -103.97f, -104.5f, 1.0f, -1.0f,
                              0.55f, -0.55f, 3.9f, 4.0f, -4.0f, 1e-3f, -3.0f, 3.0f, 0.5f, 2.5f, -2.5f, 8388607.5f};
    for (size_t i = 0; i < sizeof specials / sizeof specials[0] && n < capacity; i++) x[n++] = specials[i];
    return n;
}

static void check_case(const case_spec *c, const char *isa, size_t n, const float *x, float *y) {
    CHECK_STATUS(fovea_unary_f32(&c->fn, n, x, y, test_pool(1)), FOVEA_STATUS_OK);
    double worst = 0;
    float worst_x = 0;
    long bad = 0;
    for (size_t i = 0; i < n; i++) {
        const double exact = c->exact((double)x[i], (double)c->fn.alpha, (double)c->fn.beta);
        if (isnan(exact) || isnan(y[i])) {
            if (isnan(exact) != isnan(y[i]) && bad++ < 5) {
                CHECK(0, "[%s] %s(%a) = %a, expected %a", isa, c->name, (double)x[i], (double)y[i], exact);
            }
            continue;
        }
        /* The exact result rounded to float is what a perfect kernel returns (this also handles overflow). */
        const double rounded = (double)(float)exact;
        if (isinf(rounded) || isinf(y[i])) {
            if ((double)y[i] != rounded && bad++ < 5) {
                CHECK(0, "[%s] %s(%a) = %a, expected %a", isa, c->name, (double)x[i], (double)y[i], exact);
            }
            continue;
        }
        const double error = fabs((double)y[i] - exact);
        const double in_ulp = error / ulp_of(exact);
        const double magnitude = fabs((double)x[i]) > 1 ? fabs((double)x[i]) : 1;
        if (in_ulp > worst && error > c->absolute * magnitude) {
            worst = in_ulp;
            worst_x = x[i];
        }
        if (error > c->ulps * ulp_of(exact) + c->absolute * magnitude && bad++ < 5) {
            CHECK(0, "[%s] %s(%a) = %a, expected %.9g (%.2f ulp)", isa, c->name, (double)x[i], (double)y[i], exact,
                  in_ulp);
        }
    }
    CHECK(bad == 0, "[%s] %s: %ld inputs outside the bound", isa, c->name, bad);
    printf("  [%s] %-16s worst %.2f ulp (beyond the absolute allowance) at %a\n", isa, c->name, worst, (double)worst_x);
}

static void check_layer_norm(const char *isa) {
    test_rng rng = {42};
    const size_t shapes[][2] = {{1, 1}, {3, 7}, {5, 16}, {4, 96}, {2, 333}, {64, 768}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const size_t outer = shapes[s][0], inner = shapes[s][1], count = outer * inner;
        float *x = malloc(count * sizeof(float)), *y = malloc(count * sizeof(float));
        float *scale = malloc(inner * sizeof(float)), *bias = malloc(inner * sizeof(float));
        for (size_t i = 0; i < count; i++) x[i] = 100.0f + 3.0f * (float)(rng_next(&rng) % 2001) / 1000.0f;
        for (size_t j = 0; j < inner; j++) {
            scale[j] = 0.5f + (float)(j % 5) * 0.25f;
            bias[j] = (float)(j % 3) - 1.0f;
        }
        CHECK_STATUS(fovea_layer_norm_f32(outer, inner, x, scale, bias, 1e-5f, y, test_pool(2)), FOVEA_STATUS_OK);
        for (size_t r = 0; r < outer; r++) {
            double mean = 0, variance = 0;
            for (size_t j = 0; j < inner; j++) mean += x[r * inner + j];
            mean /= (double)inner;
            for (size_t j = 0; j < inner; j++) variance += (x[r * inner + j] - mean) * (x[r * inner + j] - mean);
            variance /= (double)inner;
            for (size_t j = 0; j < inner; j++) {
                const double exact = (x[r * inner + j] - mean) / sqrt(variance + 1e-5) * scale[j] + bias[j];
                CHECK(fabs(y[r * inner + j] - exact) <= 1e-4 * (1 + fabs(exact)), "[%s] layer norm %zux%zu [%zu,%zu]: %g, expected %g",
                      isa, outer, inner, r, j, (double)y[r * inner + j], exact);
            }
        }
        free(x); free(y); free(scale); free(bias);
    }
}

int main(void) {
    const size_t capacity = 9000000;
    float *x = malloc(capacity * sizeof(float)), *y = malloc(capacity * sizeof(float));
    const size_t n = make_inputs(x, capacity);
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (!fovea_kernels_isa_supported(test_isas[isa])) continue;
        CHECK_STATUS(fovea_kernels_set_isa(test_isas[isa]), FOVEA_STATUS_OK);
        for (int c = 0; c < case_count; c++) check_case(&cases[c], test_isas[isa], n, x, y);
        check_layer_norm(test_isas[isa]);
        /* In place, threads, odd counts: the same results as out of place on one thread. */
        float *copy = malloc(1001 * sizeof(float)), *expected = malloc(1001 * sizeof(float));
        memcpy(copy, x + 100000, 1001 * sizeof(float));
        CHECK_STATUS(fovea_unary_f32(&cases[6].fn, 1001, copy, expected, test_pool(1)), FOVEA_STATUS_OK);
        CHECK_STATUS(fovea_unary_f32(&cases[6].fn, 1001, copy, copy, test_pool(2)), FOVEA_STATUS_OK);
        CHECK(memcmp(copy, expected, 1001 * sizeof(float)) == 0, "[%s] in place differs", test_isas[isa]);
        free(copy); free(expected);
    }
    CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
    /* Bad arguments. */
    const fovea_unary bogus = {(fovea_unary_kind)99, 0, 0};
    CHECK_STATUS(fovea_unary_f32(&bogus, 4, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_unary_f32(NULL, 4, x, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_unary_f32(&cases[0].fn, 4, NULL, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_unary_f32(&cases[0].fn, 8, x, x + 1, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_unary_f32(&cases[0].fn, 0, NULL, NULL, test_pool(1)), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_layer_norm_f32(2, 4, x, NULL, NULL, 1e-5f, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    free(x);
    free(y);
    return test_finish("unary");
}
