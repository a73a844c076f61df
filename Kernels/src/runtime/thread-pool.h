/*
 * A pool of persistent pthreads with the contract of fovea_parallel_run
 * (parallel.h), which uses it in builds without OpenMP. Compiled in every
 * build, so that its tests run whatever the threading of the library.
 */
#ifndef FOVEA_KERNELS_THREAD_POOL_H
#define FOVEA_KERNELS_THREAD_POOL_H

#include "parallel.h"

void fovea_thread_pool_run(int threads, fovea_parallel_task task, void *context);

#endif
