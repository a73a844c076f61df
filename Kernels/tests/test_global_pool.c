/*
 * Global max and average pooling: every ISA variant the CPU supports against
 * a naive implementation, over random plane sizes around the vector widths,
 * plus special values and bad arguments.
 */
#include "support/reference.h"
#include "support/test_support.h"

#include <float.h>

static void compare_all_variants(size_t batch, size_t channels, size_t spatial, const float *x, size_t threads) {
    const size_t planes = batch * channels;
    for (int is_max = 0; is_max <= 1; is_max++) {
        for (int isa = 0; isa < test_isa_count; isa++) {
            if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
            guarded_buffer y = guarded_alloc(planes, (size_t)isa);
            CHECK_STATUS(is_max ? fovea_global_maxpool_f32(batch, channels, spatial, x, y.data, test_pool(threads))
                                : fovea_global_avgpool_f32(batch, channels, spatial, x, y.data, test_pool(threads)),
                         FOVEA_STATUS_OK);
            for (size_t plane = 0; plane < planes; plane++) {
                const float *in = x + plane * spatial;
                if (is_max) {
                    const float want = reference_global_max(in, spatial);
                    CHECK(float_bits(y.data[plane]) == float_bits(want),
                          "[%s] global max of %zu values: %.9g (0x%08x), expected %.9g (0x%08x)", test_isas[isa],
                          spatial, (double)y.data[plane], (unsigned)float_bits(y.data[plane]), (double)want,
                          (unsigned)float_bits(want));
                } else {
                    const float want = reference_global_average(in, spatial);
                    CHECK(close_float(y.data[plane], want, 1e-6), "[%s] global average of %zu values: %.9g, expected %.9g",
                          test_isas[isa], spatial, (double)y.data[plane], (double)want);
                }
            }
            CHECK(guards_intact(&y), "[%s] global pooling wrote outside its output", test_isas[isa]);
            guarded_free(&y);
        }
    }
    fovea_kernels_set_isa("auto");
}

static void random_cases(test_rng *rng) {
    static const size_t spatial_sizes[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 49, 169, 1000, 12769};
    const size_t size_count = sizeof spatial_sizes / sizeof spatial_sizes[0];
    for (int c = 0; c < 160; c++) {
        const size_t spatial = spatial_sizes[(size_t)c % size_count];
        const size_t batch = rng_int(rng, 0, 1) ? 3 : 1, channels = (size_t)rng_int(rng, 1, 5);
        const size_t count = batch * channels * spatial;
        fenced_buffer x = fenced_alloc(count, c % 2); /* over-reads crash */
        const int flavour = c / (int)size_count; /* 0..9: plain, ties, specials, mostly specials */
        for (size_t i = 0; i < count; i++) {
            float v = rng_float(rng);
            if (flavour == 1 || flavour == 2) {
                v = (float)rng_int(rng, -2, 0) * 0.5f; /* ties at the top: 0 and -0 */
                if (v == 0.0f && rng_int(rng, 0, 1)) v = -0.0f;
            } else if (flavour == 3) {
                const long pick = rng_int(rng, 0, 199);
                if (pick == 0) v = NAN;
                else if (pick == 1) v = INFINITY;
                else if (pick == 2) v = -INFINITY;
            } else if (flavour == 4) {
                v += 1000.0f; /* a large mean: the average must still be accurate */
            } else if (flavour == 5 || flavour == 6) {
                /* Mostly NaN and -inf, a few zeros of either sign: the zero sign and all-NaN planes. */
                static const float specials[] = {NAN, NAN, NAN, NAN, -INFINITY, -INFINITY, -FLT_MAX, 0.0f, -0.0f};
                const long pick = rng_int(rng, 0, flavour == 5 ? 8 : 40);
                v = pick < 9 ? specials[pick] : NAN;
            }
            x.data[i] = v;
        }
        compare_all_variants(batch, channels, spatial, x.data, (size_t)(c % 3)); /* 0, 1 or 2 threads */
        fenced_free(&x);
    }
}

/* Classifier heads: enough planes that 2 threads split them (MobileNetV2 1280×7×7, ResNet-50 2048×7×7, an odd count). */
static void head_cases(test_rng *rng) {
    static const size_t shapes[][3] = {{1, 1280, 49}, {1, 2048, 49}, {2, 1001, 49}, {1, 4099, 16}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        const size_t count = shapes[s][0] * shapes[s][1] * shapes[s][2];
        fenced_buffer x = fenced_alloc(count, (int)(s % 2));
        for (size_t i = 0; i < count; i++) x.data[i] = rng_float(rng);
        for (size_t threads = 1; threads <= 2; threads++)
            compare_all_variants(shapes[s][0], shapes[s][1], shapes[s][2], x.data, threads);
        fenced_free(&x);
    }
}

static void known_values(void) {
    const float x[6] = {1, 2, 3, -4, -5, 0.5f};
    float y[2];
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        CHECK_STATUS(fovea_global_avgpool_f32(1, 2, 3, x, y, test_pool(1)), FOVEA_STATUS_OK);
        CHECK(y[0] == 2.0f && y[1] == -2.833333333f, "[%s] averages %g %g", test_isas[isa], (double)y[0], (double)y[1]);
        CHECK_STATUS(fovea_global_maxpool_f32(2, 1, 3, x, y, test_pool(1)), FOVEA_STATUS_OK);
        CHECK(y[0] == 3.0f && y[1] == 0.5f, "[%s] maxima %g %g", test_isas[isa], (double)y[0], (double)y[1]);
    }
    fovea_kernels_set_isa("auto");
}

/* One global max of `count` values with the active ISA. */
static float global_max(const float *x, size_t count) {
    float y = 42.0f;
    CHECK_STATUS(fovea_global_maxpool_f32(1, 1, count, x, &y, test_pool(1)), FOVEA_STATUS_OK);
    return y;
}

/* Checks the global max of x[0 ..< count] bit for bit; `what` is a string literal. */
#define CHECK_MAX(x, count, want_value, what)                                                          \
    do {                                                                                                \
        const float got_ = global_max((x), (count)), want_ = (want_value);                              \
        CHECK(float_bits(got_) == float_bits(want_), "[%s] " what " (%zu values, at %zu): %.9g (0x%08x), " \
              "expected %.9g (0x%08x)", fovea_kernels_isa_name(), (size_t)(count), (size_t)at,           \
              (double)got_, (unsigned)float_bits(got_), (double)want_, (unsigned)float_bits(want_));    \
    } while (0)

/*
 * NaN, infinities and signed zeros at every position of planes up to 40 long
 * (vector bodies, tails, lane reductions), against the reference's rule.
 */
static void special_values(void) {
    float x[40], y[1];
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        for (size_t count = 1; count <= 40; count++) {
            size_t at = 0;
            for (size_t i = 0; i < count; i++) x[i] = -0.0f;
            CHECK_MAX(x, count, -0.0f, "all -0");
            for (size_t i = 0; i < count; i++) x[i] = NAN;
            CHECK_MAX(x, count, -INFINITY, "all NaN");
            for (size_t i = 0; i < count; i++) x[i] = -INFINITY;
            CHECK_MAX(x, count, -INFINITY, "all -inf");
            for (at = 0; at < count; at++) {
                const int last = at == count - 1;
                /* Of equal values the last stays: one zero of the other sign wins only at the end. */
                for (size_t i = 0; i < count; i++) x[i] = -0.0f;
                x[at] = 0.0f;
                CHECK_MAX(x, count, last ? 0.0f : -0.0f, "one +0 among -0");
                for (size_t i = 0; i < count; i++) x[i] = 0.0f;
                x[at] = -0.0f;
                CHECK_MAX(x, count, last ? -0.0f : 0.0f, "one -0 among +0");
                /* A zero among NaN and -inf, and a NaN after it. */
                for (size_t i = 0; i < count; i++) x[i] = i % 2 ? NAN : -INFINITY;
                x[at] = -0.0f;
                CHECK_MAX(x, count, -0.0f, "-0 among NaN and -inf");
                x[at] = -FLT_MAX;
                CHECK_MAX(x, count, -FLT_MAX, "-FLT_MAX among NaN and -inf");
                x[at] = INFINITY;
                CHECK_MAX(x, count, INFINITY, "+inf among NaN and -inf");
                /* A NaN in a ramp is skipped. */
                for (size_t i = 0; i < count; i++) x[i] = (float)i;
                x[at] = NAN;
                CHECK_MAX(x, count, count == 1 ? -INFINITY : last ? (float)(count - 2) : (float)(count - 1), "NaN in a ramp");
                CHECK_STATUS(fovea_global_avgpool_f32(1, 1, count, x, y, test_pool(1)), FOVEA_STATUS_OK);
                CHECK(isnan(y[0]), "[%s] the average of a plane with a NaN is NaN", test_isas[isa]);
            }
        }
        /* LayerCheck.poolingSpecialCases: planes [-inf NaN -inf -inf] and [NaN NaN inf 2]. */
        const float pairs[8] = {-INFINITY, NAN, -INFINITY, -INFINITY, NAN, NAN, INFINITY, 2};
        float two[2];
        CHECK_STATUS(fovea_global_maxpool_f32(1, 2, 4, pairs, two, test_pool(1)), FOVEA_STATUS_OK);
        CHECK(two[0] == -INFINITY && two[1] == INFINITY, "[%s] LayerCheck's global max: %g %g", test_isas[isa],
              (double)two[0], (double)two[1]);
        CHECK_STATUS(fovea_global_avgpool_f32(1, 2, 4, pairs, two, test_pool(1)), FOVEA_STATUS_OK);
        CHECK(isnan(two[0]) && isnan(two[1]), "[%s] LayerCheck's global average: %g %g", test_isas[isa],
              (double)two[0], (double)two[1]);
    }
    fovea_kernels_set_isa("auto");
}

static void bad_arguments(void) {
    float x[4] = {0}, y[4] = {7, 7, 7, 7};
    CHECK_STATUS(fovea_global_avgpool_f32(1, 2, 2, NULL, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_global_maxpool_f32(1, 2, 2, x, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_global_avgpool_f32(1, 2, 0, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_global_maxpool_f32(1, 2, 0, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_global_avgpool_f32((size_t)1 << 40, (size_t)1 << 40, 1, x, y, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
    CHECK_STATUS(fovea_global_maxpool_f32(1, 1, (size_t)1 << 62, x, y, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
    CHECK_STATUS(fovea_global_avgpool_f32(0, 5, 3, NULL, NULL, test_pool(1)), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_global_maxpool_f32(5, 0, 0, NULL, NULL, test_pool(1)), FOVEA_STATUS_OK);
    CHECK(y[0] == 7 && y[3] == 7, "failed calls must not write");
}

int main(void) {
    test_rng rng = {77u};
    known_values();
    special_values();
    bad_arguments();
    random_cases(&rng);
    head_cases(&rng);
    return test_finish("test_global_pool");
}
