/*
 * fovea_threadpool.h — the caller's thread pool, which every parallel kernel
 * takes as its last argument (as XNNPACK's operators take a pthreadpool_t).
 *
 * The kernels own no threads: a kernel that splits its work calls
 * `parallelize` with the number of shares it chose (at most `threads`, fewer
 * for small jobs) and a task that computes share i of n. Fovea's Swift
 * executor passes its worker pool here, so C kernels and Swift steps run on
 * the same threads; the standalone CMake library offers a default pool
 * (fovea_threadpool_default). A NULL pool runs everything on the calling
 * thread.
 */
#ifndef FOVEA_THREADPOOL_H
#define FOVEA_THREADPOOL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Share `i` of `n` of a kernel's work. Shares split the work by (i, n) alone. */
typedef void (*fovea_parallel_task)(void *context, size_t i, size_t n);

/** A thread pool as the kernels see it; the caller owns it and everything it points to. */
typedef struct fovea_threadpool {
    /**
     * Calls task(task_context, i, n) exactly once for every i in [0, n), on
     * up to n threads (the caller's among them), and returns when all are
     * done. Shares may run in any order and several on one thread: a pool that
     * is busy, or a call from inside a share, may run them all on the calling
     * thread. Must be safe to call from several threads at once.
     */
    void (*parallelize)(void *context, size_t n, fovea_parallel_task task, void *task_context);
    /** Passed to `parallelize` as its first argument. */
    void *context;
    /**
     * The most shares (threads) one kernel call may use; 0 or 1 keeps the call
     * on the calling thread. Kernels that take a workspace need one sized for
     * this count (their *_workspace_size functions take it).
     */
    size_t threads;
} fovea_threadpool;

/**
 * A pool of the standalone CMake library: OpenMP when the library is built
 * with it (fovea_kernels_has_openmp), else persistent pthreads of its own,
 * shared by every default pool of the process. Kernel calls through it use up
 * to `threads` threads each. Not in the Swift package, whose executor passes
 * its own worker pool (the package does not compile this function).
 */
fovea_threadpool fovea_threadpool_default(size_t threads);

#ifdef __cplusplus
}
#endif

#endif
