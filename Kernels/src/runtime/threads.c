/*
 * Thread counts for parallel kernels (fovea_parallel_run: OpenMP, or the
 * pthread pool of parallel.c): each kernel call brings its own
 * (fovea_threads_for); there is no process-wide setting.
 */
#include "fovea_kernels.h"
#include "runtime.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/*
 * How long OpenMP's idle workers spin after a parallel region before they
 * sleep. LLVM's libomp spins 200 ms by default: long enough to keep a core
 * busy while the caller decodes the next photo, or while another backend's
 * threads (Fovea's Swift worker pool) run a step of a mixed plan. A run's
 * kernels follow each other within a fraction of a millisecond, so a short
 * spin keeps the workers awake through a run and frees the core right after.
 * KMP_BLOCKTIME or OMP_WAIT_POLICY in the environment take precedence.
 * (libgomp, which the CMake build may use, spins about 0.3 ms by default.)
 * The pthread pool (builds without OpenMP) spins as long: parallel.c.
 */
#define FOVEA_OPENMP_BLOCKTIME_MS 1

#if defined(_OPENMP) && defined(KMP_VERSION_MAJOR)
/* libomp keeps the spin time per calling thread (it sets its team's), so each caller sets it once. */
static _Thread_local int wait_policy_applied = 0;
/* -1 until read; reading twice gives the same answer, so a race only repeats the getenv. */
static atomic_int environment_sets_wait = -1;

static void apply_wait_policy(void) {
    if (wait_policy_applied) return;
    wait_policy_applied = 1;
    int from_environment = atomic_load(&environment_sets_wait);
    if (from_environment < 0) {
        from_environment = getenv("KMP_BLOCKTIME") != NULL || getenv("OMP_WAIT_POLICY") != NULL;
        atomic_store(&environment_sets_wait, from_environment);
    }
    if (!from_environment) kmp_set_blocktime(FOVEA_OPENMP_BLOCKTIME_MS);
}
#else
static void apply_wait_policy(void) {}
#endif

/* Below this many elementary operations a parallel region costs more than it saves. */
static const double min_parallel_work = 65536.0;

int fovea_kernels_num_threads(void) {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? (int)online : 1;
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
    if (requested <= 1 || work < min_parallel_work) return 1;
    apply_wait_policy();
    return requested > 1024 ? 1024 : (int)requested;
}
