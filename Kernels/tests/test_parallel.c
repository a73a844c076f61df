/*
 * fovea_parallel_run / fovea_parallel_for (OpenMP or the pthread pool, as the
 * library was built) and the pthread pool itself (tested in every build):
 * every share runs exactly once, for many thread counts, with empty and tiny
 * loops, from nested tasks, after the workers fell asleep, and from several
 * threads at once.
 */
#include "support/test_support.h"
#include "../src/runtime/parallel.h"
#include "../src/runtime/thread-pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

typedef void (*run_fn)(int threads, fovea_parallel_task task, void *context);

enum { max_shares = 128 };

/* What one region saw: how many times each share ran, and the thread count each share was told. */
typedef struct region_record {
    atomic_int runs[max_shares];
    atomic_size_t told[max_shares];
    atomic_int bad_index;
    unsigned delay_us; /* each share sleeps this long (makes the caller wait for workers) */
    run_fn nested;     /* if set, each share runs a nested region with it and records its count */
    atomic_size_t nested_threads;
    atomic_int nested_runs;
} region_record;

static void sleep_us(unsigned us) {
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static void nested_task(void *context, size_t thread, size_t threads) {
    region_record *r = (region_record *)context;
    atomic_fetch_add(&r->nested_runs, 1);
    atomic_store(&r->nested_threads, threads);
    (void)thread;
}

static void record_task(void *context, size_t thread, size_t threads) {
    region_record *r = (region_record *)context;
    if (thread >= threads || threads > max_shares) {
        atomic_store(&r->bad_index, 1);
        return;
    }
    atomic_fetch_add(&r->runs[thread], 1);
    atomic_store(&r->told[thread], threads);
    if (r->delay_us) sleep_us(r->delay_us);
    if (r->nested) r->nested(4, nested_task, r);
}

/* Runs one region of `threads` and checks it; returns the share count it ran with. */
static size_t check_region(const char *name, run_fn run, int threads, unsigned delay_us, int exact) {
    region_record r;
    memset(&r, 0, sizeof r);
    r.delay_us = delay_us;
    run(threads, record_task, &r);
    CHECK(!atomic_load(&r.bad_index), "%s(%d): a share index was out of range", name, threads);
    size_t n = 0;
    while (n < max_shares && atomic_load(&r.runs[n]) > 0) n++;
    const size_t want = threads < 1 ? 1 : (size_t)threads;
    CHECK(n >= 1 && n <= want, "%s(%d): ran %zu shares", name, threads, n);
    if (exact) CHECK(n == want, "%s(%d): ran %zu shares, expected %zu", name, threads, n, want);
    for (size_t i = 0; i < max_shares; i++) {
        const int runs = atomic_load(&r.runs[i]);
        CHECK(runs == (i < n ? 1 : 0), "%s(%d): share %zu ran %d times", name, threads, i, runs);
        if (i < n) CHECK(atomic_load(&r.told[i]) == n, "%s(%d): share %zu told %zu threads, %zu ran", name, threads, i,
                         atomic_load(&r.told[i]), n);
    }
    return n;
}

static void thread_counts(const char *name, run_fn run, int exact) {
    const int counts[] = {-1, 0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 64, 2, 1, 3};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) check_region(name, run, counts[i], 0, exact);
    /* Many back-to-back regions: the fork/join path while workers spin. */
    for (int i = 0; i < 2000; i++) check_region(name, run, 1 + i % 4, 0, exact);
    /* Workers asleep (idle past the spin time), and a caller that must wait for slow workers. */
    for (int i = 0; i < 5; i++) {
        sleep_us(3000);
        check_region(name, run, 3, 0, exact);
        check_region(name, run, 2, 2500, exact);
    }
}

static void nesting(const char *name, run_fn run, int pool) {
    region_record r;
    memset(&r, 0, sizeof r);
    r.nested = run;
    run(3, record_task, &r);
    size_t n = 0;
    while (n < max_shares && atomic_load(&r.runs[n]) > 0) n++;
    /* Each share's nested region ran its task on every one of its threads (1 for the pool, as OpenMP's default). */
    CHECK(n >= 1 && atomic_load(&r.nested_runs) >= (int)n, "%s: nested regions ran %d tasks for %zu shares", name,
          atomic_load(&r.nested_runs), n);
    if (pool) CHECK(atomic_load(&r.nested_threads) == 1, "%s: a nested region got %zu threads, expected 1", name,
                    atomic_load(&r.nested_threads));
}

/* Several threads each running many regions at once: each gets whole, correct regions. */
typedef struct caller_args {
    run_fn run;
    int seed;
    atomic_long *failures;
} caller_args;

static void *caller_main(void *argument) {
    caller_args *a = (caller_args *)argument;
    for (int i = 0; i < 400; i++) {
        const int threads = 1 + (a->seed + i) % 5;
        region_record r;
        memset(&r, 0, sizeof r);
        r.delay_us = i % 100 == 0 ? 1500 : 0;
        a->run(threads, record_task, &r);
        size_t n = 0;
        while (n < max_shares && atomic_load(&r.runs[n]) > 0) n++;
        int ok = !atomic_load(&r.bad_index) && n >= 1 && n <= (size_t)threads;
        for (size_t s = 0; s < max_shares; s++) ok &= atomic_load(&r.runs[s]) == (s < n ? 1 : 0);
        if (!ok) atomic_fetch_add(a->failures, 1);
    }
    return NULL;
}

static void concurrent_callers(const char *name, run_fn run) {
    enum { callers = 4 };
    pthread_t threads[callers];
    caller_args args[callers];
    atomic_long failures = 0;
    for (int i = 0; i < callers; i++) {
        args[i] = (caller_args){run, i, &failures};
        CHECK(pthread_create(&threads[i], NULL, caller_main, &args[i]) == 0, "could not start a caller thread");
    }
    for (int i = 0; i < callers; i++) pthread_join(threads[i], NULL);
    CHECK(atomic_load(&failures) == 0, "%s: %ld of %d concurrent regions went wrong", name, atomic_load(&failures),
          callers * 400);
}

/* fovea_parallel_for: every item exactly once, in contiguous ranges; none for an empty loop. */
typedef struct loop_record {
    atomic_int hits[1000];
    atomic_int calls, empty_ranges;
} loop_record;

static void record_range(void *context, size_t begin, size_t end) {
    loop_record *r = (loop_record *)context;
    atomic_fetch_add(&r->calls, 1);
    if (begin >= end) atomic_fetch_add(&r->empty_ranges, 1);
    for (size_t i = begin; i < end; i++) atomic_fetch_add(&r->hits[i], 1);
}

static void parallel_loops(void) {
    const size_t sizes[] = {0, 1, 2, 3, 7, 64, 999, 1000};
    for (int threads = 0; threads <= 9; threads++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            loop_record *r = (loop_record *)calloc(1, sizeof(loop_record));
            fovea_parallel_for(threads, sizes[s], record_range, r);
            int ok = 1;
            for (size_t i = 0; i < 1000; i++) ok &= atomic_load(&r->hits[i]) == (i < sizes[s] ? 1 : 0);
            CHECK(ok, "fovea_parallel_for(%d threads, %zu items) missed or repeated items", threads, sizes[s]);
            CHECK(atomic_load(&r->empty_ranges) == 0, "fovea_parallel_for(%d, %zu) called an empty range", threads, sizes[s]);
            CHECK(sizes[s] > 0 || atomic_load(&r->calls) == 0, "fovea_parallel_for(%d, 0 items) called its body", threads);
            free(r);
        }
    }
}

int main(void) {
    printf("library threading: %s\n", fovea_kernels_has_openmp() ? "OpenMP" : "pthread pool");
    thread_counts("fovea_thread_pool_run", fovea_thread_pool_run, 1);
    thread_counts("fovea_parallel_run", fovea_parallel_run, 0);
    nesting("fovea_thread_pool_run", fovea_thread_pool_run, 1);
    nesting("fovea_parallel_run", fovea_parallel_run, !fovea_kernels_has_openmp());
    concurrent_callers("fovea_thread_pool_run", fovea_thread_pool_run);
    concurrent_callers("fovea_parallel_run", fovea_parallel_run);
    parallel_loops();
    return test_finish("test_parallel");
}
