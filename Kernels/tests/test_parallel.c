/*
 * The kernels' threading: fovea_parallel_run / fovea_parallel_for through a
 * caller's pool, the standalone library's default pool (OpenMP or pthreads,
 * as the library was built) and the pthread pool itself (tested in every
 * build): every share of [0, n) runs exactly once and is told n, for many
 * counts, with empty and tiny loops, from nested tasks, after the workers fell
 * asleep, and from several threads at once; kernels call through the pool
 * they are given, with no more shares than its thread count.
 */
#include "support/test_support.h"
#include "../src/runtime/parallel.h"
#include "../src/runtime/thread-pool.h"

#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

/* Runs every share of [0, n): a pool's parallelize, or fovea_parallel_run through one. */
typedef void (*run_fn)(size_t n, fovea_parallel_task task, void *context);

static void default_pool_run(size_t n, fovea_parallel_task task, void *context) {
    const fovea_threadpool pool = fovea_threadpool_default(n);
    pool.parallelize(pool.context, n, task, context);
}

static void parallel_run_through_pool(size_t n, fovea_parallel_task task, void *context) {
    const fovea_threadpool pool = fovea_threadpool_default(n);
    fovea_parallel_run(&pool, (int)n, task, context);
}

enum { max_shares = 128 };

/* What one region saw: how many times each share ran, and the share count each was told. */
typedef struct region_record {
    atomic_int runs[max_shares];
    atomic_size_t told[max_shares];
    atomic_int bad_index;
    unsigned delay_us; /* each share sleeps this long (makes the caller wait for workers) */
    run_fn nested;     /* if set, each share runs a nested region of 4 with it */
    atomic_int nested_runs, nested_bad;
} region_record;

static void sleep_us(unsigned us) {
    struct timespec ts = {(time_t)(us / 1000000), (long)(us % 1000000) * 1000};
    nanosleep(&ts, NULL);
}

static void nested_task(void *context, size_t i, size_t n) {
    region_record *r = (region_record *)context;
    atomic_fetch_add(&r->nested_runs, 1);
    if (i >= n || n != 4) atomic_store(&r->nested_bad, 1);
}

static void record_task(void *context, size_t i, size_t n) {
    region_record *r = (region_record *)context;
    if (i >= n || n > max_shares) {
        atomic_store(&r->bad_index, 1);
        return;
    }
    atomic_fetch_add(&r->runs[i], 1);
    atomic_store(&r->told[i], n);
    if (r->delay_us) sleep_us(r->delay_us);
    if (r->nested) r->nested(4, nested_task, r);
}

/* Whether a region of n ran every share in [0, n) once, each told n. */
static int region_ok(region_record *r, size_t n) {
    int ok = !atomic_load(&r->bad_index);
    for (size_t i = 0; i < max_shares; i++) {
        ok &= atomic_load(&r->runs[i]) == (i < n ? 1 : 0);
        if (i < n) ok &= atomic_load(&r->told[i]) == n;
    }
    return ok;
}

static void check_region(const char *name, run_fn run, size_t n, unsigned delay_us) {
    region_record r;
    memset(&r, 0, sizeof r);
    r.delay_us = delay_us;
    run(n, record_task, &r);
    CHECK(region_ok(&r, n), "%s(%zu): not every share ran exactly once with n = %zu", name, n, n);
}

static void share_counts(const char *name, run_fn run) {
    const size_t counts[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 33, 64, 2, 1, 3};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) check_region(name, run, counts[i], 0);
    /* Many back-to-back regions: the fork/join path while workers spin. */
    for (int i = 0; i < 2000; i++) check_region(name, run, 1 + (size_t)i % 4, 0);
    /* Workers asleep (idle past the spin time), and a caller that must wait for slow workers. */
    for (int i = 0; i < 5; i++) {
        sleep_us(3000);
        check_region(name, run, 3, 0);
        check_region(name, run, 2, 2500);
    }
}

/* A region from inside a share still runs all of its shares (on the calling thread, for the pools here). */
static void nesting(const char *name, run_fn run) {
    region_record r;
    memset(&r, 0, sizeof r);
    r.nested = run;
    run(3, record_task, &r);
    CHECK(region_ok(&r, 3), "%s: the outer region of a nested run went wrong", name);
    CHECK(atomic_load(&r.nested_runs) == 3 * 4 && !atomic_load(&r.nested_bad),
          "%s: nested regions ran %d shares, expected 12 told n = 4", name, atomic_load(&r.nested_runs));
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
        const size_t n = 1 + (size_t)(a->seed + i) % 5;
        region_record r;
        memset(&r, 0, sizeof r);
        r.delay_us = i % 100 == 0 ? 1500 : 0;
        a->run(n, record_task, &r);
        if (!region_ok(&r, n)) atomic_fetch_add(a->failures, 1);
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

/* A NULL pool, a pool without a parallelize function and counts below 2 run one share on the caller, told n = 1. */
static void calling_thread_only(void) {
    const fovea_threadpool no_function = {NULL, NULL, 4}, pool = fovea_threadpool_default(4);
    const struct {
        const fovea_threadpool *pool;
        int threads;
    } cases[] = {{NULL, 4}, {&no_function, 4}, {&pool, 1}, {&pool, 0}, {&pool, -1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        region_record r;
        memset(&r, 0, sizeof r);
        fovea_parallel_run(cases[c].pool, cases[c].threads, record_task, &r);
        CHECK(region_ok(&r, 1), "fovea_parallel_run case %zu did not run one share on the calling thread", c);
    }
    region_record r;
    memset(&r, 0, sizeof r);
    fovea_thread_pool_run(0, record_task, &r);
    CHECK(region_ok(&r, 0), "fovea_thread_pool_run(0) ran a share");
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
        const fovea_threadpool pool = fovea_threadpool_default((size_t)threads);
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            loop_record *r = (loop_record *)calloc(1, sizeof(loop_record));
            fovea_parallel_for(&pool, threads, sizes[s], record_range, r);
            int ok = 1;
            for (size_t i = 0; i < 1000; i++) ok &= atomic_load(&r->hits[i]) == (i < sizes[s] ? 1 : 0);
            CHECK(ok, "fovea_parallel_for(%d threads, %zu items) missed or repeated items", threads, sizes[s]);
            CHECK(atomic_load(&r->empty_ranges) == 0, "fovea_parallel_for(%d, %zu) called an empty range", threads, sizes[s]);
            CHECK(sizes[s] > 0 || atomic_load(&r->calls) == 0, "fovea_parallel_for(%d, 0 items) called its body", threads);
            free(r);
        }
    }
}

/* A pool that runs shares on the calling thread and records how kernels call it. */
typedef struct recording_pool {
    atomic_int calls;
    atomic_size_t most_shares;
} recording_pool;

static void recording_parallelize(void *context, size_t n, fovea_parallel_task task, void *task_context) {
    recording_pool *r = (recording_pool *)context;
    atomic_fetch_add(&r->calls, 1);
    if (n > atomic_load(&r->most_shares)) atomic_store(&r->most_shares, n);
    for (size_t i = n; i-- > 0;) task(task_context, i, n); /* last share first: no kernel may rely on order */
}

/* Kernels call through the pool they are given, with at most its thread count, and give what a NULL pool gives. */
static void kernels_use_the_callers_pool(void) {
    enum { count = 1 << 18 };
    float *x = (float *)malloc(count * sizeof(float)), *alone = (float *)malloc(count * sizeof(float)),
          *pooled = (float *)malloc(count * sizeof(float));
    for (size_t i = 0; i < count; i++) x[i] = (float)((i * 7919) % 2000) / 100.0f - 10.0f;
    CHECK_STATUS(fovea_sigmoid_f32(count, x, alone, NULL), FOVEA_STATUS_OK);
    for (size_t threads = 1; threads <= 5; threads++) {
        recording_pool r;
        atomic_init(&r.calls, 0);
        atomic_init(&r.most_shares, 0);
        const fovea_threadpool pool = {recording_parallelize, &r, threads};
        memset(pooled, 0, count * sizeof(float));
        CHECK_STATUS(fovea_sigmoid_f32(count, x, pooled, &pool), FOVEA_STATUS_OK);
        CHECK(memcmp(alone, pooled, count * sizeof(float)) == 0, "sigmoid through a pool of %zu differs from NULL's",
              threads);
        if (threads == 1) {
            CHECK(atomic_load(&r.calls) == 0, "a pool of 1 thread was called %d times", atomic_load(&r.calls));
        } else {
            CHECK(atomic_load(&r.calls) == 1 && atomic_load(&r.most_shares) == threads,
                  "a pool of %zu threads was called %d times with up to %zu shares", threads, atomic_load(&r.calls),
                  atomic_load(&r.most_shares));
        }
    }
    /* A small job stays on the calling thread whatever the pool. */
    recording_pool r;
    atomic_init(&r.calls, 0);
    atomic_init(&r.most_shares, 0);
    const fovea_threadpool pool = {recording_parallelize, &r, 4};
    CHECK_STATUS(fovea_sigmoid_f32(16, x, pooled, &pool), FOVEA_STATUS_OK);
    CHECK(atomic_load(&r.calls) == 0, "a 16-element sigmoid called the pool");
    free(x);
    free(alone);
    free(pooled);
}

int main(void) {
    printf("default pool: %s\n", fovea_kernels_has_openmp() ? "OpenMP" : "pthread pool");
    calling_thread_only();
    share_counts("fovea_thread_pool_run", fovea_thread_pool_run);
    share_counts("fovea_threadpool_default", default_pool_run);
    share_counts("fovea_parallel_run", parallel_run_through_pool);
    nesting("fovea_thread_pool_run", fovea_thread_pool_run);
    nesting("fovea_threadpool_default", default_pool_run);
    concurrent_callers("fovea_thread_pool_run", fovea_thread_pool_run);
    concurrent_callers("fovea_threadpool_default", default_pool_run);
    parallel_loops();
    kernels_use_the_callers_pool();
    return test_finish("test_parallel");
}
