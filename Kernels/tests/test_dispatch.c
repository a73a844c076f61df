/*
 * Run-time ISA selection and the OpenMP report: detection agrees with
 * cpuid, forcing works and is refused for unknown or unsupported ISAs,
 * "auto" restores the default, and FOVEA_ISA (set by ctest) picks the default.
 */
#include "support/test_support.h"
#include "fovea_vector_isa.h"

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

/* The default the library must have picked: FOVEA_ISA if known and supported, else the best. */
static const char *expected_default(void) {
    const char *from_env = getenv("FOVEA_ISA");
    if (from_env != NULL && fovea_kernels_isa_supported(from_env)) return from_env;
    for (int isa = test_isa_count - 1; isa >= 0; isa--) {
        if (fovea_kernels_isa_supported(test_isas[isa])) return test_isas[isa];
    }
    return "scalar";
}

static void default_choice(void) {
    /* Ask before anything is forced: this is the first use of the library in the process. */
    const char *active = fovea_kernels_isa_name();
    const char *want = expected_default();
    const char *env = getenv("FOVEA_ISA");
    printf("FOVEA_ISA=%s -> %s\n", env ? env : "(unset)", active);
    CHECK(strcmp(active, want) == 0, "default ISA is %s, expected %s (FOVEA_ISA=%s)", active, want, env ? env : "unset");
    CHECK(strcmp(fovea_kernels_default_isa_name(), want) == 0, "fovea_kernels_default_isa_name is %s, expected %s",
          fovea_kernels_default_isa_name(), want);
}

static void detection_matches_cpu(void) {
    CHECK(fovea_kernels_isa_supported("scalar"), "scalar is always supported");
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    const int avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    const int avx512 = avx2 && __builtin_cpu_supports("avx512f");
    CHECK(fovea_kernels_isa_supported("avx2") == avx2, "avx2 support %d, cpuid says %d",
          fovea_kernels_isa_supported("avx2"), avx2);
    CHECK(fovea_kernels_isa_supported("avx512") == avx512, "avx512 support %d, cpuid says %d",
          fovea_kernels_isa_supported("avx512"), avx512);
    const int avx512bf16 = avx512 && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                           __builtin_cpu_supports("avx512bf16");
    CHECK(fovea_kernels_isa_supported("avx512bf16") == avx512bf16, "avx512bf16 support %d, cpuid says %d",
          fovea_kernels_isa_supported("avx512bf16"), avx512bf16);
    /* AMX also needs the OS's permission: at most where avx512bf16 is. */
    CHECK(!fovea_kernels_isa_supported("amx") || avx512bf16, "amx without avx512bf16");
#else
    CHECK(!fovea_kernels_isa_supported("avx2") && !fovea_kernels_isa_supported("avx512") &&
              !fovea_kernels_isa_supported("avx512bf16") && !fovea_kernels_isa_supported("amx"),
          "x86 ISAs off x86");
#endif
    /* NEON is part of every AArch64 CPU, and of no other. */
#if defined(__aarch64__)
    CHECK(fovea_kernels_isa_supported("neon"), "neon not supported on AArch64");
    /* Until the NEON kernels are timed on ARM against Swift's simd backend, that backend stays first there. */
    CHECK(fovea_kernels_vector_isa() == NULL, "the vector ISA on AArch64 is %s, expected none yet",
          fovea_kernels_vector_isa());
#else
    CHECK(!fovea_kernels_isa_supported("neon"), "neon supported off AArch64");
#endif
}

/* The AArch64 extensions: the auxiliary vector's bits, by name and in order; NULL elsewhere. */
static void arm_features(void) {
    const char *features = fovea_kernels_arm_features();
#if defined(__aarch64__) && defined(__linux__)
    const unsigned long hwcap = getauxval(AT_HWCAP), hwcap2 = getauxval(AT_HWCAP2);
    char expected[64] = "";
    if (hwcap & (1UL << 20)) strcat(expected, "dotprod");
    if (hwcap2 & (1UL << 14)) strcat(expected, expected[0] ? " bf16" : "bf16");
    if (hwcap2 & (1UL << 13)) strcat(expected, expected[0] ? " i8mm" : "i8mm");
    printf("AArch64 extensions: \"%s\"\n", features ? features : "NULL");
    CHECK(features != NULL && strcmp(features, expected) == 0, "arm features \"%s\", HWCAP says \"%s\"",
          features ? features : "NULL", expected);
    CHECK(features == fovea_kernels_arm_features(), "the same static string each time");
#elif defined(__aarch64__)
    CHECK(features != NULL && features[0] == '\0', "AArch64 without auxv: no features known");
#else
    CHECK(features == NULL, "arm features off AArch64: %s", features);
#endif
    CHECK(!fovea_kernels_isa_supported(NULL), "NULL is no ISA");
    CHECK(!fovea_kernels_isa_supported("auto"), "auto is no ISA");
    CHECK(!fovea_kernels_isa_supported("AVX2"), "names are lower case");
}

static void forcing(void) {
    const char *before = fovea_kernels_isa_name();
    CHECK_STATUS(fovea_kernels_set_isa("sse9"), FOVEA_STATUS_UNKNOWN_ISA);
    CHECK_STATUS(fovea_kernels_set_isa(""), FOVEA_STATUS_UNKNOWN_ISA);
    CHECK(strcmp(fovea_kernels_isa_name(), before) == 0, "a refused name changes nothing");

    for (int isa = 0; isa < test_isa_count; isa++) {
        const char *name = test_isas[isa];
        if (fovea_kernels_isa_supported(name)) {
            CHECK_STATUS(fovea_kernels_set_isa(name), FOVEA_STATUS_OK);
            CHECK(strcmp(fovea_kernels_isa_name(), name) == 0, "forced %s, active %s", name, fovea_kernels_isa_name());
        } else {
            const char *active = fovea_kernels_isa_name();
            CHECK_STATUS(fovea_kernels_set_isa(name), FOVEA_STATUS_UNSUPPORTED_ISA);
            CHECK(strcmp(fovea_kernels_isa_name(), active) == 0, "an unsupported ISA changes nothing");
        }
    }
    CHECK(strcmp(fovea_kernels_default_isa_name(), expected_default()) == 0,
          "forcing does not change the default choice (%s)", fovea_kernels_default_isa_name());
    CHECK_STATUS(fovea_kernels_set_isa("auto"), FOVEA_STATUS_OK);
    CHECK(strcmp(fovea_kernels_isa_name(), expected_default()) == 0, "auto restores the default");
    CHECK_STATUS(fovea_kernels_set_isa("scalar"), FOVEA_STATUS_OK);
    CHECK_STATUS(fovea_kernels_set_isa(NULL), FOVEA_STATUS_OK);
    CHECK(strcmp(fovea_kernels_isa_name(), expected_default()) == 0, "NULL restores the default");
}

static void thread_counts(void) {
#ifdef FOVEA_EXPECT_OPENMP
    CHECK(fovea_kernels_has_openmp() == FOVEA_EXPECT_OPENMP, "OpenMP compiled in: %d, expected %d",
          fovea_kernels_has_openmp(), FOVEA_EXPECT_OPENMP);
#endif
    /* Kernels take their thread count per call; this is only OpenMP's default, for reports. */
    const int openmp = fovea_kernels_has_openmp();
    CHECK(fovea_kernels_num_threads() >= 1, "OpenMP's default team is at least 1 thread");
    if (!openmp) CHECK(fovea_kernels_num_threads() == (int)sysconf(_SC_NPROCESSORS_ONLN), "one per online core without OpenMP");
}

static void status_descriptions(void) {
    for (int status = FOVEA_STATUS_OK; status <= FOVEA_STATUS_UNSUPPORTED_ISA; status++) {
        const char *text = fovea_status_description((fovea_status)status);
        CHECK(text != NULL && text[0] != '\0', "status %d has a description", status);
    }
    CHECK(strstr(fovea_status_description((fovea_status)99), "unknown") != NULL, "out-of-range status");
    CHECK(strstr(fovea_status_description(FOVEA_STATUS_EMPTY_WINDOW), "reserved") != NULL,
          "FOVEA_STATUS_EMPTY_WINDOW is described as reserved");
}

int main(void) {
    default_choice();
    detection_matches_cpu();
    arm_features();
    forcing();
    thread_counts();
    status_descriptions();
    return test_finish("test_dispatch");
}
