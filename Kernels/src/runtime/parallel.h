/*
 * The one way kernels run on several threads: fovea_parallel_run hands a task
 * to the caller's pool (fovea_threadpool.h), which runs share i of n for every
 * i in [0, n). Kernels own no threads; a NULL pool is the calling thread.
 */
#ifndef FOVEA_KERNELS_PARALLEL_H
#define FOVEA_KERNELS_PARALLEL_H

#include <stddef.h>

#include "fovea_threadpool.h"

/*
 * Runs task(context, i, n) for every i in [0, n) through `pool` and returns
 * when all are done. n is `threads` (from fovea_threads_for), or 1 for a NULL
 * pool or a count below 2, when the task runs once on the calling thread.
 * Shares may run on fewer threads than n (a busy pool, a call from inside a
 * task): tasks split their work by (i, n) and never wait for each other.
 */
void fovea_parallel_run(const fovea_threadpool *pool, int threads, fovea_parallel_task task, void *context);

/* The items [begin, end) of a parallel loop. */
typedef void (*fovea_parallel_range)(void *context, size_t begin, size_t end);

/* Splits [0, items) into one contiguous range per share (OpenMP's schedule(static)). */
void fovea_parallel_for(const fovea_threadpool *pool, int threads, size_t items, fovea_parallel_range range,
                        void *context);

#endif
