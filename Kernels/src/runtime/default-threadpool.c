/*
 * fovea_threadpool_default (fovea_threadpool.h): the standalone CMake
 * library's pool, for C callers and the C tests. An OpenMP parallel region
 * when the library is built with OpenMP, else the pthread pool of
 * thread-pool.c. The Swift package does not compile this file (nor
 * thread-pool.c): its executor passes its own worker pool.
 */
#include "fovea_threadpool.h"
#include "thread-pool.h"

#ifdef _OPENMP
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>

/*
 * How long OpenMP's idle workers spin after a parallel region before they
 * sleep. LLVM's libomp spins 200 ms by default: long enough to keep a core
 * busy while the caller decodes the next photo. A network's kernels follow
 * each other within a fraction of a millisecond, so a short spin keeps the
 * workers awake through a run and frees the core right after.
 * KMP_BLOCKTIME or OMP_WAIT_POLICY in the environment take precedence.
 * (libgomp, which the CMake build may use, spins about 0.3 ms by default.)
 * The pthread pool spins as long: thread-pool.c.
 */
#define FOVEA_OPENMP_BLOCKTIME_MS 1

#if defined(KMP_VERSION_MAJOR)
/* libomp keeps the spin time per calling thread (it sets its team's), so each caller sets it once. */
static _Thread_local int wait_policy_applied = 0;
/* -1 until read; reading twice gives the same answer, so a race only repeats the getenv. */
static atomic_int environment_sets_wait = -1;

static void apply_wait_policy(void) {
    if (wait_policy_applied) return;
    wait_policy_applied = 1;
    int from_environment = atomic_load(&environment_sets_wait);
    if (from_environment < 0) {
        from_environment = getenv("KMP_BLOCKTIME") != NULL || getenv("OMP_WAIT_POLICY") != NULL;
        atomic_store(&environment_sets_wait, from_environment);
    }
    if (!from_environment) kmp_set_blocktime(FOVEA_OPENMP_BLOCKTIME_MS);
}
#else
static void apply_wait_policy(void) {}
#endif

/* A nested region gets one thread (OpenMP's default), which then runs every share. */
static void openmp_parallelize(void *pool, size_t n, fovea_parallel_task task, void *context) {
    (void)pool;
    apply_wait_policy();
#pragma omp parallel num_threads((int)(n > 1024 ? 1024 : n))
    {
        const size_t step = (size_t)omp_get_num_threads();
        for (size_t i = (size_t)omp_get_thread_num(); i < n; i += step) task(context, i, n);
    }
}

fovea_threadpool fovea_threadpool_default(size_t threads) {
    const fovea_threadpool pool = {openmp_parallelize, NULL, threads};
    return pool;
}
#else
static void pthread_parallelize(void *pool, size_t n, fovea_parallel_task task, void *context) {
    (void)pool;
    fovea_thread_pool_run(n, task, context);
}

fovea_threadpool fovea_threadpool_default(size_t threads) {
    const fovea_threadpool pool = {pthread_parallelize, NULL, threads};
    return pool;
}
#endif
