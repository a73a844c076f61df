#ifndef FOVEA_MALLOC_COUNTER_H
#define FOVEA_MALLOC_COUNTER_H

/* Counts heap allocations (malloc, calloc, realloc, posix_memalign,
 * aligned_alloc, memalign) made by any thread of the test process between
 * start and stop, for the steady-state allocation tests. It works by
 * defining those functions in the test executable, which the dynamic linker
 * prefers over glibc's, and forwarding to glibc's own (__libc_malloc ...).
 * Under a sanitizer, which has its own malloc, it is compiled out and
 * fovea_malloc_counter_available() returns 0. */

int fovea_malloc_counter_available(void);
void fovea_malloc_counter_start(void);
/* Allocations since start. */
long fovea_malloc_counter_stop(void);

#endif
