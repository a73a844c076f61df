/*
 * fovea_parallel_run / fovea_parallel_for: calls through the caller's pool
 * (parallel.h). The standalone library's own pools are in default-threadpool.c.
 */
#include "parallel.h"

void fovea_parallel_run(const fovea_threadpool *pool, int threads, fovea_parallel_task task, void *context) {
    if (threads <= 1 || pool == NULL || pool->parallelize == NULL) {
        task(context, 0, 1);
        return;
    }
    pool->parallelize(pool->context, (size_t)threads, task, context);
}

typedef struct loop {
    size_t items;
    fovea_parallel_range range;
    void *context;
} loop;

static void run_share(void *context, size_t share, size_t shares) {
    const loop *l = (const loop *)context;
    const size_t begin = l->items * share / shares, end = l->items * (share + 1) / shares;
    if (begin < end) l->range(l->context, begin, end);
}

void fovea_parallel_for(const fovea_threadpool *pool, int threads, size_t items, fovea_parallel_range range,
                        void *context) {
    if (items == 0) return;
    if ((size_t)threads > items) threads = (int)items;
    loop l = {items, range, context};
    fovea_parallel_run(pool, threads, run_share, &l);
}
