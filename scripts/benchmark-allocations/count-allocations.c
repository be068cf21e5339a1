// A process-wide heap allocation counter for scripts/benchmark-allocations.sh, loaded with LD_PRELOAD
// into the tool measured (ours or the peer): counts every malloc, calloc, realloc and aligned
// allocation, forwarding to glibc's own entry points, and at exit appends the count to the file named
// by STREAMKIT_ALLOCATION_COUNT_FILE. (valgrind 3.19 crashes on Swift's threads, so it cannot measure
// the encoder.) Never linked into StreamKit.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

static unsigned long allocations;

static void count(void) { __atomic_fetch_add(&allocations, 1, __ATOMIC_RELAXED); }

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { count(); return __libc_calloc(n, size); }
void *realloc(void *pointer, size_t size) { count(); return __libc_realloc(pointer, size); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL && size != 0) return ENOMEM;
    *result = pointer;
    return 0;
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("STREAMKIT_ALLOCATION_COUNT_FILE");
    if (path == NULL) return;
    int file = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (file < 0) return;
    char line[64];
    int length = snprintf(line, sizeof line, "%lu\n", __atomic_load_n(&allocations, __ATOMIC_RELAXED));
    if (length > 0) (void)write(file, line, (size_t)length);
    close(file);
}
