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
 * run on the calling thread.
 *
 * Cost when no test armed it (internal.h's eh__alloc_point, inline): one
 * load of a process-wide count of armed threads and a branch.  No
 * thread-local access, no call: in libeh.so a thread-local read goes
 * through __tls_get_addr, and the initial-exec TLS model that avoids it
 * would put libeh's whole TLS block (1.7 KB) into the static TLS of any
 * program that dlopen()s libeh.so (an FFI binding), where glibc refuses it
 * ("cannot allocate memory in static TLS block").  Only while some thread
 * is armed do allocations look at their thread's countdown. */
#include <stdlib.h>
#include "internal.h"

/* > 0: the countdown; the allocation that takes it to 0 fails. */
static _Thread_local int fail_countdown;

/* Threads whose countdown is > 0 (a thread that exits armed leaves it
 * counted: allocations are then slower, never wrong). */
atomic_int eh__alloc_armed;

int eh__test_fail_alloc(int nth)
{
    int left = fail_countdown;
    int now = nth > 0 ? nth : 0;
    if ((left > 0) != (now > 0))
        atomic_fetch_add_explicit(&eh__alloc_armed, now > 0 ? 1 : -1, memory_order_relaxed);
    fail_countdown = now;
    return left;
}

int eh__alloc_point_armed(void)
{
    if (fail_countdown <= 0 || --fail_countdown > 0)
        return 0;
    atomic_fetch_sub_explicit(&eh__alloc_armed, 1, memory_order_relaxed);
    return 1;
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
    /* aligned_alloc wants a size that is a multiple of align (a power of
     * two): round up, without a division, only when it is not one. */
    size_t rounded = bytes ? bytes : align;
    size_t rest = rounded & (align - 1);
    if (rest) {
        if (rounded > SIZE_MAX - align)
            return NULL;
        rounded += align - rest;
    }
    return aligned_alloc(align, rounded);
}

void eh_mem_free(void *p) { free(p); }
