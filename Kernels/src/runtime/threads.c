/*
 * Thread counts for parallel kernels: each kernel call brings its own pool
 * and count (fovea_threads_for); there is no process-wide setting.
 */
#include "fovea_kernels.h"
#include "runtime.h"

#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Below this many elementary operations a parallel region costs more than it saves. */
static const double min_parallel_work = 65536.0;

int fovea_kernels_num_threads(void) {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
#endif
}

int fovea_kernels_has_openmp(void) {
#ifdef _OPENMP
    return 1;
#else
    return 0;
#endif
}

size_t fovea_pool_threads(const fovea_threadpool *pool) {
    return pool == NULL || pool->threads < 1 ? 1 : pool->threads;
}

int fovea_threads_for(const fovea_threadpool *pool, double work) {
    const size_t requested = fovea_pool_threads(pool);
    if (requested <= 1 || pool->parallelize == NULL || work < min_parallel_work) return 1;
    return requested > 1024 ? 1024 : (int)requested;
}
