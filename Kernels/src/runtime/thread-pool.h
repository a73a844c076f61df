/*
 * A pool of persistent pthreads with the contract of a fovea_threadpool's
 * parallelize (fovea_threadpool.h): the standalone library's default pool
 * without OpenMP (default-threadpool.c). Compiled in every CMake build, so
 * that its tests run whatever the threading of the library.
 */
#ifndef FOVEA_KERNELS_THREAD_POOL_H
#define FOVEA_KERNELS_THREAD_POOL_H

#include "fovea_threadpool.h"

/* Runs task(context, i, n) for every i in [0, n) on up to n threads (fewer if it cannot start them). */
void fovea_thread_pool_run(size_t n, fovea_parallel_task task, void *context);

#endif
