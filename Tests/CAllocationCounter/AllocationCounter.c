// Test-only malloc interposition: forwards to glibc's own entry points and counts per thread.
// Only in the test binary; the library never links this.
#include "CAllocationCounter.h"
#include <stddef.h>
#include <stdlib.h>  // defines __GLIBC__ on glibc

#if defined(__has_feature)
#  if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#    define STREAMKIT_SANITIZED 1
#  endif
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(STREAMKIT_SANITIZED)
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);

static __thread long allocations;

void *malloc(size_t size) { allocations++; return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { allocations++; return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) { allocations++; return __libc_realloc(pointer, size); }

long streamkit_thread_allocation_count(void) { return allocations; }
#else
long streamkit_thread_allocation_count(void) { return -1; }
#endif
