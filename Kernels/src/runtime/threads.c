/* The thread count for OpenMP parallel loops (a no-op setting without OpenMP). */
#include "fovea_kernels.h"
#include "runtime.h"

#include <stdatomic.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* 0: the OpenMP default. */
static atomic_int requested_threads = 0;

/* Below this many elementary operations a parallel region costs more than it saves. */
static const double min_parallel_work = 65536.0;

void fovea_kernels_set_num_threads(int count) {
    atomic_store(&requested_threads, count > 0 ? count : 0);
}

int fovea_kernels_num_threads(void) {
#ifdef _OPENMP
    const int requested = atomic_load(&requested_threads);
    return requested > 0 ? requested : omp_get_max_threads();
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

int fovea_thread_count_for_work(double work) {
    return work < min_parallel_work ? 1 : fovea_kernels_num_threads();
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
