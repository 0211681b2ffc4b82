/* lint/engine/main_stack.c -- lint on the main thread's own stack
 * (main_stack.h). */
#define _GNU_SOURCE /* gettid (Linux): this file only */
#include "main_stack.h"

#include <unistd.h>

static bool covers(rlim_t limit, size_t need)
{
    return limit == RLIM_INFINITY || limit >= (rlim_t)need;
}

bool el_main_stack_take(el_main_stack *s, size_t need)
{
    s->raised = false;
    /* a thread's stack is fixed when it starts; the main thread's (its
     * id is the process's) grows to the limit in force at the time */
    if (gettid() != getpid() || getrlimit(RLIMIT_STACK, &s->saved) != 0)
        return false;
    if (covers(s->saved.rlim_cur, need))
        return true;
    if (!covers(s->saved.rlim_max, need))
        return false;
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
