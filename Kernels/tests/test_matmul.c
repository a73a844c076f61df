/*
 * fovea_matmul_f32 (fovea_matmul.h): row-major C = A·B + bias, activation,
 * over random shapes (one row, odd sizes, k past one k-block, rows past one
 * row block, transposed B, padded strides, 1 and 2 threads) on every
 * supported ISA, against a double-precision product with a relative
 * tolerance of 1e-5 of the sum of |products|; C written only inside its m×n
 * part (guarded, ldc padding untouched); and every refusal status.
 */
#include "support/reference.h"
#include "support/test_support.h"

static void check_shape(size_t m, size_t k, size_t n, int transposed, int with_bias, int act, size_t threads,
                        test_rng *rng) {
    const size_t lda = k + (size_t)rng_int(rng, 0, 3), ldc = n + (size_t)rng_int(rng, 0, 3);
    float *a = malloc(m * lda * sizeof(float)), *b = malloc(k * n * sizeof(float)), *bias = malloc(n * sizeof(float));
    for (size_t i = 0; i < m * lda; i++) a[i] = rng_float(rng);
    for (size_t i = 0; i < k * n; i++) b[i] = rng_float(rng);
    for (size_t i = 0; i < n; i++) bias[i] = rng_float(rng);
    const float scale = 0.5f;
    /* Transposed: b holds Bᵀ (n×k), B[p, j] = b[j·k + p]. */
    const size_t row_stride = transposed ? 1 : n, column_stride = transposed ? k : 1;
    const size_t packed_floats = fovea_matmul_packed_b_floats(k, n);
    CHECK(packed_floats > 0, "packed size of %zux%zu", k, n);
    float *packed = malloc(packed_floats * sizeof(float));
    CHECK_STATUS(fovea_matmul_pack_b(k, n, b, row_stride, column_stride, scale, packed, packed_floats), FOVEA_STATUS_OK);
    const size_t workspace_floats = fovea_matmul_workspace_floats(packed, m, threads);
    float *workspace = malloc(workspace_floats * sizeof(float));
    guarded_buffer c = guarded_alloc(m * ldc, (size_t)rng_int(rng, 0, 3));
    for (size_t i = 0; i < m * ldc; i++) c.data[i] = 1234.5f;
    fovea_activation activation = {FOVEA_ACTIVATION_NONE, 0, 0, 0};
    if (act == 1) activation.kind = FOVEA_ACTIVATION_RELU;
    if (act == 2) activation = (fovea_activation){FOVEA_ACTIVATION_CLIP, -0.25f, 0.25f, 0};
    CHECK_STATUS(fovea_matmul_f32(m, a, lda, packed, with_bias ? bias : NULL, c.data, ldc, act ? &activation : NULL,
                                  workspace, workspace_floats, test_pool(threads)),
                 FOVEA_STATUS_OK);
    long bad = 0;
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < ldc; j++) {
            const float got = c.data[i * ldc + j];
            if (j >= n) {
                bad += got != 1234.5f;
                continue;
            }
            double products = 0;
            const double dot = reference_dot(k, a + i * lda, 1, b + j * column_stride, row_stride, &products);
            const double sum = (with_bias ? bias[j] : 0) + (double)scale * dot;
            const double magnitude = fabs(with_bias ? bias[j] : 0) + fabs((double)scale) * products;
            const double want = test_activation(act ? &activation : NULL, sum);
            bad += fabs(got - want) > 1e-5 * magnitude + 1e-30;
        }
    }
    CHECK(bad == 0 && guards_intact(&c), "m %zu k %zu n %zu transposed %d bias %d act %d threads %zu: %ld wrong", m, k,
          n, transposed, with_bias, act, threads, bad);
    guarded_free(&c);
    free(a), free(b), free(bias), free(packed), free(workspace);
}

static void check_bad_arguments(void) {
    float b[12] = {0}, a[12] = {0}, c[12] = {0}, workspace[4096];
    float packed[256];
    CHECK(fovea_matmul_packed_b_floats(0, 3) == 0 && fovea_matmul_packed_b_floats(3, 0) == 0, "empty B has a size");
    CHECK_STATUS(fovea_matmul_pack_b(3, 4, NULL, 4, 1, 1, packed, 256), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_matmul_pack_b(0, 4, b, 4, 1, 1, packed, 256), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_matmul_pack_b(3, 4, b, 0, 1, 1, packed, 256), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_matmul_pack_b(3, 4, b, 4, 1, 1, packed, 8), FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fovea_matmul_pack_b(3, 4, b, 4, 1, 1, packed, 256), FOVEA_STATUS_OK);
    const size_t ws = fovea_matmul_workspace_floats(packed, 3, 1);
    CHECK(ws > 0 && ws <= 4096, "workspace %zu", ws);
    CHECK_STATUS(fovea_matmul_f32(3, NULL, 3, packed, NULL, c, 4, NULL, workspace, ws, test_pool(1)), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_matmul_f32(0, a, 3, packed, NULL, c, 4, NULL, workspace, ws, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_matmul_f32(3, a, 2, packed, NULL, c, 4, NULL, workspace, ws, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_matmul_f32(3, a, 3, packed, NULL, c, 3, NULL, workspace, ws, test_pool(1)), FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_matmul_f32(3, a, 3, packed, NULL, c, 4, NULL, workspace, 0, test_pool(1)), FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fovea_matmul_f32(3, a, 3, b, NULL, c, 4, NULL, workspace, ws, test_pool(1)), FOVEA_STATUS_PACKING_MISMATCH);
    CHECK(fovea_matmul_workspace_floats(b, 3, 1) == 0, "garbage taken as packed B");
    for (int i = 0; i < 12; i++) CHECK(c[i] == 0, "a refused call wrote C");
}

int main(void) {
    test_rng rng = {19};
    static const size_t fixed[][3] = {{1, 1, 1}, {1, 768, 1000}, {197, 768, 64}, {197, 64, 197}, {8, 32, 32},
                                      {300, 300, 70}, {9, 513, 33}, {17, 5, 47}, {260, 16, 16}};
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) {
            printf("skipping %s (not supported here)\n", test_isas[isa]);
            continue;
        }
        for (size_t s = 0; s < sizeof fixed / sizeof fixed[0]; s++) {
            check_shape(fixed[s][0], fixed[s][1], fixed[s][2], (int)(s % 2), (int)(s % 3 != 0), (int)(s % 3),
                        1 + s % 2, &rng);
        }
        for (int trial = 0; trial < 40; trial++) {
            check_shape((size_t)rng_int(&rng, 1, 70), (size_t)rng_int(&rng, 1, 300), (size_t)rng_int(&rng, 1, 90),
                        (int)rng_int(&rng, 0, 1), (int)rng_int(&rng, 0, 1), (int)rng_int(&rng, 0, 2),
                        (size_t)rng_int(&rng, 1, 2), &rng);
        }
    }
    fovea_kernels_set_isa("auto");
    check_bad_arguments();
    return test_finish("matmul");
}
