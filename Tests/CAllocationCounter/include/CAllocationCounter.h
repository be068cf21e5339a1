// Counts the heap allocations (malloc, calloc, realloc) made by the calling thread, so a test can show
// that a hot path allocates nothing per NAL unit. Available with glibc and without sanitizers (which
// interpose malloc themselves); elsewhere the count is -1 and the tests that need it say so.
#pragma once

/// The number of malloc/calloc/realloc calls the calling thread has made, or -1 when not counted.
long streamkit_thread_allocation_count(void);
