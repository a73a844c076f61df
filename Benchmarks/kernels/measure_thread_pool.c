/*
 * Measures what a parallel region costs on the pthread pool behind the
 * standalone library's default pool without OpenMP (fovea_thread_pool_run,
 * thread-pool.c), so that a kernel's split can be weighed against it:
 *
 *   back-to-back  an empty region right after the previous one, the workers
 *                 still spinning (a network's kernels follow each other so)
 *   after sleep   an empty region after a pause longer than the workers'
 *                 spin, so they are woken from their condition variable
 *                 (the first kernel of a run that follows a pause)
 *   ~20 us task   a region whose every thread runs the same ~20 us loop,
 *                 against the loop alone on the calling thread
 *
 * Each time is the median of many regions, in ns. On a busy machine run it
 * at a higher priority (nice -n -20) or the numbers measure the scheduler.
 *
 *   cmake --build build-cmake --target fovea_measure_thread_pool
 *   ./build-cmake/fovea_measure_thread_pool [threads]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */

#include "../src/runtime/thread-pool.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { back_to_back = 20000, after_sleep = 200, with_work = 2000 };

static long long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int compare(const void *a, const void *b) {
    const long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static long long median(long long *values, size_t count) {
    qsort(values, count, sizeof *values, compare);
    return values[count / 2];
}

static atomic_size_t touched;

static void empty_task(void *context, size_t thread, size_t threads) {
    (void)context;
    atomic_fetch_add_explicit(&touched, thread + threads, memory_order_relaxed);
}

/* About 20 us of dependent floating-point adds per call (the count is in context). */
static void busy_task(void *context, size_t thread, size_t threads) {
    (void)thread, (void)threads;
    const long iterations = *(const long *)context;
    volatile double sink = 0.0;
    double sum = 0.0;
    for (long i = 0; i < iterations; i++) sum += (double)i * 1e-9;
    sink = sum;
    (void)sink;
}

int main(int argc, char **argv) {
    const int requested = argc > 1 ? atoi(argv[1]) : 2;
    if (requested < 2) {
        fprintf(stderr, "usage: %s [threads >= 2]\n", argv[0]);
        return 1;
    }
    const size_t threads = (size_t)requested;
    static long long times[back_to_back];
    fovea_thread_pool_run(threads, empty_task, NULL); /* starts the workers */

    for (int i = 0; i < back_to_back; i++) {
        const long long start = now_ns();
        fovea_thread_pool_run(threads, empty_task, NULL);
        times[i] = now_ns() - start;
    }
    printf("threads %zu\nback-to-back empty region: %lld ns\n", threads, median(times, back_to_back));

    const struct timespec pause = {0, 5 * 1000 * 1000}; /* 5 ms: beyond the 1 ms spin */
    for (int i = 0; i < after_sleep; i++) {
        nanosleep(&pause, NULL);
        const long long start = now_ns();
        fovea_thread_pool_run(threads, empty_task, NULL);
        times[i] = now_ns() - start;
    }
    printf("empty region after a 5 ms pause (workers asleep): %lld ns\n", median(times, after_sleep));

    long iterations = 1000;
    for (;;) { /* calibrate the busy loop to about 20 us */
        const long long start = now_ns();
        busy_task(&iterations, 0, 1);
        if (now_ns() - start >= 20000 || iterations > (1L << 30)) break;
        iterations *= 2;
    }
    static long long alone[with_work];
    for (int i = 0; i < with_work; i++) {
        long long start = now_ns();
        busy_task(&iterations, 0, 1);
        alone[i] = now_ns() - start;
        start = now_ns();
        fovea_thread_pool_run(threads, busy_task, &iterations);
        times[i] = now_ns() - start;
    }
    const long long one = median(alone, with_work), all = median(times, with_work);
    printf("~20 us task on every thread: %lld ns, alone %lld ns: %lld ns per region\n", all, one, all - one);
    return 0;
}
