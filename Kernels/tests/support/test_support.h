/*
 * A tiny test harness for the C kernel tests: checks that count failures,
 * a seeded random generator, guarded buffers that catch out-of-bounds writes,
 * and float comparisons. Plain C, no framework.
 */
#ifndef FOVEA_KERNELS_TEST_SUPPORT_H
#define FOVEA_KERNELS_TEST_SUPPORT_H

#include "fovea_kernels.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static long test_checks = 0;
static long test_failures = 0;

/* Records one check; prints the first failures with their location. */
#define CHECK(condition, ...)                                                \
    do {                                                                     \
        test_checks++;                                                       \
        if (!(condition)) {                                                  \
            test_failures++;                                                 \
            if (test_failures <= 25) {                                       \
                fprintf(stderr, "%s:%d: check failed: ", __FILE__, __LINE__); \
                fprintf(stderr, __VA_ARGS__);                                \
                fputc('\n', stderr);                                         \
            }                                                                \
        }                                                                    \
    } while (0)

/*
 * The pool a test's kernel calls run on: the standalone library's default pool
 * with up to `threads` threads per call (capped at 64), or NULL (the calling
 * thread) for 0. Kernels take a pool, not a count; tests keep their counts.
 */
enum { test_pool_most = 64 };
static fovea_threadpool test_pools[test_pool_most + 1];
static pthread_once_t test_pools_once = PTHREAD_ONCE_INIT;

static void test_make_pools(void) {
    for (size_t i = 0; i <= test_pool_most; i++) test_pools[i] = fovea_threadpool_default(i);
}

static inline const fovea_threadpool *test_pool(size_t threads) {
    pthread_once(&test_pools_once, test_make_pools);
    return threads == 0 ? NULL : &test_pools[threads > test_pool_most ? test_pool_most : threads];
}

#define CHECK_STATUS(call, expected)                                                              \
    do {                                                                                          \
        const fovea_status status_ = (call);                                                      \
        CHECK(status_ == (expected), "%s returned %d (%s), expected %d", #call, (int)status_,     \
              fovea_status_description(status_), (int)(expected));                                \
    } while (0)

/* Prints the summary line and returns the process exit code. */
static inline int test_finish(const char *suite) {
    printf("%s: %ld checks, %ld failed\n", suite, test_checks, test_failures);
    return test_failures == 0 ? 0 : 1;
}

/*
 * Whether the tests run under emulation (FOVEA_TEST_EMULATED=1: qemu-user,
 * set by scripts/ci/aarch64-kernels.sh). Under qemu every float operation
 * runs in software, so the naive references in double dominate, and speeds
 * mean nothing: comparisons of speeds are skipped.
 */
static inline int test_emulated(void) {
    const char *text = getenv("FOVEA_TEST_EMULATED");
    return text != NULL && text[0] != '\0' && strcmp(text, "0") != 0;
}

/*
 * How many of a slow test's `count` random cases to run: all of them, or an
 * eighth (at least one) under emulation, so that the whole suite still runs
 * under qemu, on fewer random shapes, within CI's time budget.
 */
static inline int test_cases(int count) {
    if (!test_emulated()) return count;
    return count / 8 > 0 ? count / 8 : 1;
}

/* Every ISA name the library knows, lowest first (fp32 kernels run avx512's code on the last two). */
static const char *const test_isas[] = {"scalar", "avx2", "avx512", "avx512bf16", "amx", "neon"};
enum { test_isa_count = 6 };

/* The ISA whose fp32 kernels run on `isa` (and name them): avx512's on the bf16 levels above it. */
static inline const char *test_fp32_isa(const char *isa) {
    return strcmp(isa, "avx512bf16") == 0 || strcmp(isa, "amx") == 0 ? "avx512" : isa;
}

/*
 * The ISA whose code a family without NEON code runs on `isa` (and names its
 * kernels for): scalar's on neon, else test_fp32_isa's. The small-channel
 * convolution is such a family (no NEON tile yet).
 */
static inline const char *test_isa_without_neon(const char *isa) {
    return strcmp(isa, "neon") == 0 ? "scalar" : test_fp32_isa(isa);
}

/* ---- Random numbers (splitmix64: small, seeded, the same on every machine) ---- */

typedef struct test_rng {
    uint64_t state;
} test_rng;

static inline uint64_t rng_next(test_rng *rng) {
    uint64_t z = (rng->state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* A uniform integer in [low, high]. */
static inline long rng_int(test_rng *rng, long low, long high) {
    return low + (long)(rng_next(rng) % (uint64_t)(high - low + 1));
}

/* A uniform float in [-1, 1). */
static inline float rng_float(test_rng *rng) {
    return (float)((double)(rng_next(rng) >> 40) / (double)(1ull << 24) * 2.0 - 1.0);
}

/* ---- Floats ---------------------------------------------------------------- */

/*
 * A fused activation as the kernels define it (fovea_kernels.h), in double:
 * ReLU gives +0 for NaN, negatives and -0; Clip and LeakyReLU keep NaN; NULL or
 * FOVEA_ACTIVATION_NONE is the identity. Exact for float inputs when the result
 * is rounded back to float (a product of two floats is exact in double).
 */
static inline double test_activation(const fovea_activation *a, double v) {
    if (a == NULL) return v;
    switch (a->kind) {
    case FOVEA_ACTIVATION_RELU: return v > 0 ? v : 0;
    case FOVEA_ACTIVATION_CLIP: return v < a->min ? a->min : v > a->max ? a->max : v;
    case FOVEA_ACTIVATION_LEAKY_RELU: return v < 0 ? v * a->alpha : v;
    case FOVEA_ACTIVATION_NONE: break;
    }
    return v;
}

static inline uint32_t float_bits(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

static inline float float_from_bits(uint32_t bits) {
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

/* Same bits, except that any two NaNs count as equal. */
static inline int same_float(float a, float b) {
    if (a != a || b != b) return a != a && b != b;
    return float_bits(a) == float_bits(b);
}

/* |a - b| <= tolerance * |b| (relative to the expected b), NaN matching NaN, infinities exact. */
static inline int close_float(float a, float b, double tolerance) {
    if (a != a || b != b) return a != a && b != b;
    if (isinf(a) || isinf(b)) return a == b;
    return fabs((double)a - (double)b) <= tolerance * fabs((double)b) + 1e-30;
}

/* ---- Guarded buffers --------------------------------------------------------- */

/* Floats before and after each buffer, filled with a pattern kernels never write. */
enum { guard_floats = 32 };
static const uint32_t guard_bits = 0x7FBADBADu; /* a signalling NaN payload */

typedef struct guarded_buffer {
    float *storage;
    float *data;  /* `count` floats, `misalign` floats past an aligned address */
    size_t count;
    size_t misalign;
} guarded_buffer;

static inline guarded_buffer guarded_alloc(size_t count, size_t misalign) {
    guarded_buffer buffer;
    const size_t total = count + misalign + 2 * guard_floats;
    buffer.storage = (float *)malloc(total * sizeof(float));
    if (buffer.storage == NULL) {
        fprintf(stderr, "out of memory allocating %zu floats\n", total);
        exit(2);
    }
    for (size_t i = 0; i < total; i++) buffer.storage[i] = float_from_bits(guard_bits);
    buffer.data = buffer.storage + guard_floats + misalign;
    buffer.count = count;
    buffer.misalign = misalign;
    return buffer;
}

/* 1 if nothing was written before or after the buffer's `count` floats. */
static inline int guards_intact(const guarded_buffer *buffer) {
    const float *before = buffer->storage;
    const float *after = buffer->data + buffer->count;
    for (size_t i = 0; i < guard_floats + buffer->misalign; i++) {
        if (float_bits(before[i]) != guard_bits) return 0;
    }
    for (size_t i = 0; i < guard_floats; i++) {
        if (float_bits(after[i]) != guard_bits) return 0;
    }
    return 1;
}

static inline void guarded_free(guarded_buffer *buffer) {
    free(buffer->storage);
    buffer->storage = NULL;
    buffer->data = NULL;
}

/* ---- Fenced buffers: any read past either end faults ----------------------- */

/*
 * `count` floats between two inaccessible pages, flush against the page after
 * them (at_end) or the page before them. A kernel that reads even one float
 * outside its input crashes the test, which guard floats cannot show.
 */
typedef struct fenced_buffer {
    unsigned char *mapping;
    size_t mapping_size;
    float *data;
} fenced_buffer;

static inline fenced_buffer fenced_alloc(size_t count, int at_end) {
    const size_t page = (size_t)sysconf(_SC_PAGESIZE);
    const size_t bytes = count * sizeof(float);
    const size_t usable = (bytes + page - 1) / page * page;
    fenced_buffer buffer;
    buffer.mapping_size = usable + 2 * page;
    void *mapping = mmap(NULL, buffer.mapping_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
        perror("mmap");
        exit(2);
    }
    buffer.mapping = (unsigned char *)mapping;
    if (mprotect(buffer.mapping, page, PROT_NONE) != 0 ||
        mprotect(buffer.mapping + page + usable, page, PROT_NONE) != 0) {
        perror("mprotect");
        exit(2);
    }
    buffer.data = (float *)(buffer.mapping + page + (at_end ? usable - bytes : 0));
    return buffer;
}

static inline void fenced_free(fenced_buffer *buffer) {
    munmap(buffer->mapping, buffer->mapping_size);
    buffer->mapping = NULL;
    buffer->data = NULL;
}

#endif
