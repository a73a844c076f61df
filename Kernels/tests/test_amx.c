/*
 * AMX: detection, the permission guard, the tile configuration, the bf16
 * GEMM tile on AMX and the peak probe.
 *
 * Everywhere: detection agrees with this test's own CPUID / XCR0 reading and
 * (Linux) with ARCH_GET_XCOMP_PERM; one answer from many threads at once; at
 * most one notice on stderr; the status text; the configuration's 64 bytes;
 * a model of TDPBF16PS (Intel SDM pseudo-code) run over the packed panels at
 * the kernel's tile addresses against the naive product, which checks the
 * layouts and the tile addressing without AMX; and the kernel, called without
 * the permission, aborting with its message rather than running (in a child).
 * With AMX usable: the kernel against the naive product over ragged tiles,
 * k 32..512, accumulate, bias, every epilogue and special values, from two
 * threads and across fovea_amx_release. Without: those parts print
 * "skip: ..." with the status.
 *
 * kernels.amx.FOVEA_AMX_DENY runs this again with FOVEA_AMX_DENY=1: AMX must
 * then be unusable, with the notice once where the CPU has AMX, and the
 * kernel must refuse to run.
 *
 * Tolerance (AMX and model alike): bf16 products are exact in fp32 (8-bit
 * significands); the kc products, old C and bias are summed in fp32 in some
 * order, each addition off by at most 2^-24 of a partial sum bounded by the
 * sum of magnitudes S, so |result - exact| <= (kc + 2)·2^-24·S, plus 2^-126
 * per operation for results flushed to zero (FTZ). The epilogues are
 * 1-Lipschitz (leaky slope 0.1), so the same bound holds after them.
 * Non-finite expected values must match exactly (NaN as any NaN).
 */
#define _GNU_SOURCE

#include "support/test_support.h"
#include "fovea_amx.h"
#include "../src/microkernels/gemm-bf16/bf16-gemm-amx.h"
#include "../src/runtime/amx.h"

#include <errno.h>
#include <signal.h>
#include <sys/wait.h>

#if FOVEA_HAVE_X86_VARIANTS
#include <cpuid.h>
#endif
#if defined(__linux__)
#include <sys/syscall.h>
#endif

static int deny_set(void) {
    const char *deny = getenv("FOVEA_AMX_DENY");
    return deny != NULL && deny[0] != '\0' && strcmp(deny, "0") != 0;
}

/* ---- This test's own reading of the hardware ---------------------------- */

static int cpu_has_amx_bf16(void) {
#if FOVEA_HAVE_X86_VARIANTS
    unsigned eax, ebx, ecx, edx;
    if (__get_cpuid_max(0, NULL) < 7 || !__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (edx & (1u << 24)) && (edx & (1u << 22));
#else
    return 0;
#endif
}

static int os_enables_tiles(void) {
#if FOVEA_HAVE_X86_VARIANTS
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx) || !(ecx & (1u << 27))) return 0;
    uint32_t low, high;
    __asm__ volatile(".byte 0x0f, 0x01, 0xd0" : "=a"(low), "=d"(high) : "c"(0));
    return (low & (3u << 17)) == (3u << 17);
#else
    return 0;
#endif
}

#if FOVEA_HAVE_X86_VARIANTS
/* ARCH_GET_XCOMP_PERM's bit 18 (XTILEDATA), or -1 where it cannot be asked. */
static int tile_data_permitted(void) {
#if defined(__linux__)
    uint64_t permitted = 0;
    if (syscall(SYS_arch_prctl, 0x1022, &permitted) != 0) return -1;
    return (int)(permitted >> 18 & 1);
#else
    return -1;
#endif
}
#endif

/* ---- Detection ------------------------------------------------------------ */

static void *detect_in_thread(void *result) {
    *(int *)result = fovea_amx_usable();
    return NULL;
}

static const char notice_prefix[] = "fovea: AMX present but the kernel refused tile data (arch_prctl: ";

/* The first detection, from 4 threads at once, with stderr captured: one answer, at most one notice. */
static void check_detection(void) {
    fflush(stderr);
    FILE *captured = tmpfile();
    const int saved_stderr = dup(2);
    if (captured == NULL || saved_stderr < 0 || dup2(fileno(captured), 2) < 0) {
        perror("capturing stderr");
        exit(2);
    }
    int results[4];
    pthread_t threads[4];
    for (int t = 0; t < 4; t++) pthread_create(&threads[t], NULL, detect_in_thread, &results[t]);
    for (int t = 0; t < 4; t++) pthread_join(threads[t], NULL);
    const int usable = fovea_amx_usable();
    (void)fovea_amx_usable();
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);

    char text[1024] = {0};
    rewind(captured);
    const size_t length = fread(text, 1, sizeof text - 1, captured);
    fclose(captured);
    text[length] = '\0';
    int notices = 0;
    for (const char *p = strstr(text, notice_prefix); p != NULL; p = strstr(p + 1, notice_prefix)) notices++;

    const char *status = fovea_amx_status();
    printf("AMX: %s (CPUID AMX-BF16 %d, XCR0 tile state %d, FOVEA_AMX_DENY %d)\n", status, cpu_has_amx_bf16(),
           os_enables_tiles(), deny_set());
    for (int t = 0; t < 4; t++) CHECK(results[t] == usable, "thread %d saw usable %d, later calls %d", t, results[t], usable);
    CHECK(usable == 0 || usable == 1, "usable is %d", usable);
    CHECK(fovea_kernels_amx_usable() == usable, "public and internal answers differ");
    CHECK(fovea_kernels_amx_status() == status, "public and internal status differ");
    CHECK(status != NULL && status[0] != '\0', "empty status");

#if !FOVEA_HAVE_X86_VARIANTS
    CHECK(!usable && strcmp(status, "not x86") == 0, "not x86: usable %d, status '%s'", usable, status);
#else
    const int hardware = cpu_has_amx_bf16() && os_enables_tiles();
    if (!cpu_has_amx_bf16()) {
        CHECK(!usable, "CPUID has no AMX-BF16 but usable() is 1");
        CHECK(strcmp(status, "no AMX on this CPU") == 0, "status '%s' for a CPU without AMX", status);
    } else if (!os_enables_tiles()) {
        CHECK(!usable, "XCR0 lacks tile state but usable() is 1");
        CHECK(strcmp(status, "OS does not enable tile state (XCR0)") == 0, "status '%s' without XCR0 bits", status);
    }
    if (usable) {
        CHECK(strcmp(status, "usable") == 0, "usable with status '%s'", status);
        CHECK(tile_data_permitted() == 1, "usable but ARCH_GET_XCOMP_PERM lacks XTILEDATA (%d)", tile_data_permitted());
        CHECK(!deny_set(), "usable although FOVEA_AMX_DENY is set");
    }
#if defined(__linux__)
    if (hardware && !usable) {
        CHECK(strncmp(status, "kernel refused ARCH_REQ_XCOMP_PERM: ", 36) == 0, "status '%s'", status);
    }
    /* The notice: exactly once when the hardware is there and the permission is not; never otherwise. */
    CHECK(notices == (hardware && !usable ? 1 : 0), "%d notices on stderr: '%s'", notices, text);
    if (deny_set()) {
        CHECK(!usable, "FOVEA_AMX_DENY=1 but usable() is 1");
        if (hardware) {
            CHECK(strcmp(status, "kernel refused ARCH_REQ_XCOMP_PERM: denied by FOVEA_AMX_DENY") == 0, "status '%s'",
                  status);
            CHECK(strstr(text, "fovea: AMX present but the kernel refused tile data (arch_prctl: denied by "
                               "FOVEA_AMX_DENY); using avx512bf16\n") != NULL,
                  "notice '%s'", text);
            CHECK(tile_data_permitted() == 0, "FOVEA_AMX_DENY: the permission must not have been asked for");
        } else {
            printf("skip: the FOVEA_AMX_DENY notice needs an AMX CPU (%s)\n", status);
        }
    }
#endif
#endif
}

/* ---- The tile configuration ------------------------------------------------ */

static void check_tile_config(void) {
    const unsigned char *bytes = (const unsigned char *)&fovea_amx_config_full_tiles;
    CHECK(((uintptr_t)bytes & 63) == 0, "the configuration is not 64-byte aligned");
    for (int i = 0; i < 64; i++) {
        int expected = 0;
        if (i == 0) expected = 1;                               /* palette 1 */
        if (i >= 16 && i < 32 && i % 2 == 0) expected = 64;     /* colsb of tiles 0-7: 64, little-endian */
        if (i >= 48 && i < 56) expected = 16;                   /* rows of tiles 0-7 */
        CHECK(bytes[i] == expected, "configuration byte %d is %d, expected %d", i, bytes[i], expected);
    }
}

/* ---- bf16 values, packing, the reference ----------------------------------- */

static float bf16_value(uint16_t bits) { return float_from_bits((uint32_t)bits << 16); }

/* As TDPBF16PS reads its inputs: denormals count as zero (DAZ), keeping the sign. */
static float bf16_daz(uint16_t bits) {
    return (bits & 0x7F80u) == 0 ? bf16_value(bits & 0x8000u) : bf16_value(bits);
}

/* Round to nearest even; NaN stays a (quiet) NaN. */
static uint16_t bf16_of(float value) {
    const uint32_t bits = float_bits(value);
    if ((bits & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)(bits >> 16 | 0x40);
    return (uint16_t)((bits + 0x7FFFu + (bits >> 16 & 1)) >> 16);
}

/* The test's matrices: A 32×kc and B kc×32, row-major bf16, zero outside mr×kc and kc×nr. */
typedef struct operands {
    size_t kc;
    uint16_t *a;        /* a[r·kc + k] */
    uint16_t *b;        /* b[k·32 + j] */
    uint16_t *a_packed; /* the kernel's panels */
    uint16_t *b_packed;
} operands;

/* Straight from bf16-gemm-amx.h's formulas, element by element. */
static void pack(operands *o) {
    for (size_t r = 0; r < 32; r++) {
        for (size_t k = 0; k < o->kc; k++) o->a_packed[k / 32 * 1024 + r * 32 + k % 32] = o->a[r * o->kc + k];
    }
    for (size_t k = 0; k < o->kc; k++) {
        for (size_t j = 0; j < 32; j++) o->b_packed[k / 2 * 64 + j * 2 + k % 2] = o->b[k * 32 + j];
    }
}

static operands operands_alloc(size_t kc) {
    operands o = {kc, calloc(32 * kc, 2), calloc(32 * kc, 2), calloc(32 * kc, 2), calloc(32 * kc, 2)};
    if (!o.a || !o.b || !o.a_packed || !o.b_packed) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return o;
}

static void operands_free(operands *o) {
    free(o->a);
    free(o->b);
    free(o->a_packed);
    free(o->b_packed);
}

/* The expected C[r][j] of the contract, in double, and the bound on its error (file comment). */
static void expected_value(const operands *o, size_t r, size_t j, float old_c, int accumulate, const float *bias,
                           const fovea_epilogue *epilogue, float *value, double *bound) {
    double sum = 0.0, magnitude = 0.0;
    for (size_t k = 0; k < o->kc; k++) {
        const double p = (double)bf16_daz(o->a[r * o->kc + k]) * (double)bf16_daz(o->b[k * 32 + j]);
        sum += p;
        magnitude += fabs(p);
    }
    if (accumulate) {
        sum += old_c;
        magnitude += fabs(old_c);
    }
    if (bias != NULL) {
        sum += bias[r];
        magnitude += fabs(bias[r]);
    }
    float v = (float)sum;
    if (epilogue != NULL) v = fovea_epilogue_apply(epilogue, v);
    *value = v;
    /* An infinite or NaN term makes the sum infinite or NaN in any order: exact (after the epilogue too). */
    *bound = isfinite(magnitude) ? (double)(o->kc + 2) * 0x1p-24 * magnitude + (double)(o->kc + 2) * 0x1p-126 : 0.0;
}

static int within(float got, float expected, double bound) {
    if (isnan(expected)) return isnan(got);
    if (isinf(expected)) return got == expected;
    return isfinite(got) && fabs((double)got - (double)expected) <= bound;
}

/* ---- A model of the kernel: TDPBF16PS (Intel SDM) at the kernel's tile addresses ---- */

/* A tile as TILELOADD reads it: 16 rows of 64 bytes, `stride` bytes apart. */
typedef struct model_tile {
    uint16_t bf16[16][32];
    float fp32[16][16];
} model_tile;

static void model_load(model_tile *t, const uint16_t *base, size_t stride_bytes) {
    for (int row = 0; row < 16; row++) memcpy(t->bf16[row], (const char *)base + row * stride_bytes, 64);
}

/* dst += a·b, a 16 rows × 16 pairs, b 16 pair-rows × 16 columns × 2 (SDM: FMA with DAZ, RNE per pair lane). */
static void model_dpbf16ps(model_tile *dst, const model_tile *a, const model_tile *b) {
    for (int m = 0; m < 16; m++) {
        float even[16] = {0}, odd[16] = {0};
        for (int k = 0; k < 16; k++) {
            for (int n = 0; n < 16; n++) {
                even[n] = fmaf(bf16_daz(a->bf16[m][2 * k]), bf16_daz(b->bf16[k][2 * n]), even[n]);
                odd[n] = fmaf(bf16_daz(a->bf16[m][2 * k + 1]), bf16_daz(b->bf16[k][2 * n + 1]), odd[n]);
            }
        }
        for (int n = 0; n < 16; n++) dst->fp32[m][n] += even[n] + odd[n];
    }
}

/* bf16-gemm-32x32-amx.c's tile_product and store_tile, with the same offsets and strides, in plain C. */
static void model_kernel(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c, size_t ldc,
                         const float *bias, int accumulate, const fovea_epilogue *epilogue) {
    static model_tile acc[4], ta[2], tb[2];
    memset(acc, 0, sizeof acc);
    for (size_t k = 0; k < kc; k += 32) {
        const uint16_t *a_block = a + k / 32 * 1024, *b_block = b + k / 32 * 1024;
        model_load(&ta[0], a_block, 64);
        model_load(&ta[1], a_block + 16 * 32, 64);
        model_load(&tb[0], b_block, 128);
        model_load(&tb[1], b_block + 32, 128);
        model_dpbf16ps(&acc[0], &ta[0], &tb[0]);
        model_dpbf16ps(&acc[1], &ta[0], &tb[1]);
        model_dpbf16ps(&acc[2], &ta[1], &tb[0]);
        model_dpbf16ps(&acc[3], &ta[1], &tb[1]);
    }
    for (size_t r = 0; r < mr; r++) {
        for (size_t j = 0; j < nr; j++) {
            float v = acc[(r / 16) * 2 + j / 16].fp32[r % 16][j % 16];
            if (accumulate) v += c[r * ldc + j];
            if (bias != NULL) v += bias[r];
            if (epilogue != NULL) v = fovea_epilogue_apply(epilogue, v);
            c[r * ldc + j] = v;
        }
    }
}

typedef void (*bf16_gemm_fn)(size_t mr, size_t nr, size_t kc, const uint16_t *a, const uint16_t *b, float *c,
                             size_t ldc, const float *bias, int accumulate, const fovea_epilogue *epilogue);

/* ---- Running a kernel against the reference ---------------------------------- */

static const fovea_activation activations[] = {
    {FOVEA_ACTIVATION_NONE, 0, 0, 0},
    {FOVEA_ACTIVATION_RELU, 0, 0, 0},
    {FOVEA_ACTIVATION_CLIP, 0.0f, 6.0f, 0},
    {FOVEA_ACTIVATION_LEAKY_RELU, 0, 0, 0.1f},
};

static const uint32_t untouched_bits = 0x7FC0DEADu; /* a quiet NaN no kernel computes here */

/* One call on packed `o`; C has row stride ldc = nr + 3, whose extra columns must stay untouched. */
static void run_case(const char *name, bf16_gemm_fn kernel, const operands *o, size_t mr, size_t nr, int accumulate,
                     const float *bias, const fovea_activation *activation, test_rng *rng, const float *old_values) {
    const size_t ldc = nr + 3;
    guarded_buffer c = guarded_alloc(mr * ldc, 1);
    float old_c[32 * 35]; /* mr ≤ 32, ldc ≤ 35 */
    for (size_t i = 0; i < mr * ldc; i++) {
        const int inside = i % ldc < nr;
        old_c[i] = inside ? (old_values != NULL ? old_values[i % 7] : rng_float(rng) * 4.0f)
                          : float_from_bits(untouched_bits);
        c.data[i] = accumulate || !inside ? old_c[i] : float_from_bits(untouched_bits);
    }
    const fovea_epilogue e = fovea_epilogue_of(activation);
    const fovea_epilogue *epilogue = activation == NULL ? NULL : &e;
    kernel(mr, nr, o->kc, o->a_packed, o->b_packed, c.data, ldc, bias, accumulate, epilogue);

    CHECK(guards_intact(&c), "%s mr %zu nr %zu kc %zu: wrote outside C", name, mr, nr, o->kc);
    int reported = 0;
    for (size_t r = 0; r < mr; r++) {
        for (size_t j = 0; j < ldc; j++) {
            const float got = c.data[r * ldc + j];
            if (j >= nr) {
                CHECK(float_bits(got) == untouched_bits, "%s: wrote C[%zu][%zu] past nr %zu", name, r, j, nr);
                continue;
            }
            float expected;
            double bound;
            expected_value(o, r, j, old_c[r * ldc + j], accumulate, bias, epilogue, &expected, &bound);
            if (!within(got, expected, bound) && reported++ < 3) {
                CHECK(0, "%s mr %zu nr %zu kc %zu acc %d bias %d act %d: C[%zu][%zu] = %.9g, expected %.9g (bound %.3g)",
                      name, mr, nr, o->kc, accumulate, bias != NULL, activation ? (int)activation->kind : -1, r, j,
                      got, expected, bound);
            } else {
                test_checks++;
            }
        }
    }
    guarded_free(&c);
}

/* Random bf16 operands in [-1, 1) (some exact zeros), zero outside mr×kc and kc×nr. */
static void fill_random(operands *o, size_t mr, size_t nr, test_rng *rng) {
    memset(o->a, 0, 32 * o->kc * 2);
    memset(o->b, 0, 32 * o->kc * 2);
    for (size_t r = 0; r < mr; r++) {
        for (size_t k = 0; k < o->kc; k++) o->a[r * o->kc + k] = rng_int(rng, 0, 15) == 0 ? 0 : bf16_of(rng_float(rng));
    }
    for (size_t k = 0; k < o->kc; k++) {
        for (size_t j = 0; j < nr; j++) o->b[k * 32 + j] = bf16_of(rng_float(rng) * 2.0f);
    }
    pack(o);
}

static const size_t tile_sizes[] = {1, 15, 16, 17, 31, 32};
enum { tile_size_count = sizeof tile_sizes / sizeof tile_sizes[0] };

/* Every mr × nr of tile_sizes, kc 32..512, accumulate, bias, every epilogue (the kernel); fewer for the slow model. */
static void check_shapes(const char *name, bf16_gemm_fn kernel, int thorough) {
    static const size_t kcs[] = {32, 64, 96, 160, 256, 512};
    test_rng rng = {31};
    float bias[32];
    for (int i = 0; i < 32; i++) bias[i] = rng_float(&rng);
    for (size_t ki = 0; ki < sizeof kcs / sizeof kcs[0]; ki++) {
        if (!thorough && kcs[ki] > 96) continue;
        operands o = operands_alloc(kcs[ki]);
        for (int mi = 0; mi < tile_size_count; mi++) {
            for (int ni = 0; ni < tile_size_count; ni++) {
                fill_random(&o, tile_sizes[mi], tile_sizes[ni], &rng);
                for (int variant = 0; variant < (thorough ? 16 : 2); variant++) {
                    const int accumulate = variant & 1;
                    const float *b = thorough ? (variant & 2 ? bias : NULL) : (variant ? bias : NULL);
                    const fovea_activation *act = thorough ? (variant >> 2 == 0 ? NULL : &activations[variant >> 2])
                                                           : &activations[(mi + ni) % 4];
                    run_case(name, kernel, &o, tile_sizes[mi], tile_sizes[ni], accumulate, b, act, &rng, NULL);
                }
            }
        }
        operands_free(&o);
    }
}

/* ±0, ±inf, NaN, bf16 denormals (read as zero), overflow to inf in the tile, tiny products (flushed). */
static void check_special_values(const char *name, bf16_gemm_fn kernel) {
    test_rng rng = {5};
    operands o = operands_alloc(64);
    /* All zeros of both signs, C and bias -0: the result is +0 (the accumulators start at +0). */
    for (size_t i = 0; i < 32 * 64; i++) {
        o.a[i] = i % 3 ? 0x8000 : 0x0000;
        o.b[i] = i % 5 ? 0x0000 : 0x8000;
    }
    pack(&o);
    float minus_zero_bias[32];
    for (int i = 0; i < 32; i++) minus_zero_bias[i] = -0.0f;
    {
        float c[32 * 32];
        for (int i = 0; i < 32 * 32; i++) c[i] = -0.0f;
        kernel(32, 32, 64, o.a_packed, o.b_packed, c, 32, minus_zero_bias, 1, NULL);
        int plus_zero = 1;
        for (int i = 0; i < 32 * 32; i++) plus_zero &= float_bits(c[i]) == 0;
        CHECK(plus_zero, "%s: ±0 products with C and bias -0 must give +0", name);
    }

    /* Random values with special ones sprinkled in, through the general comparison. */
    static const uint16_t specials[] = {0x7F80 /* +inf */, 0xFF80 /* -inf */, 0x7FC0 /* NaN */,
                                        0x0001 /* denormal */, 0x807F /* -denormal */, 0x8000 /* -0 */,
                                        0x00C0 /* 1.5·2^-126: denormal products */};
    /* Values near FLT_MAX stay out: whether partial sums overflow there depends on the summation order. */
    static const float old_specials[] = {INFINITY, -INFINITY, NAN, -0.0f, 1e30f, 0.5f, -2.0f};
    for (int round = 0; round < 40; round++) {
        fill_random(&o, 32, 32, &rng);
        const int count = (int)rng_int(&rng, 1, 6);
        for (int s = 0; s < count; s++) {
            const uint16_t value = specials[rng_int(&rng, 0, sizeof specials / sizeof specials[0] - 1)];
            if (rng_int(&rng, 0, 1)) o.a[rng_int(&rng, 0, 32 * 64 - 1)] = value;
            else o.b[rng_int(&rng, 0, 32 * 64 - 1)] = value;
        }
        if (round % 4 == 0) {
            /* A whole row of the smallest normals: its products with |b| < 2/3 are denormal, flushed by AMX. */
            for (size_t k = 0; k < 64; k++) o.a[5 * 64 + k] = 0x00C0;
        }
        pack(&o);
        run_case(name, kernel, &o, round % 2 ? 32 : 17, round % 3 ? 32 : 31, round % 2, round % 5 ? NULL : minus_zero_bias,
                 &activations[round % 4], &rng, round % 2 ? old_specials : NULL);
    }
    /* Products past FLT_MAX: the largest bf16 times 2 is +inf in fp32, whatever the order. */
    memset(o.a, 0, 32 * 64 * 2);
    memset(o.b, 0, 32 * 64 * 2);
    for (size_t k = 0; k < 64; k++) {
        o.a[k] = 0x7F7F;
        o.b[k * 32] = 0x4000;
    }
    pack(&o);
    {
        float c[32 * 32];
        kernel(32, 32, 64, o.a_packed, o.b_packed, c, 32, NULL, 0, NULL);
        CHECK(c[0] == INFINITY && c[1] == 0.0f, "%s: overflow must give +inf (got %g, %g)", name, c[0], c[1]);
    }
    /* Denormal A times huge B: zero with DAZ, 2^-133·2^127 = 2^-6 without it. */
    memset(o.a, 0, 32 * 64 * 2);
    memset(o.b, 0, 32 * 64 * 2);
    o.a[0] = 0x0001;
    o.b[0] = 0x7F00; /* 2^127 */
    pack(&o);
    {
        float c[32 * 32];
        kernel(32, 32, 64, o.a_packed, o.b_packed, c, 32, NULL, 0, NULL);
        CHECK(c[0] == 0.0f, "%s: a bf16 denormal input must count as zero, got %g", name, c[0]);
    }
    operands_free(&o);
}

/* ---- The guard: the kernel must not run without the permission ------------ */

static void check_guard(void) {
#if FOVEA_HAVE_X86_VARIANTS
    if (fovea_amx_usable()) {
        printf("skip: the permission guard: the permission was granted in this process "
               "(kernels.amx.FOVEA_AMX_DENY checks it)\n");
        return;
    }
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) {
        perror("pipe");
        exit(2);
    }
    fflush(NULL);
    const pid_t child = fork();
    if (child == 0) {
        dup2(pipe_fds[1], 2);
        close(pipe_fds[0]);
        static uint16_t a[32 * 32], b[32 * 32];
        static float c[32 * 32];
        fovea_bf16_gemm_32x32__amx(32, 32, 32, a, b, c, 32, NULL, 0, NULL);
        _exit(0); /* ran without the permission: the parent fails the check */
    }
    close(pipe_fds[1]);
    char text[512] = {0};
    size_t length = 0;
    ssize_t got;
    while (length < sizeof text - 1 && (got = read(pipe_fds[0], text + length, sizeof text - 1 - length)) > 0) {
        length += (size_t)got;
    }
    close(pipe_fds[0]);
    int status = 0;
    waitpid(child, &status, 0);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT,
          "the AMX kernel without the permission must abort (SIGABRT), not %s %d",
          WIFSIGNALED(status) ? "die of signal" : "exit with", WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    CHECK(strstr(text, "fovea: AMX kernel bf16_gemm_32x32_amx called without the tile data permission") != NULL,
          "the guard's message is missing: '%s'", text);
#endif
}

/* ---- AMX only: threads, release, the peak -------------------------------- */

#if FOVEA_HAVE_X86_VARIANTS
typedef struct thread_case {
    int failures;
} thread_case;

/* A second thread has its own tile configuration: its first call must configure it. */
static void *kernel_in_thread(void *arg) {
    thread_case *result = arg;
    const long failures_before = test_failures;
    check_special_values("amx (second thread)", fovea_bf16_gemm_32x32__amx);
    fovea_amx_release();
    result->failures = (int)(test_failures - failures_before);
    return NULL;
}
#endif

static void check_peak(void) {
    const double gflops = fovea_amx_bf16_peak_gflops(0.05);
    if (fovea_amx_usable()) {
        printf("AMX bf16 peak: %.0f GFLOP/s on one thread\n", gflops);
        /* A 4th-gen Xeon core: about 4000; 100000 would be a miscounted loop. */
        CHECK(gflops > 0.0 && gflops < 100000.0, "AMX peak %.1f GFLOP/s", gflops);
    } else {
        CHECK(gflops == 0.0, "AMX not usable but the peak probe gave %.1f", gflops);
    }
}

int main(void) {
    check_detection(); /* first: it must be the process's first detection */
    check_tile_config();
    fovea_amx_release(); /* never configured here: must do nothing, on any CPU */

    /* The model of the tile program, everywhere: layouts and tile addresses against the naive product. */
    check_shapes("model", model_kernel, 0);
    check_special_values("model", model_kernel);

    check_guard();
    check_peak();

#if FOVEA_HAVE_X86_VARIANTS
    if (fovea_amx_usable()) {
        check_shapes("amx", fovea_bf16_gemm_32x32__amx, 1);
        check_special_values("amx", fovea_bf16_gemm_32x32__amx);
        fovea_amx_release();
        check_special_values("amx (after release)", fovea_bf16_gemm_32x32__amx);
        thread_case second = {0};
        pthread_t thread;
        pthread_create(&thread, NULL, kernel_in_thread, &second);
        pthread_join(thread, NULL);
        fovea_amx_release();
    } else {
        printf("skip: the AMX kernel bf16_gemm_32x32_amx: AMX not usable here (%s)\n", fovea_amx_status());
    }
#else
    printf("skip: the AMX kernel: not x86\n");
#endif
    return test_finish("test_amx");
}
