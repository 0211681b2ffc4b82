/* lint/engine/main_stack.h -- lint on the main thread's own stack.
 *
 * A run with one worker lints on the thread that called it rather than
 * on a worker thread beside a waiting one: a second live thread costs a
 * cold -j 1 run about 5% more CPU time (the project tree: 1.95 s against
 * 1.83 s, medians of 15 interleaved rounds; more system time, the other
 * CPU in the process's TLB shootdowns as libclang unmaps each TU's
 * memory).  The worker's stack is large (engine.c WORKER_STACK): only
 * the main thread's stack grows, and Linux checks RLIMIT_STACK each time
 * it does, so the soft limit is raised for the phase and put back after
 * (processes started meanwhile would inherit it). */
#ifndef EL_MAIN_STACK_H
#define EL_MAIN_STACK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>

typedef struct el_main_stack {
    struct rlimit saved; /* the limit before el_main_stack_take raised it */
    bool raised;
} el_main_stack;

/* Is this the main thread, and may its stack grow to need bytes (the
 * soft limit raised if the hard one allows)?  false: leaves the limit
 * as it was. */
bool el_main_stack_take(el_main_stack *s, size_t need);

/* Puts back the limit el_main_stack_take raised (if it did). */
void el_main_stack_give_back(el_main_stack *s);

#endif
