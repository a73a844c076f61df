/*
 * Thread counts for OpenMP parallel loops: each kernel call brings its own
 * (fovea_threads_for); there is no process-wide setting.
 */
#include "fovea_kernels.h"
#include "runtime.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* Below this many elementary operations a parallel region costs more than it saves. */
static const double min_parallel_work = 65536.0;

int fovea_kernels_num_threads(void) {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

int fovea_kernels_has_openmp(void) {
#ifdef _OPENMP
    return 1;
#else
    return 0;
#endif
}

int fovea_threads_for(size_t requested, double work) {
#ifdef _OPENMP
    if (requested <= 1 || work < min_parallel_work) return 1;
    return requested > 1024 ? 1024 : (int)requested;
#else
    (void)requested;
    (void)work;
    return 1;
#endif
}
