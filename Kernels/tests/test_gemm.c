/*
 * Every GEMM microkernel the CPU can run against a naive product: ragged
 * tiles (mr < MR, nr < NR), k from 1 to 700, accumulate, bias, every fused
 * activation, stores that must stay inside the valid mr×nr part of C; each
 * ISA's main and narrow tile, and their prefetching variants (which must
 * compute the same whatever they prefetch).
 * Also the transposed tile (f32_gemm_t8x32_avx512: pixels as rows, channels
 * as lanes, stored channel by channel) with every mr 1-8 and nr 1-32.
 */
#include "support/reference.h"
#include "support/test_support.h"
#include "../src/configs/config.h"

static const fovea_activation activations[] = {
    {FOVEA_ACTIVATION_NONE, 0, 0, 0},
    {FOVEA_ACTIVATION_RELU, 0, 0, 0},
    {FOVEA_ACTIVATION_CLIP, 0.0f, 6.0f, 0},
    {FOVEA_ACTIVATION_LEAKY_RELU, 0, 0, 0.1f},
};

/* One tile's kernel (prefetching: its ukernel_prefetch, told to prefetch B and parts past it). */
static void check_microkernel(const fovea_gemm_config *config, int prefetching, test_rng *rng) {
    const size_t MR = config->mr, NR = config->nr;
    for (int trial = 0; trial < 300; trial++) {
        const size_t mr = (size_t)rng_int(rng, 1, (long)MR), nr = (size_t)rng_int(rng, 1, (long)NR);
        const size_t kc = trial < 20 ? (size_t)trial + 1 : (size_t)rng_int(rng, 1, 700);
        const size_t ldc = nr + (size_t)rng_int(rng, 0, 5);
        const int accumulate = rng_int(rng, 0, 1), use_bias = rng_int(rng, 0, 1), use_epilogue = rng_int(rng, 0, 1);
        const fovea_activation *activation = &activations[rng_int(rng, 0, 3)];
        float *a = malloc(MR * kc * sizeof(float)), *b = malloc(NR * kc * sizeof(float));
        float bias[64];
        for (size_t i = 0; i < MR * kc; i++) a[i] = i % MR < mr ? rng_float(rng) : 0.0f;
        for (size_t i = 0; i < NR * kc; i++) b[i] = rng_float(rng);
        for (size_t r = 0; r < MR; r++) bias[r] = rng_float(rng);
        guarded_buffer c = guarded_alloc(mr * ldc, (size_t)rng_int(rng, 0, 3));
        for (size_t i = 0; i < mr * ldc; i++) c.data[i] = rng_float(rng);
        float *before = malloc(mr * ldc * sizeof(float));
        memcpy(before, c.data, mr * ldc * sizeof(float));
        const fovea_epilogue epilogue = fovea_epilogue_of(activation);
        if (prefetching) {
            /* Prefetches never fault: lines past the end of b are allowed. */
            config->ukernel_prefetch(mr, nr, kc, a, b, c.data, ldc, use_bias ? bias : NULL, accumulate,
                                     use_epilogue ? &epilogue : NULL, b, (size_t)rng_int(rng, 0, (long)kc + 3));
        } else {
            config->ukernel(mr, nr, kc, a, b, c.data, ldc, use_bias ? bias : NULL, accumulate,
                            use_epilogue ? &epilogue : NULL);
        }
        double worst = 0;
        int outside_changed = 0;
        for (size_t r = 0; r < mr; r++) {
            for (size_t j = 0; j < ldc; j++) {
                const float got = c.data[r * ldc + j];
                if (j >= nr) {
                    outside_changed |= !same_float(got, before[r * ldc + j]);
                    continue;
                }
                double magnitude = 0;
                double sum = reference_dot(kc, a + r, MR, b + j, NR, &magnitude);
                if (accumulate) sum += before[r * ldc + j];
                if (use_bias) sum += bias[r];
                if (use_epilogue) sum = test_activation(activation, sum);
                const double error = fabs(got - sum) / (magnitude + 1.0);
                if (error > worst) worst = error;
            }
        }
        CHECK(worst <= 1e-6, "%s%s mr=%zu nr=%zu kc=%zu: error %g", config->name, prefetching ? " prefetch" : "", mr,
              nr, kc, worst);
        CHECK(!outside_changed && guards_intact(&c), "%s%s mr=%zu nr=%zu: wrote outside the tile", config->name,
              prefetching ? " prefetch" : "", mr, nr);
        guarded_free(&c);
        free(a), free(b), free(before);
    }
}

#if FOVEA_HAVE_X86_VARIANTS
/*
 * f32_gemm_t8x32_avx512: C[j·ldc + r] = Σk a[k·lda + r]·b[k·32 + j] for
 * r < mr, j < nr, over ragged mr and nr, any lda, residual, bias, activation;
 * the rest of C (other pixels of the channel row, channels past nr) untouched.
 * The bias (loaded as vectors of channels) is nr floats against an
 * inaccessible page: reading past channel nr faults.
 */
static void check_transposed_microkernel(test_rng *rng) {
    for (int trial = 0; trial < 400; trial++) {
        const size_t mr = (size_t)(trial % 8) + 1, nr = (size_t)rng_int(rng, 1, 32);
        const size_t kc = trial < 24 ? (size_t)trial + 1 : (size_t)rng_int(rng, 1, 700);
        const size_t lda = mr + (size_t)rng_int(rng, 0, 200);
        const size_t ldc = mr + (size_t)rng_int(rng, 0, 60);
        const int accumulate = rng_int(rng, 0, 1), use_bias = rng_int(rng, 0, 1), use_epilogue = rng_int(rng, 0, 1);
        const fovea_activation *activation = &activations[rng_int(rng, 0, 3)];
        float *a = malloc(lda * kc * sizeof(float)), *b = malloc(32 * kc * sizeof(float));
        fenced_buffer fenced_bias = fenced_alloc(nr, 1);
        float *bias = fenced_bias.data;
        for (size_t i = 0; i < lda * kc; i++) a[i] = rng_float(rng);
        for (size_t i = 0; i < 32 * kc; i++) b[i] = rng_float(rng);
        for (size_t j = 0; j < nr; j++) bias[j] = rng_float(rng);
        const size_t c_count = (nr - 1) * ldc + mr;
        guarded_buffer c = guarded_alloc(c_count, (size_t)rng_int(rng, 0, 3));
        for (size_t i = 0; i < c_count; i++) c.data[i] = rng_float(rng);
        float *before = malloc(c_count * sizeof(float));
        memcpy(before, c.data, c_count * sizeof(float));
        const fovea_epilogue epilogue = fovea_epilogue_of(activation);
        fovea_f32_gemm_t8x32__avx512(mr, nr, kc, a, lda, b, c.data, ldc, use_bias ? bias : NULL, accumulate,
                                     use_epilogue ? &epilogue : NULL, b, (size_t)rng_int(rng, 0, 4));
        double worst = 0;
        int outside_changed = 0;
        for (size_t i = 0; i < c_count; i++) {
            const size_t j = i / ldc, r = i % ldc;
            if (r >= mr) {
                outside_changed |= !same_float(c.data[i], before[i]);
                continue;
            }
            double magnitude = 0;
            double sum = reference_dot(kc, a + r, lda, b + j, 32, &magnitude);
            if (accumulate) sum += before[i];
            if (use_bias) sum += bias[j];
            if (use_epilogue) sum = test_activation(activation, sum);
            const double error = fabs(c.data[i] - sum) / (magnitude + 1.0);
            if (error > worst) worst = error;
        }
        CHECK(worst <= 1e-6, "f32_gemm_t8x32_avx512 mr=%zu nr=%zu kc=%zu: error %g", mr, nr, kc, worst);
        CHECK(!outside_changed && guards_intact(&c), "f32_gemm_t8x32_avx512 mr=%zu nr=%zu: wrote outside the tile",
              mr, nr);
        guarded_free(&c);
        fenced_free(&fenced_bias);
        free(a), free(b), free(before);
    }
}
#endif

/*
 * NaN stays NaN through every epilogue (0 through ReLU); infinities clamp. Also Clips with an
 * infinite bound, which a tile may store without that clamp; and the tile reading B in place.
 */
static void check_special_values(fovea_isa isa) {
    const fovea_gemm_config *config = fovea_gemm_config_for(isa);
    const fovea_activation special[] = {
        activations[0], activations[1], activations[2], activations[3],
        {FOVEA_ACTIVATION_CLIP, 0.0f, INFINITY, 0},
        {FOVEA_ACTIVATION_CLIP, -INFINITY, INFINITY, 0},
        {FOVEA_ACTIVATION_CLIP, -INFINITY, 6.0f, 0},
    };
    float a[64 * 1] = {0}, b[64] = {0}, c[64 * 64];
    a[0] = 1.0f;
    b[0] = NAN;
    b[1] = INFINITY;
    b[2] = -INFINITY;
    b[3] = -2.0f;
    b[4] = 7.0f;
    for (int strided = 0; strided < 2; strided++) {
        if (strided && config->ukernel_strided == NULL) continue;
        for (size_t i = 0; i < sizeof special / sizeof special[0]; i++) {
            const fovea_epilogue e = fovea_epilogue_of(&special[i]);
            if (strided) {
                /* A full NR-wide row of B (b is 64 floats), one row of C. */
                config->ukernel_strided(1, 1, a, b, config->nr, c, config->nr, NULL, 0, &e);
            } else {
                config->ukernel(1, 5, 1, a, b, c, 5, NULL, 0, &e);
            }
            if (special[i].kind == FOVEA_ACTIVATION_RELU) {
                CHECK(c[0] == 0.0f, "%s: NaN through ReLU gave %g, expected 0 (as the Relu operator)", config->name,
                      c[0]);
            } else {
                CHECK(c[0] != c[0], "%s (strided %d): NaN through activation %zu gave %g", config->name, strided, i,
                      c[0]);
            }
            for (size_t j = 1; j < 5; j++) {
                const float expected = (float)test_activation(&special[i], b[j]);
                CHECK(c[j] == expected, "%s (strided %d): %g through activation %zu gave %g, expected %g",
                      config->name, strided, b[j], i, c[j], expected);
            }
        }
    }
}

int main(void) {
    test_rng rng = {42};
    for (int isa = 0; isa < test_isa_count; isa++) {
        if (!fovea_kernels_isa_supported(test_isas[isa])) {
            printf("skipping %s (not supported here)\n", test_isas[isa]);
            continue;
        }
        for (const fovea_gemm_config *config = fovea_gemm_config_for((fovea_isa)isa); config != NULL;
             config = config->narrow) {
            check_microkernel(config, 0, &rng);
            if (config->ukernel_prefetch != NULL) check_microkernel(config, 1, &rng);
        }
        check_special_values((fovea_isa)isa);
    }
#if FOVEA_HAVE_X86_VARIANTS
    if (fovea_kernels_isa_supported("avx512")) check_transposed_microkernel(&rng);
#endif
    return test_finish("gemm");
}
