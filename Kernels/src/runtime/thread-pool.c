/*
 * The pool of persistent pthreads behind the standalone library's default
 * pool in builds without OpenMP (default-threadpool.c).
 *
 * SqueezeNet's small layers take ~40 µs, so starting and joining a region
 * must cost about a microsecond: workers spin on their own flag for
 * FOVEA_POOL_SPIN_NS after their last task (a network's kernels follow each
 * other within that), then sleep on a condition variable so that the core is
 * free for the photo decoder or other work between runs; this mirrors the
 * 1 ms OpenMP blocktime of default-threadpool.c. Each concurrent caller takes a team of
 * its own from a free list (as each OpenMP root thread has its own team), so
 * two concurrent runs each get their thread count. Teams and their workers
 * live as long as the process.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "thread-pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#define FOVEA_POOL_SPIN_NS 1000000LL /* 1 ms */

/* One worker's start flag, on a cache line of its own. */
typedef struct worker_slot {
    _Alignas(64) atomic_uint go; /* the caller bumps it to hand this worker the current task */
} worker_slot;

typedef struct team {
    struct team *next_free;
    /* The current task; written by the caller before it bumps the workers' flags. */
    fovea_parallel_task task;
    void *context;
    size_t shares;  /* the task's n */
    size_t threads; /* threads running shares: thread j runs shares j, j + threads, ... */
    _Alignas(64) atomic_size_t remaining; /* workers still running the task */
    atomic_int sleepers;                   /* workers waiting on wake */
    atomic_int caller_sleeping;            /* the caller waits on done */
    pthread_mutex_t lock;
    pthread_cond_t wake, done;
    size_t workers; /* started so far: slots 1...workers */
    worker_slot *slots; /* slots[i] for worker i (slot 0 unused: the caller) */
} team;

typedef struct worker_start {
    team *team;
    size_t index;
} worker_start;

static pthread_mutex_t free_teams_lock = PTHREAD_MUTEX_INITIALIZER;
static team *free_teams = NULL;
/* Set inside a task (workers always, callers while they run one): nested calls run inline. */
static _Thread_local int inside_task = 0;

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static long long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * One step of a spin-wait; returns 0 once FOVEA_POOL_SPIN_NS have passed since
 * the first call with *deadline == 0. Every 64 spins it yields the core: on a
 * busy machine the thread we wait for may be waiting for this very core.
 */
static int keep_spinning(unsigned spins, long long *deadline) {
    cpu_relax();
    if (spins % 64 != 0) return 1;
    const long long now = now_ns();
    if (*deadline == 0) *deadline = now + FOVEA_POOL_SPIN_NS;
    else if (now > *deadline) return 0;
    sched_yield();
    return 1;
}

/* Spins until `*value != seen` for up to FOVEA_POOL_SPIN_NS; returns whether it changed. */
static int spin_until_changed(atomic_uint *value, unsigned seen) {
    long long deadline = 0;
    for (unsigned spins = 1;; spins++) {
        if (atomic_load_explicit(value, memory_order_acquire) != seen) return 1;
        if (!keep_spinning(spins, &deadline)) return 0;
    }
}

/* Thread `index`'s shares of the team's current task. */
static void run_shares(const team *t, size_t index) {
    for (size_t i = index; i < t->shares; i += t->threads) t->task(t->context, i, t->shares);
}

/* Every share on the calling thread. */
static void run_inline(size_t n, fovea_parallel_task task, void *context) {
    for (size_t i = 0; i < n; i++) task(context, i, n);
}

static void *worker_main(void *argument) {
    worker_start start = *(worker_start *)argument;
    free(argument);
    team *t = start.team;
    atomic_uint *go = &t->slots[start.index].go;
    /* 0, not a load: the caller that started this worker may already have handed it a task. */
    unsigned seen = 0;
    inside_task = 1;
    for (;;) {
        if (!spin_until_changed(go, seen)) {
            pthread_mutex_lock(&t->lock);
            atomic_fetch_add(&t->sleepers, 1);
            while (atomic_load(go) == seen) pthread_cond_wait(&t->wake, &t->lock);
            atomic_fetch_sub(&t->sleepers, 1);
            pthread_mutex_unlock(&t->lock);
        }
        seen = atomic_load_explicit(go, memory_order_acquire);
        run_shares(t, start.index);
        if (atomic_fetch_sub(&t->remaining, 1) == 1 && atomic_load(&t->caller_sleeping)) {
            pthread_mutex_lock(&t->lock);
            pthread_cond_signal(&t->done);
            pthread_mutex_unlock(&t->lock);
        }
    }
    return NULL;
}

static team *take_team(void) {
    pthread_mutex_lock(&free_teams_lock);
    team *t = free_teams;
    if (t != NULL) free_teams = t->next_free;
    pthread_mutex_unlock(&free_teams_lock);
    if (t != NULL) return t;
    t = (team *)calloc(1, sizeof(team));
    if (t == NULL) return NULL;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    pthread_cond_init(&t->done, NULL);
    return t;
}

static void return_team(team *t) {
    pthread_mutex_lock(&free_teams_lock);
    t->next_free = free_teams;
    free_teams = t;
    pthread_mutex_unlock(&free_teams_lock);
}

/* Starts workers until the team has `wanted` of them (or thread creation fails); returns how many it has. */
static size_t grow_team(team *t, size_t wanted) {
    if (wanted <= t->workers) return t->workers;
    /* Slots never move once a worker watches them: allocate the largest array once, at first growth. */
    if (t->slots == NULL) {
        t->slots = (worker_slot *)aligned_alloc(64, 1024 * sizeof(worker_slot));
        if (t->slots == NULL) return 0;
        for (size_t i = 0; i < 1024; i++) atomic_init(&t->slots[i].go, 0);
    }
    if (wanted > 1023) wanted = 1023;
    while (t->workers < wanted) {
        worker_start *start = (worker_start *)malloc(sizeof(worker_start));
        if (start == NULL) break;
        start->team = t;
        start->index = t->workers + 1;
        pthread_t thread;
        if (pthread_create(&thread, NULL, worker_main, start) != 0) {
            free(start);
            break;
        }
        pthread_detach(thread);
        t->workers++;
    }
    return t->workers;
}

void fovea_thread_pool_run(size_t n, fovea_parallel_task task, void *context) {
    if (n <= 1 || inside_task) {
        run_inline(n, task, context);
        return;
    }
    team *t = take_team();
    const size_t workers = t != NULL ? grow_team(t, n - 1) : 0;
    if (workers == 0) {
        if (t != NULL) return_team(t);
        run_inline(n, task, context);
        return;
    }
    const size_t threads = n - 1 < workers ? n : workers + 1;
    t->task = task;
    t->context = context;
    t->shares = n;
    t->threads = threads;
    atomic_store(&t->remaining, threads - 1);
    /* seq_cst stores then a seq_cst load of sleepers: a worker about to sleep either sees its flag or is woken. */
    for (size_t i = 1; i < threads; i++) atomic_fetch_add(&t->slots[i].go, 1);
    if (atomic_load(&t->sleepers) > 0) {
        pthread_mutex_lock(&t->lock);
        pthread_cond_broadcast(&t->wake);
        pthread_mutex_unlock(&t->lock);
    }

    inside_task = 1;
    run_shares(t, 0);
    inside_task = 0;

    long long deadline = 0;
    for (unsigned spins = 1; atomic_load_explicit(&t->remaining, memory_order_acquire) != 0; spins++) {
        if (!keep_spinning(spins, &deadline)) {
            pthread_mutex_lock(&t->lock);
            atomic_store(&t->caller_sleeping, 1);
            while (atomic_load(&t->remaining) != 0) pthread_cond_wait(&t->done, &t->lock);
            atomic_store(&t->caller_sleeping, 0);
            pthread_mutex_unlock(&t->lock);
            break;
        }
    }
    return_team(t);
}
