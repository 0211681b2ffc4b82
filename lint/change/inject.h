/* lint/change/inject.h -- failure injection for the tests of changes
 * (never set in production).  Environment variables:
 *   EL_TEST_FAIL_WRITE=N        the N-th counted write (temporary files,
 *                               renames) fails with EIO;
 *   EL_TEST_KILL_AT=N           the N-th step of a commit raises signal
 *   EL_TEST_KILL_SIGNAL=S       S (default 9, SIGKILL): step 1 comes just
 *                               before the commit holds signals, then every
 *                               file-system step of the commit is one
 *                               (journal, directories, temporaries, asides,
 *                               renames, removals);
 *   EL_TEST_SIGNAL_DURING_COMMIT=S  signal S as the commit starts (held);
 *   EL_TEST_TOUCH_BEFORE_COMMIT=PATH  a byte appended to PATH after the
 *                               commit's first check (an editor saving). */
#ifndef EL_INJECT_H
#define EL_INJECT_H

#include <stdbool.h>

/* Read the environment (each commit starts counting again). */
void el_inject_reset(void);
/* A counted write: true when it must fail. */
bool el_inject_write_fails(void);
/* A step of the commit: raises the signal at the chosen one. */
void el_inject_step(void);

#endif
