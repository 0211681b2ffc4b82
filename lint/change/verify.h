/* lint/change/verify.h -- a changeset is verified before anything is
 * written.
 *
 * Every translation unit that sees a changed file is parsed in every
 * build configuration it has (buildcfg.h) twice: as the files are on
 * disk, and as they will be -- libclang reads the new contents from
 * memory (unsaved files), a created file exists at its new path, and a
 * deleted one reads as an #error naming it, so an include left pointing
 * at a file that moves is an error too.  An error the new contents have
 * and the old did not (compared as multisets of messages, reparse.h) is
 * a failure: the caller writes nothing.  The disk is never touched, so a
 * signal or a crash during the verification loses nothing.  What C only
 * warns about but means a change broke the code (a call of an undeclared
 * function, an int taken for a pointer) counts as an error here
 * (reparse.h, strict). */
#ifndef EL_VERIFY_H
#define EL_VERIFY_H

#include <stddef.h>

#include "buildcfg.h"
#include "changeset.h"
#include "sources.h"

/* One translation unit to verify. */
typedef struct el_verify_unit {
    char *path;               /* its main file after the change (absolute) */
    char *before;             /* its main file before: path itself, the old place of a
                                 moved file, or NULL (new: it had no errors) */
    const el_source *args;    /* whose configurations and arguments it is parsed with
                                 (the file, or the one it came from); NULL: the defaults */
    char *display;            /* for messages */
} el_verify_unit;

typedef struct el_verify_units {
    el_verify_unit *v;
    size_t n, cap;
} el_verify_units;

/* Add a unit (once per path; the strings are copied). */
void el_verify_units_add(el_verify_units *u, const char *path, const char *before,
                         const el_source *args, const char *display);
void el_verify_units_free(el_verify_units *u);

/* One new error. */
typedef struct el_verify_failure {
    char *display;            /* the translation unit */
    char *config;             /* its configuration's name ("" when there is one) */
    char *error;              /* the first new error message */
    char *where;              /* where it is in the changed text, "FILE:LINE:COL" (or NULL) */
} el_verify_failure;

typedef struct el_verify_result {
    el_verify_failure *v;
    size_t n, cap;
} el_verify_result;

/* Verify cs on the units in every configuration of cfgs (extra: the
 * arguments after `--`).  Every unit is checked, so a refusal names all
 * the units a change would break (a unit's first failing configuration).
 * Failures into *out; returns their count. */
size_t el_verify(const el_changeset *cs, const el_verify_units *units, const el_buildcfgs *cfgs,
                 char *const *extra, size_t n_extra, el_verify_result *out);
/* "FILE: does not compile after the change[ (configuration)]: ERROR[, at
 * FILE:LINE:COL of the changed text]". */
char *el_verify_message(const el_verify_failure *f);
void el_verify_result_free(el_verify_result *r);

#endif
