/* lint/engine/main_stack.h -- lint on the main thread's own stack.
 *
 * A phase with one worker (-j 1, or one file to lint) runs it on the
 * calling thread rather than on a worker thread beside a waiting one:
 * with that second thread alive a cold -j 1 run of the project tree took
 * about 5% more CPU time (bench/README.md, "-j 1 on the main thread":
 * part of it system time, the other CPU in each TLB shootdown as libclang
 * unmaps a TU's memory; part of it user time, not explained).  The
 * workers' stacks are large (engine.c WORKER_STACK), and the main
 * thread's stack grows only to RLIMIT_STACK, which Linux reads each time
 * it grows: the soft limit is raised for the phase and put back after
 * (the engine starts no process meanwhile).  Where the hard limit, or
 * the room below the stack, does not allow it, a worker thread lints. */
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
 * soft limit raised if the hard one allows, and the room is there)?
 * false: leaves the limit as it was. */
bool el_main_stack_take(el_main_stack *s, size_t need);

/* Puts back the limit el_main_stack_take raised (if it did). */
void el_main_stack_give_back(el_main_stack *s);

#endif
