/* lint/engine/main_stack.c -- lint on the main thread's own stack
 * (main_stack.h). */
#include "main_stack.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Linux keeps this much unmapped below a growing stack (stack_guard_gap,
 * 256 pages by default; 4 KiB pages assumed, the larger pages' gap
 * is larger still and then the room is found short: no harm). */
#define GUARD_GAP (256u * 4096u)

static bool covers(rlim_t limit, size_t need)
{
    return limit == RLIM_INFINITY || limit >= (rlim_t)need;
}

/* Is here (the caller's frame) in the main thread's stack ([stack] in
 * /proc/self/maps), and can that grow to need bytes before it meets the
 * mapping below it?  That room was set at exec time from the limit then
 * (mm/util.c mmap_base: at least 128 MiB on x86-64, down to a few MiB on
 * arm64 in some layouts); raising the limit later does not make more. */
static bool main_stack_can_grow(const void *here, size_t need)
{
    FILE *f = fopen("/proc/self/maps", "re");
    if (!f)
        return false;
    char *line = NULL; /* whole lines: a file's name may be long */
    size_t cap = 0;
    uintmax_t below_end = 0;
    bool ok = false;
    while (getline(&line, &cap, f) > 0) {
        uintmax_t lo, hi;
        if (sscanf(line, "%" SCNxMAX "-%" SCNxMAX, &lo, &hi) != 2)
            continue;
        if (strstr(line, "[stack]")) {
            uintptr_t at = (uintptr_t)here;
            ok = at >= lo && at < hi && hi - below_end >= GUARD_GAP &&
                 hi - below_end - GUARD_GAP >= need;
            break;
        }
        below_end = hi;
    }
    free(line);
    fclose(f);
    return ok;
}

bool el_main_stack_take(el_main_stack *s, size_t need)
{
    s->raised = false;
    if (getrlimit(RLIMIT_STACK, &s->saved) != 0 || !covers(s->saved.rlim_max, need) ||
        !main_stack_can_grow(__builtin_frame_address(0), need))
        return false;
    if (covers(s->saved.rlim_cur, need))
        return true;
    struct rlimit more = {(rlim_t)need, s->saved.rlim_max};
    if (setrlimit(RLIMIT_STACK, &more) != 0)
        return false;
    s->raised = true;
    return true;
}

void el_main_stack_give_back(el_main_stack *s)
{
    if (s->raised)
        setrlimit(RLIMIT_STACK, &s->saved);
    s->raised = false;
}
