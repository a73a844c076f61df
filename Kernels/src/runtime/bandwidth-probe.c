/*
 * The memory bandwidth probe (fovea_peak.h): libc's memcpy between two
 * buffers larger than the last-level cache, split over the caller's pool, timed
 * in short blocks, the fastest block wins.
 *
 * memcpy, not a C loop: a SwiftPM debug build compiles C at -O0, and the
 * probe must measure the memory system, not the compiler (glibc's memcpy is
 * the same vectorized code in every build, and streams large copies with
 * non-temporal stores, as a kernel writing a large output would want to).
 */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */

#include "fovea_kernels.h"
#include "runtime.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* One copy of `bytes` from a to b, each thread its contiguous share (64-byte aligned). */
typedef struct copy_job {
    const unsigned char *a;
    unsigned char *b;
    size_t bytes;
} copy_job;

static void copy_share(void *context, size_t id, size_t count) {
    const copy_job *j = (const copy_job *)context;
    const size_t lines = j->bytes / 64;
    const size_t first = lines * id / count * 64, end = id + 1 == count ? j->bytes : lines * (id + 1) / count * 64;
    memcpy(j->b + first, j->a + first, end - first);
}

static void copy_block(const unsigned char *a, unsigned char *b, size_t bytes, const fovea_threadpool *threadpool,
                       int threads) {
    const copy_job job = {a, b, bytes};
    fovea_parallel_run(threadpool, threads, copy_share, (void *)&job);
}

double fovea_memory_bandwidth_gbps(size_t bytes, const fovea_threadpool *threadpool, double seconds) {
    if (bytes == 0) bytes = (size_t)64 << 20;
    if (bytes < 4096) bytes = 4096;
    if (bytes > (size_t)1 << 32) bytes = (size_t)1 << 32;
    if (!(seconds > 0)) seconds = 0.2;
    if (seconds > 10) seconds = 10;
    const int t = fovea_threads_for(threadpool, (double)bytes);
    unsigned char *a = malloc(bytes), *b = malloc(bytes);
    if (a == NULL || b == NULL) {
        free(a);
        free(b);
        return 0;
    }
    /* Touch every page first (in parallel, so each thread's share starts near it), then warm up once. */
    memset(a, 1, bytes);
    memset(b, 0, bytes);
    copy_block(a, b, bytes, threadpool, t);
    double best = INFINITY;
    const double start = now_seconds();
    int blocks = 0;
    do {
        const double t0 = now_seconds();
        copy_block(blocks % 2 ? b : a, blocks % 2 ? a : b, bytes, threadpool, t);
        const double elapsed = now_seconds() - t0;
        if (elapsed > 0 && elapsed < best) best = elapsed;
        blocks++;
    } while (blocks < 3 || (now_seconds() - start < seconds && blocks < 10000));
    free(a);
    free(b);
    /* A copy reads and writes every byte: 2 × bytes moved (STREAM's convention). */
    return isfinite(best) ? 2.0 * (double)bytes / best * 1e-9 : 0;
}
