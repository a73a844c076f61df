/*
 * Global max and average pooling: every ISA variant the CPU supports against
 * a naive implementation, over random plane sizes around the vector widths,
 * plus special values and bad arguments.
 */
#include "test_support.h"

static float naive_global_max(const float *x, size_t count) {
    float max = -INFINITY;
    for (size_t i = 0; i < count; i++) {
        if (x[i] != x[i]) return NAN;
        if (x[i] > max || (x[i] == max && signbit(max))) max = x[i]; /* +0 beats -0 */
    }
    return max;
}

static float naive_global_average(const float *x, size_t count) {
    double sum = 0;
    for (size_t i = 0; i < count; i++) sum += x[i];
    return (float)(sum / (double)count);
}

static void compare_all_variants(size_t batch, size_t channels, size_t spatial, const float *x) {
    const size_t planes = batch * channels;
    for (int is_max = 0; is_max <= 1; is_max++) {
        for (int isa = 0; isa < test_isa_count; isa++) {
            if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
            guarded_buffer y = guarded_alloc(planes, (size_t)isa);
            CHECK_STATUS(is_max ? fovea_global_maxpool_f32(batch, channels, spatial, x, y.data)
                                : fovea_global_avgpool_f32(batch, channels, spatial, x, y.data),
                         FOVEA_STATUS_OK);
            for (size_t plane = 0; plane < planes; plane++) {
                const float *in = x + plane * spatial;
                if (is_max) {
                    const float want = naive_global_max(in, spatial);
                    CHECK(same_float(y.data[plane], want), "[%s] global max of %zu values: %.9g (0x%08x), expected %.9g",
                          test_isas[isa], spatial, (double)y.data[plane], (unsigned)float_bits(y.data[plane]),
                          (double)want);
                    if (isnan(want)) CHECK(float_bits(y.data[plane]) == 0x7FC00000u, "[%s] default NaN", test_isas[isa]);
                } else {
                    const float want = naive_global_average(in, spatial);
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
        const int flavour = c / (int)size_count; /* 0..9: plain, ties, specials */
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
            }
            x.data[i] = v;
        }
        fovea_kernels_set_num_threads(c % 2 ? 1 : 2);
        compare_all_variants(batch, channels, spatial, x.data);
        fenced_free(&x);
    }
    fovea_kernels_set_num_threads(0);
}

static void known_values(void) {
    const float x[6] = {1, 2, 3, -4, -5, 0.5f};
    float y[2];
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        CHECK_STATUS(fovea_global_avgpool_f32(1, 2, 3, x, y), FOVEA_STATUS_OK);
        CHECK(y[0] == 2.0f && y[1] == -2.833333333f, "[%s] averages %g %g", test_isas[isa], (double)y[0], (double)y[1]);
        CHECK_STATUS(fovea_global_maxpool_f32(2, 1, 3, x, y), FOVEA_STATUS_OK);
        CHECK(y[0] == 3.0f && y[1] == 0.5f, "[%s] maxima %g %g", test_isas[isa], (double)y[0], (double)y[1]);
    }
    fovea_kernels_set_isa("auto");
}

/* +0 against -0 and a NaN at every position of planes up to 40 long (vector bodies, tails, lane reductions). */
static void special_values(void) {
    float x[40], y[1];
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) continue;
        for (size_t count = 1; count <= 40; count++) {
            for (size_t i = 0; i < count; i++) x[i] = -0.0f;
            CHECK_STATUS(fovea_global_maxpool_f32(1, 1, count, x, y), FOVEA_STATUS_OK);
            CHECK(float_bits(y[0]) == 0x80000000u, "[%s] max of %zu times -0 is -0, got 0x%08x", test_isas[isa], count,
                  (unsigned)float_bits(y[0]));
            for (size_t at = 0; at < count; at++) {
                for (size_t i = 0; i < count; i++) x[i] = -0.0f;
                x[at] = 0.0f;
                CHECK_STATUS(fovea_global_maxpool_f32(1, 1, count, x, y), FOVEA_STATUS_OK);
                CHECK(float_bits(y[0]) == 0, "[%s] +0 at %zu of %zu beats -0, got 0x%08x", test_isas[isa], at, count,
                      (unsigned)float_bits(y[0]));
                for (size_t i = 0; i < count; i++) x[i] = (float)i;
                x[at] = NAN;
                CHECK_STATUS(fovea_global_maxpool_f32(1, 1, count, x, y), FOVEA_STATUS_OK);
                CHECK(float_bits(y[0]) == 0x7FC00000u, "[%s] NaN at %zu of %zu gives the default NaN, got 0x%08x",
                      test_isas[isa], at, count, (unsigned)float_bits(y[0]));
                CHECK_STATUS(fovea_global_avgpool_f32(1, 1, count, x, y), FOVEA_STATUS_OK);
                CHECK(isnan(y[0]), "[%s] the average of a plane with a NaN is NaN", test_isas[isa]);
            }
        }
    }
    fovea_kernels_set_isa("auto");
}

static void bad_arguments(void) {
    float x[4] = {0}, y[4] = {7, 7, 7, 7};
    CHECK_STATUS(fovea_global_avgpool_f32(1, 2, 2, NULL, y), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_global_maxpool_f32(1, 2, 2, x, NULL), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_global_avgpool_f32(1, 2, 0, x, y), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_global_maxpool_f32(1, 2, 0, x, y), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_global_avgpool_f32((size_t)1 << 40, (size_t)1 << 40, 1, x, y), FOVEA_STATUS_TOO_LARGE);
    CHECK_STATUS(fovea_global_maxpool_f32(1, 1, (size_t)1 << 62, x, y), FOVEA_STATUS_TOO_LARGE);
    CHECK_STATUS(fovea_global_avgpool_f32(0, 5, 3, NULL, NULL), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_global_maxpool_f32(5, 0, 0, NULL, NULL), FOVEA_STATUS_OK);
    CHECK(y[0] == 7 && y[3] == 7, "failed calls must not write");
}

int main(void) {
    test_rng rng = {77u};
    known_values();
    special_values();
    bad_arguments();
    random_cases(&rng);
    return test_finish("test_global_pool");
}
