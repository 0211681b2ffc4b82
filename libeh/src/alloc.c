/* The heap allocator of libeh and its backends (<eh/backend_alloc.h>),
 * and the allocation-failure test hook.  The bottom of libeh/src: it
 * calls nothing of libeh.
 *
 * The hook is one thread-local countdown: eh__test_fail_alloc(n) makes the
 * nth allocation from now on the calling thread fail (then it disarms), and
 * returns what was left of the previous countdown (0: it fired, or none
 * was armed), so a test knows whether its failure was reached.
 * Each eh_mem_* call is one allocation, and so is each eh__alloc_point()
 * (tensor.c: storage kept inline in a header, a header block reused), so
 * tests see the same failure points whatever a tensor's size.  Blocks a
 * pool worker allocates (eh_parallel_for) count on the worker's thread:
 * tests that step through the failure points use inputs small enough to
 * run on the calling thread.  Disarmed, each call costs a thread-local
 * load and a compare: no lock. */
#include <stdlib.h>
#include "internal.h"

/* > 0: the countdown; the allocation that takes it to 0 fails. */
static _Thread_local int fail_countdown;

int eh__test_fail_alloc(int nth)
{
    int left = fail_countdown;
    fail_countdown = nth > 0 ? nth : 0;
    return left;
}

int eh__alloc_point(void)
{
    return __builtin_expect(fail_countdown > 0, 0) && --fail_countdown == 0;
}

void *eh_mem_alloc(size_t bytes) { return eh__alloc_point() ? NULL : malloc(bytes); }

void *eh_mem_calloc(size_t count, size_t size)
{
    return eh__alloc_point() ? NULL : calloc(count, size);
}

void *eh_mem_realloc(void *p, size_t bytes)
{
    return eh__alloc_point() ? NULL : realloc(p, bytes);
}

void *eh_mem_aligned(size_t align, size_t bytes)
{
    if (eh__alloc_point())
        return NULL;
    size_t rounded = bytes ? bytes : align; /* aligned_alloc wants a multiple of align */
    if (rounded % align) {
        if (rounded > SIZE_MAX - align)
            return NULL;
        rounded += align - rounded % align;
    }
    return aligned_alloc(align, rounded);
}

void eh_mem_free(void *p) { free(p); }
