/*
 * fovea_channel_affine_f32 (an inference BatchNormalization as a node) against
 * the shared reference (support/reference.c): random batches, channel counts and plane sizes
 * (0 included), every activation, 1–3 threads, in place and into another
 * buffer whose guards must stay intact, special values. Tolerance: none — a
 * rounded multiply then a rounded add per element, so the results must be
 * bit-identical (any NaN matching any NaN). And bad arguments.
 */
#include "support/reference.h"
#include "support/test_support.h"

static float value(test_rng *rng) {
    switch (rng_int(rng, 0, 30)) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return -0.0f;
    default: return rng_float(rng) * 4.0f;
    }
}

static void random_cases(test_rng *rng) {
    const fovea_activation activations[] = {{FOVEA_ACTIVATION_NONE, 0, 0, 0}, {FOVEA_ACTIVATION_RELU, 0, 0, 0},
                                            {FOVEA_ACTIVATION_CLIP, 0.0f, 6.0f, 0},
                                            {FOVEA_ACTIVATION_LEAKY_RELU, 0, 0, 0.1f}};
    for (int trial = 0; trial < 300; trial++) {
        const size_t batch = (size_t)rng_int(rng, 0, 3), channels = (size_t)rng_int(rng, 1, 70);
        const size_t plane = (size_t)(rng_int(rng, 0, 5) == 0 ? rng_int(rng, 0, 3) : rng_int(rng, 1, 3000));
        const size_t count = batch * channels * plane;
        const fovea_activation *activation = rng_int(rng, 0, 4) == 0 ? NULL : &activations[rng_int(rng, 0, 3)];
        const size_t threads = (size_t)rng_int(rng, 1, 3);
        const int in_place = rng_int(rng, 0, 1);
        float *x = malloc((count + 1) * sizeof(float)), *scale = malloc(channels * sizeof(float));
        float *shift = malloc(channels * sizeof(float)), *expected = malloc((count + 1) * sizeof(float));
        for (size_t i = 0; i < count; i++) x[i] = value(rng);
        for (size_t c = 0; c < channels; c++) scale[c] = rng_float(rng) * 2, shift[c] = rng_float(rng);
        reference_channel_affine(batch, channels, plane, x, scale, shift, expected);
        for (size_t i = 0; i < count; i++) expected[i] = (float)test_activation(activation, expected[i]);
        guarded_buffer y = guarded_alloc(count, (size_t)trial % 3);
        float *out = in_place ? x : y.data;
        CHECK_STATUS(fovea_channel_affine_f32(batch, channels, plane, x, scale, shift, out, activation, test_pool(threads)),
                     FOVEA_STATUS_OK);
        size_t wrong = 0;
        for (size_t i = 0; i < count; i++) wrong += !same_float(out[i], expected[i]);
        CHECK(wrong == 0, "trial %d (N %zu C %zu plane %zu, %zu threads, %s): %zu elements differ", trial, batch,
              channels, plane, threads, in_place ? "in place" : "out of place", wrong);
        CHECK(guards_intact(&y), "trial %d: wrote outside y", trial);
        guarded_free(&y);
        free(x), free(scale), free(shift), free(expected);
    }
}

static void bad_arguments(void) {
    float x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, y[8] = {0}, scale[2] = {1, 2}, shift[2] = {0, 1};
    CHECK_STATUS(fovea_channel_affine_f32(1, 2, 4, NULL, scale, shift, y, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_channel_affine_f32(1, 2, 4, x, NULL, shift, y, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_channel_affine_f32(1, 2, 4, x, scale, NULL, y, NULL, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_channel_affine_f32(1, 2, 3, x, scale, shift, x + 1, NULL, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    fovea_activation bad = {(fovea_activation_kind)9, 0, 0, 0};
    CHECK_STATUS(fovea_channel_affine_f32(1, 2, 4, x, scale, shift, y, &bad, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_channel_affine_f32(SIZE_MAX, 2, 4, x, scale, shift, y, NULL, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
    int untouched = 1;
    for (int i = 0; i < 8; i++) untouched &= y[i] == 0.0f;
    CHECK(untouched, "a failed call wrote to y");
    CHECK_STATUS(fovea_channel_affine_f32(0, 2, 4, NULL, NULL, NULL, NULL, NULL, test_pool(1)), FOVEA_STATUS_OK);
}

int main(void) {
    test_rng rng = {0xBA7C4ull};
    bad_arguments();
    random_cases(&rng);
    return test_finish("test_channel_affine");
}
