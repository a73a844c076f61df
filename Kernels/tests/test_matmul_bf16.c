/*
 * fovea_matmul_f32 over bf16-packed B (fovea_matmul_pack_b_precision) on
 * every ISA the CPU has: random and fixed shapes (one row, odd k, k past one
 * 256-block, rows past one row block, transposed B, padded strides, bias,
 * activations, 1 and 2 threads), C written only inside its m×n part, and the
 * refusals.
 *
 * Tolerance, against reference_dot in double on the bf16-rounded operands
 * (A rounded, scale·B rounded): every bf16 product is exact in float32, so
 * the error is the float32 summation of k products, the bias and one carry per
 * 256-block: within (k + 8)·2⁻²⁴·(|bias| + Σ|products|) (8 covers the bias and
 * up to seven block carries; k ≤ 1800 here), plus (k + 8)·2⁻¹²⁵ absolute for
 * the denormals vdpbf16ps flushes (none in these inputs).
 */
#include "support/reference.h"
#include "support/test_support.h"

static void check_shape(const char *isa, size_t m, size_t k, size_t n, int transposed, int with_bias, int act,
                        size_t threads, test_rng *rng) {
    const size_t lda = k + (size_t)rng_int(rng, 0, 3), ldc = n + (size_t)rng_int(rng, 0, 3);
    float *a = malloc(m * lda * sizeof(float)), *b = malloc(k * n * sizeof(float)), *bias = malloc(n * sizeof(float));
    float *ar = malloc(m * lda * sizeof(float)), *br = malloc(k * n * sizeof(float));
    const float scale = 0.5f;
    for (size_t i = 0; i < m * lda; i++) ar[i] = reference_round_to_bf16(a[i] = rng_float(rng));
    for (size_t i = 0; i < k * n; i++) br[i] = reference_round_to_bf16(scale * (b[i] = rng_float(rng)));
    for (size_t i = 0; i < n; i++) bias[i] = rng_float(rng);
    const size_t row_stride = transposed ? 1 : n, column_stride = transposed ? k : 1;
    const size_t packed_floats = fovea_matmul_packed_b_floats_precision(k, n, FOVEA_PRECISION_BF16);
    CHECK(packed_floats > 0 && packed_floats <= fovea_matmul_packed_b_floats(k, n) + 16 * k,
          "bf16 packed size of %zux%zu: %zu", k, n, packed_floats);
    float *packed = malloc(packed_floats * sizeof(float));
    CHECK_STATUS(fovea_matmul_pack_b_precision(k, n, b, row_stride, column_stride, scale, FOVEA_PRECISION_BF16, packed,
                                               packed_floats),
                 FOVEA_STATUS_OK);
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
    /* B as reference_dot reads it: element p of column j at br[j·column_stride + p·row_stride]. */
    long bad = 0;
    const double bound = (double)(k + 8) * 0x1p-24, absolute = (double)(k + 8) * 0x1p-125;
    for (size_t i = 0; i < m; i++) {
        for (size_t j = 0; j < ldc; j++) {
            const float got = c.data[i * ldc + j];
            if (j >= n) {
                bad += got != 1234.5f;
                continue;
            }
            double products = 0;
            const double dot = reference_dot(k, ar + i * lda, 1, br + j * column_stride, row_stride, &products);
            const double sum = (with_bias ? bias[j] : 0) + dot;
            const double magnitude = fabs(with_bias ? bias[j] : 0) + products;
            const double want = test_activation(act ? &activation : NULL, sum);
            bad += !(fabs(got - want) <= bound * magnitude + absolute);
        }
    }
    CHECK(bad == 0 && guards_intact(&c), "[%s] m %zu k %zu n %zu transposed %d bias %d act %d threads %zu: %ld wrong",
          isa, m, k, n, transposed, with_bias, act, threads, bad);
    guarded_free(&c);
    free(a), free(b), free(ar), free(br), free(bias), free(packed), free(workspace);
}

static void check_bad_arguments(void) {
    float b[12] = {0}, a[12] = {0}, c[12] = {0}, workspace[4096];
    float packed[256];
    CHECK(fovea_matmul_packed_b_floats_precision(3, 4, (fovea_precision)2) == 0, "a bad precision has a size");
    CHECK(fovea_matmul_packed_b_floats_precision(3, 4, FOVEA_PRECISION_F32) == fovea_matmul_packed_b_floats(3, 4),
          "F32 is fovea_matmul_packed_b_floats");
    CHECK_STATUS(fovea_matmul_pack_b_precision(3, 4, b, 4, 1, 1, (fovea_precision)2, packed, 256),
                 FOVEA_STATUS_INVALID_PARAMETER);
    CHECK_STATUS(fovea_matmul_pack_b_precision(3, 4, NULL, 4, 1, 1, FOVEA_PRECISION_BF16, packed, 256),
                 FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_matmul_pack_b_precision(3, 4, b, 0, 1, 1, FOVEA_PRECISION_BF16, packed, 256),
                 FOVEA_STATUS_INVALID_PARAMETER);
    const size_t needed = fovea_matmul_packed_b_floats_precision(3, 4, FOVEA_PRECISION_BF16);
    CHECK_STATUS(fovea_matmul_pack_b_precision(3, 4, b, 4, 1, 1, FOVEA_PRECISION_BF16, packed, needed - 1),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    CHECK_STATUS(fovea_matmul_pack_b_precision(3, 4, b, 4, 1, 1, FOVEA_PRECISION_BF16, packed, 256), FOVEA_STATUS_OK);
    const size_t ws = fovea_matmul_workspace_floats(packed, 3, 1);
    CHECK(ws > 0 && ws <= 4096, "workspace %zu", ws);
    CHECK_STATUS(fovea_matmul_f32(3, a, 3, packed, NULL, c, 4, NULL, workspace, 0, test_pool(1)),
                 FOVEA_STATUS_BUFFER_TOO_SMALL);
    for (int i = 0; i < 12; i++) CHECK(c[i] == 0, "a refused call wrote C");
}

int main(void) {
    test_rng rng = {2026120719};
    static const size_t fixed[][3] = {{1, 1, 1},    {1, 768, 1000}, {197, 768, 64}, {197, 65, 197}, {8, 32, 32},
                                      {300, 301, 70}, {9, 513, 33},  {17, 5, 47},    {260, 16, 16},  {3, 1800, 40}};
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_set_isa(test_isas[isa]) != FOVEA_STATUS_OK) {
            printf("skipping %s (not supported here)\n", test_isas[isa]);
            continue;
        }
        for (size_t s = 0; s < sizeof fixed / sizeof fixed[0]; s++) {
            check_shape(test_isas[isa], fixed[s][0], fixed[s][1], fixed[s][2], (int)(s % 2), (int)(s % 3 != 0),
                        (int)(s % 3), 1 + s % 2, &rng);
        }
        for (int trial = 0; trial < 40; trial++) {
            check_shape(test_isas[isa], (size_t)rng_int(&rng, 1, 70), (size_t)rng_int(&rng, 1, 300),
                        (size_t)rng_int(&rng, 1, 90), (int)rng_int(&rng, 0, 1), (int)rng_int(&rng, 0, 1),
                        (int)rng_int(&rng, 0, 2), (size_t)rng_int(&rng, 1, 2), &rng);
        }
    }
    fovea_kernels_set_isa("auto");
    check_bad_arguments();
    return test_finish("matmul_bf16");
}
