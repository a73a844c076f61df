/*
 * fovea_parallel_run: an OpenMP parallel region when compiled with OpenMP
 * (the CMake library), else the pthread pool of thread-pool.c (the Swift
 * package, which builds with no unsafe flags).
 */
#include "parallel.h"

#ifdef _OPENMP
#include <omp.h>

void fovea_parallel_run(int threads, fovea_parallel_task task, void *context) {
    if (threads <= 1) {
        task(context, 0, 1);
        return;
    }
#pragma omp parallel num_threads(threads)
    task(context, (size_t)omp_get_thread_num(), (size_t)omp_get_num_threads());
}
#else
#include "thread-pool.h"

void fovea_parallel_run(int threads, fovea_parallel_task task, void *context) {
    fovea_thread_pool_run(threads, task, context);
}
#endif

typedef struct loop {
    size_t items;
    fovea_parallel_range range;
    void *context;
} loop;

static void run_share(void *context, size_t thread, size_t threads) {
    const loop *l = (const loop *)context;
    const size_t begin = l->items * thread / threads, end = l->items * (thread + 1) / threads;
    if (begin < end) l->range(l->context, begin, end);
}

void fovea_parallel_for(int threads, size_t items, fovea_parallel_range range, void *context) {
    if (items == 0) return;
    if ((size_t)threads > items) threads = (int)items;
    loop l = {items, range, context};
    fovea_parallel_run(threads, run_share, &l);
}
