/*
 * The one way kernels run on several threads: fovea_parallel_run calls a task
 * once per thread. With OpenMP (the CMake build) it is an OpenMP parallel
 * region; without it (the Swift package, which must build with no unsafe
 * flags) a small pool of persistent pthreads runs it (parallel.c).
 */
#ifndef FOVEA_KERNELS_PARALLEL_H
#define FOVEA_KERNELS_PARALLEL_H

#include <stddef.h>

/* One thread's share: `thread` in [0, threads); the caller runs thread 0. */
typedef void (*fovea_parallel_task)(void *context, size_t thread, size_t threads);

/*
 * Runs task(context, i, n) for every i in [0, n) on n threads and returns when
 * all are done. n is `threads` (from fovea_threads_for), or fewer if the pool
 * cannot start a thread; a call from inside a task runs on the calling thread
 * alone (n = 1), as OpenMP runs nested regions. Tasks must split their work by
 * (i, n) and not assume n == threads.
 */
void fovea_parallel_run(int threads, fovea_parallel_task task, void *context);

/* The items [begin, end) of a parallel loop. */
typedef void (*fovea_parallel_range)(void *context, size_t begin, size_t end);

/* Splits [0, items) into one contiguous range per thread (OpenMP's schedule(static)). */
void fovea_parallel_for(int threads, size_t items, fovea_parallel_range range, void *context);

#endif
