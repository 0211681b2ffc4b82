/* A tree that carries its own copy of a library's routines (liblinear's
 * blas/ddot.c defines ddot_): EH102 takes every call of such a name as
 * the project's own code, so a run over the whole tree lists none of
 * them, while a run over a file that calls them lists every call.  The
 * note says which definitions silenced them, and what to do if they are
 * a bundled copy of the library. */
#ifndef EM_OWN_ROUTINES_H
#define EM_OWN_ROUTINES_H

#include <stdio.h>

#include "scan.h"

/* Print, when some definition outside backends/ named as a library's
 * routine (a name EH102 would take for the library's: ddot_, cblas_sdot,
 * fftw_execute; not a shim handing the call on to the library) is
 * defined, one note naming them (the first few, by file) and telling how
 * to have their calls listed.  Prints nothing otherwise.  (Callers are
 * not looked for: a C++ method calling ddot_ is no definition the scan
 * records.) */
void em_own_routines_note(const em_tree *t, FILE *out);

#endif
