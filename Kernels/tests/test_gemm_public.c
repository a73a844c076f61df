/*
 * The public microkernel entry points (fovea_gemm.h): every supported ISA's
 * tile against a naive product of the documented panel layouts, C written only
 * inside its MR×NR tile, panels read only inside (fenced buffers), repeats, and
 * every refusal status with nothing written.
 */
#include "support/reference.h"
#include "support/test_support.h"

#include <stdint.h>

/* The fp32 microkernels: the bf16 levels (avx512bf16, amx) run avx512's. */
static const size_t expected_mr[test_isa_count] = {4, 6, 8, 8, 8, 8};
static const size_t expected_nr[test_isa_count] = {8, 16, 32, 32, 32, 12};
static const char *const expected_name[test_isa_count] = {"f32_gemm_4x8_scalar", "f32_gemm_6x16_avx2",
                                                          "f32_gemm_8x32_avx512", "f32_gemm_8x32_avx512",
                                                          "f32_gemm_8x32_avx512", "f32_gemm_8x12_neon"};

/* One tile of `isa` over kc with ldc, against the naive product; `repeats` calls (1: the single-tile entry point). */
static void check_tile(const char *isa, size_t kc, size_t ldc, size_t repeats, test_rng *rng) {
    size_t MR = 0, NR = 0;
    CHECK_STATUS(fovea_gemm_microkernel_tile(isa, &MR, &NR), FOVEA_STATUS_OK);
    fenced_buffer a = fenced_alloc(kc * MR, (int)rng_int(rng, 0, 1));
    fenced_buffer b = fenced_alloc(kc * NR, (int)rng_int(rng, 0, 1));
    for (size_t i = 0; i < kc * MR; i++) a.data[i] = rng_float(rng);
    for (size_t i = 0; i < kc * NR; i++) b.data[i] = rng_float(rng);
    guarded_buffer c = guarded_alloc(MR * ldc, (size_t)rng_int(rng, 0, 3));
    for (size_t i = 0; i < MR * ldc; i++) c.data[i] = rng_float(rng);
    float *before = malloc(MR * ldc * sizeof(float));
    memcpy(before, c.data, MR * ldc * sizeof(float));

    if (repeats == 1) {
        CHECK_STATUS(fovea_gemm_microkernel_f32(isa, kc, a.data, b.data, c.data, ldc), FOVEA_STATUS_OK);
    } else {
        CHECK_STATUS(fovea_gemm_microkernel_repeat_f32(isa, kc, a.data, b.data, c.data, ldc, repeats), FOVEA_STATUS_OK);
    }
    double worst = 0;
    int outside_changed = 0;
    for (size_t r = 0; r < MR; r++) {
        for (size_t j = 0; j < ldc; j++) {
            const float got = c.data[r * ldc + j];
            if (j >= NR) {
                outside_changed |= !same_float(got, before[r * ldc + j]);
                continue;
            }
            double magnitude = 0; /* the documented layouts */
            const double sum = reference_dot(kc, a.data + r, MR, b.data + j, NR, &magnitude);
            const double error = fabs(got - sum) / (magnitude + 1e-30);
            if (!(error <= worst)) worst = error;
        }
    }
    /* Float sums of kc terms: a few units in the last place of the magnitude, times log-ish growth. */
    CHECK(worst <= 1e-6 * (1.0 + (double)kc / 64), "%s kc=%zu ldc=%zu repeats=%zu: relative error %g", isa ? isa : "NULL",
          kc, ldc, repeats, worst);
    CHECK(!outside_changed && guards_intact(&c), "%s kc=%zu ldc=%zu: wrote outside the tile", isa ? isa : "NULL", kc, ldc);
    free(before);
    guarded_free(&c);
    fenced_free(&a);
    fenced_free(&b);
}

/* Repeating gives the bits of one call. */
static void check_repeat_same_bits(const char *isa, test_rng *rng) {
    size_t MR = 0, NR = 0;
    fovea_gemm_microkernel_tile(isa, &MR, &NR);
    const size_t kc = 37;
    float *a = malloc(kc * MR * sizeof(float)), *b = malloc(kc * NR * sizeof(float));
    float *once = malloc(MR * NR * sizeof(float)), *many = malloc(MR * NR * sizeof(float));
    for (size_t i = 0; i < kc * MR; i++) a[i] = rng_float(rng);
    for (size_t i = 0; i < kc * NR; i++) b[i] = rng_float(rng);
    CHECK_STATUS(fovea_gemm_microkernel_f32(isa, kc, a, b, once, NR), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_gemm_microkernel_repeat_f32(isa, kc, a, b, many, NR, 7), FOVEA_STATUS_OK);
    CHECK(memcmp(once, many, MR * NR * sizeof(float)) == 0, "%s: 7 repeats differ from one call", isa);
    /* 0 repeats: checked, nothing written. */
    for (size_t i = 0; i < MR * NR; i++) many[i] = 12.5f;
    CHECK_STATUS(fovea_gemm_microkernel_repeat_f32(isa, kc, a, b, many, NR, 0), FOVEA_STATUS_OK);
    int untouched = 1;
    for (size_t i = 0; i < MR * NR; i++) untouched &= many[i] == 12.5f;
    CHECK(untouched, "%s: 0 repeats wrote C", isa);
    CHECK_STATUS(fovea_gemm_microkernel_repeat_f32(isa, 0, a, b, many, NR, 0), FOVEA_STATUS_INVALID_PARAMETER);
    free(a), free(b), free(once), free(many);
}

/* Every refusal returns its status and writes nothing. */
static void check_refusals(void) {
    float a[8 * 4] = {0}, b[32 * 4] = {0}, c[8 * 40];
    for (size_t i = 0; i < 8 * 40; i++) c[i] = 3.0f;
    size_t mr = 99, nr = 99;
    const char *bad_names[] = {"avx1024", "auto", "", "AVX2", "scalar "};
    for (size_t i = 0; i < sizeof bad_names / sizeof *bad_names; i++) {
        CHECK_STATUS(fovea_gemm_microkernel_tile(bad_names[i], &mr, &nr), FOVEA_STATUS_UNKNOWN_ISA);
        CHECK_STATUS(fovea_gemm_microkernel_f32(bad_names[i], 4, a, b, c, 40), FOVEA_STATUS_UNKNOWN_ISA);
        CHECK_STATUS(fovea_gemm_microkernel_repeat_f32(bad_names[i], 4, a, b, c, 40, 3), FOVEA_STATUS_UNKNOWN_ISA);
        CHECK(fovea_gemm_microkernel_name(bad_names[i]) == NULL, "name of '%s' is not NULL", bad_names[i]);
    }
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (fovea_kernels_isa_supported(test_isas[isa])) continue;
        CHECK_STATUS(fovea_gemm_microkernel_tile(test_isas[isa], &mr, &nr), FOVEA_STATUS_UNSUPPORTED_ISA);
        CHECK_STATUS(fovea_gemm_microkernel_f32(test_isas[isa], 4, a, b, c, 40), FOVEA_STATUS_UNSUPPORTED_ISA);
        CHECK(fovea_gemm_microkernel_name(test_isas[isa]) == NULL, "name of unsupported %s is not NULL", test_isas[isa]);
    }
    CHECK(mr == 99 && nr == 99, "a refused tile query wrote mr/nr");
    CHECK_STATUS(fovea_gemm_microkernel_tile("scalar", NULL, &nr), FOVEA_STATUS_NULL_POINTER);
    CHECK_STATUS(fovea_gemm_microkernel_tile("scalar", &mr, NULL), FOVEA_STATUS_NULL_POINTER);
    CHECK(mr == 99 && nr == 99, "a refused tile query wrote mr/nr");
    /* The ISA is checked before the pointers. */
    CHECK_STATUS(fovea_gemm_microkernel_f32("bogus", 4, NULL, b, c, 40), FOVEA_STATUS_UNKNOWN_ISA);
    for (int isa = 0; isa < test_isa_count; isa++) {
        const char *name = test_isas[isa];
        if (!fovea_kernels_isa_supported(name)) continue;
        CHECK_STATUS(fovea_gemm_microkernel_f32(name, 4, NULL, b, c, 40), FOVEA_STATUS_NULL_POINTER);
        CHECK_STATUS(fovea_gemm_microkernel_f32(name, 4, a, NULL, c, 40), FOVEA_STATUS_NULL_POINTER);
        CHECK_STATUS(fovea_gemm_microkernel_f32(name, 4, a, b, NULL, 40), FOVEA_STATUS_NULL_POINTER);
        CHECK_STATUS(fovea_gemm_microkernel_f32(name, 0, a, b, c, 40), FOVEA_STATUS_INVALID_PARAMETER);
        CHECK_STATUS(fovea_gemm_microkernel_f32(name, FOVEA_KERNELS_MAX_EXTENT + 1, a, b, c, 40),
                     FOVEA_STATUS_INVALID_PARAMETER);
        CHECK_STATUS(fovea_gemm_microkernel_f32(name, 4, a, b, c, expected_nr[isa] - 1), FOVEA_STATUS_INVALID_PARAMETER);
        CHECK_STATUS(fovea_gemm_microkernel_f32(name, 4, a, b, c, SIZE_MAX / 2), FOVEA_STATUS_TOO_LARGE);
        CHECK_STATUS(fovea_gemm_microkernel_repeat_f32(name, 4, a, b, c, SIZE_MAX / 2, 1), FOVEA_STATUS_TOO_LARGE);
    }
    int untouched = 1;
    for (size_t i = 0; i < 8 * 40; i++) untouched &= c[i] == 3.0f;
    CHECK(untouched, "a refused call wrote C");
}

int main(void) {
    test_rng rng = {20260117};
    for (int isa = 0; isa < test_isa_count; isa++) {
        const char *name = test_isas[isa];
        if (!fovea_kernels_isa_supported(name)) {
            printf("skipping %s (not supported here)\n", name);
            continue;
        }
        size_t mr = 0, nr = 0;
        CHECK_STATUS(fovea_gemm_microkernel_tile(name, &mr, &nr), FOVEA_STATUS_OK);
        CHECK(mr == expected_mr[isa] && nr == expected_nr[isa], "%s tile %zux%zu", name, mr, nr);
        const char *kernel = fovea_gemm_microkernel_name(name);
        CHECK(kernel != NULL && strcmp(kernel, expected_name[isa]) == 0, "%s name %s", name, kernel ? kernel : "NULL");
        const size_t kcs[] = {1, 2, 3, 5, 16, 64, 255, 256, 576, 1000};
        for (size_t i = 0; i < sizeof kcs / sizeof *kcs; i++) {
            check_tile(name, kcs[i], nr + (size_t)rng_int(&rng, 0, 5), 1, &rng);
            check_tile(name, kcs[i], nr, (size_t)rng_int(&rng, 2, 4), &rng);
        }
        check_repeat_same_bits(name, &rng);

        /* NULL is the ISA kernel calls use now. */
        CHECK_STATUS(fovea_kernels_set_isa(name), FOVEA_STATUS_OK);
        size_t active_mr = 0, active_nr = 0;
        CHECK_STATUS(fovea_gemm_microkernel_tile(NULL, &active_mr, &active_nr), FOVEA_STATUS_OK);
        CHECK(active_mr == mr && active_nr == nr, "NULL with %s forced gave %zux%zu", name, active_mr, active_nr);
        const char *active = fovea_gemm_microkernel_name(NULL);
        CHECK(active != NULL && strcmp(active, expected_name[isa]) == 0, "NULL name with %s forced: %s", name,
              active ? active : "NULL");
        check_tile(NULL, 64, nr + 3, 1, &rng);
        CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
    }
    check_refusals();
    return test_finish("gemm_public");
}
