/*
 * fovea_transpose_f32 (fovea_transpose.h): random permutations of random
 * shapes (size-1 axes, merged axes, tiles with ragged edges, the last axis
 * kept or moved, 1 and 2 threads) equal a naive odometer copy bit for bit,
 * with nothing written past the output; and every refusal status.
 */
#include "support/reference.h"
#include "support/test_support.h"

static void check(size_t rank, const size_t *shape, const size_t *perm, size_t threads, test_rng *rng) {
    size_t count = 1;
    for (size_t i = 0; i < rank; i++) count *= shape[i];
    float *x = malloc((count + 1) * sizeof(float)), *want = malloc((count + 1) * sizeof(float));
    for (size_t i = 0; i < count; i++) x[i] = rng_float(rng);
    guarded_buffer y = guarded_alloc(count, (size_t)rng_int(rng, 0, 3));
    CHECK_STATUS(fovea_transpose_f32(rank, shape, perm, x, y.data, test_pool(threads)), FOVEA_STATUS_OK);
    reference_transpose(rank, shape, perm, x, want);
    long bad = 0;
    for (size_t i = 0; i < count; i++) bad += !same_float(y.data[i], want[i]);
    CHECK(bad == 0 && guards_intact(&y), "rank %zu count %zu threads %zu: %ld wrong", rank, count, threads, bad);
    guarded_free(&y);
    free(x), free(want);
}

int main(void) {
    test_rng rng = {23};
    /* The transformers' permutations: NCHW <-> NHWC, heads split and joined, Swin's windows. */
    const size_t s1[] = {1, 96, 56, 56}, p1[] = {0, 2, 3, 1};
    const size_t s2[] = {1, 56, 56, 96}, p2[] = {0, 3, 1, 2};
    const size_t s3[] = {197, 1, 12, 64}, p3[] = {2, 1, 0, 3};
    const size_t s4[] = {1, 8, 7, 8, 7, 96}, p4[] = {0, 1, 3, 2, 4, 5};
    const size_t s5[] = {3, 49, 3, 3, 32}, p5[] = {2, 0, 3, 1, 4};
    const size_t s6[] = {12, 197, 64}, p6[] = {0, 2, 1};
    check(4, s1, p1, 1, &rng), check(4, s2, p2, 2, &rng), check(4, s3, p3, 1, &rng);
    check(6, s4, p4, 2, &rng), check(5, s5, p5, 1, &rng), check(3, s6, p6, 2, &rng);
    for (int trial = 0; trial < 300; trial++) {
        const size_t rank = (size_t)rng_int(&rng, 1, 6);
        size_t shape[FOVEA_TRANSPOSE_MAX_RANK], perm[FOVEA_TRANSPOSE_MAX_RANK];
        for (size_t i = 0; i < rank; i++) {
            shape[i] = (size_t)(rng_int(&rng, 0, 4) == 0 ? 1 : rng_int(&rng, 1, rank <= 2 ? 70 : 9));
            perm[i] = i;
        }
        for (size_t i = rank; i-- > 1;) {
            const size_t j = (size_t)rng_int(&rng, 0, (long)i), t = perm[i];
            perm[i] = perm[j], perm[j] = t;
        }
        check(rank, shape, perm, (size_t)rng_int(&rng, 1, 2), &rng);
    }
    /* Refusals. */
    float x[8] = {0}, y[8] = {0};
    const size_t shape[] = {2, 4}, good[] = {1, 0}, repeated[] = {1, 1}, outside[] = {0, 2};
    const size_t huge[] = {(size_t)1 << 20, (size_t)1 << 20, (size_t)1 << 20, (size_t)1 << 20}, perm4[] = {3, 2, 1, 0};
    const size_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, perm9[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    const size_t too_wide[] = {FOVEA_KERNELS_MAX_EXTENT + 1, 1};
    CHECK_STATUS(fovea_transpose_f32(2, shape, good, NULL, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_transpose_f32(2, NULL, good, x, y, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_transpose_f32(2, shape, repeated, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_transpose_f32(2, shape, outside, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_transpose_f32(9, nine, perm9, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_transpose_f32(2, too_wide, good, x, y, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_transpose_f32(4, huge, perm4, x, y, test_pool(1)), FOVEA_STATUS_TOO_LARGE);
    for (int i = 0; i < 8; i++) CHECK(y[i] == 0, "a refused call wrote y");
    const size_t scalar_shape[1] = {1}, scalar_perm[1] = {0};
    x[0] = 3;
    CHECK_STATUS(fovea_transpose_f32(0, scalar_shape, scalar_perm, x, y, test_pool(1)), FOVEA_STATUS_OK);
    CHECK(y[0] == 3, "a rank-0 tensor is one element");
    return test_finish("transpose");
}
