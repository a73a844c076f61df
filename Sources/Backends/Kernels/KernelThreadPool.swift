import CFoveaKernels
import FoveaCore

extension RunContext {
    /// The pool the C kernels of this run split their work over
    /// (`fovea_threadpool`, Kernels/include/fovea_threadpool.h): Fovea's
    /// worker threads, the ones Swift steps use, up to ``threads`` per call. Its
    /// `parallelize` is a C-callable trampoline into the worker pool, so the C
    /// kernels own no threads and no step hands cores to another pool.
    public var kernelThreadPool: fovea_threadpool {
        fovea_threadpool(
            parallelize: { _, shares, task, taskContext in
                guard let task else { return }
                RunContext.runShares(shares) { share in task(taskContext, share, shares) }
            },
            context: nil,
            threads: threads)
    }
}
