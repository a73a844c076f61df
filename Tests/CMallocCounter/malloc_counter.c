#include "malloc_counter.h"

#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

#if defined(__has_feature)
#  if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#    define FOVEA_SANITIZED 1
#  endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(FOVEA_SANITIZED)
#define FOVEA_COUNTING 1
#endif

static atomic_int counting;
static atomic_long allocations;

#ifdef FOVEA_COUNTING
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static inline void count(void) {
    if (atomic_load_explicit(&counting, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
    }
}

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t count_, size_t size) { count(); return __libc_calloc(count_, size); }
void *realloc(void *pointer, size_t size) { count(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return ENOMEM;
    *result = pointer;
    return 0;
}

int fovea_malloc_counter_available(void) { return 1; }
#else
int fovea_malloc_counter_available(void) { return 0; }
#endif

void fovea_malloc_counter_start(void) {
    atomic_store(&allocations, 0);
    atomic_store(&counting, 1);
}

long fovea_malloc_counter_stop(void) {
    atomic_store(&counting, 0);
    return atomic_load(&allocations);
}
