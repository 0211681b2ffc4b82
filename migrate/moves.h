/* migrate/moves.h -- moving backend implementations into backends/.
 *
 * From the scan (migrate/scan.h) alone: every definition eh_<b>_<op>
 * outside backends/ (an op of libeh/ops.def, selected by --backend/--op)
 * goes to backends/<b>/<its file's name>, with the file-scope static
 * helpers it uses (moved, or copied when code that stays uses them too)
 * and the #include directives through which the files it needs are
 * reached, re-pathed so they name the same files from the new place.  A
 * file whose definitions all move moves whole; so do legacy headers
 * whose declarations all belong to moved definitions.  Each op is
 * registered in backends/<b>/kernels.def (or in the directory's
 * eh_backend table for a kernel).  What cannot be done safely is listed
 * for a person instead (em_manuals).
 *
 * The result is text: edits of existing files (byte offsets into the
 * content the scan parsed, lint/base/edit.h), new files (a file that moves
 * whole is a new file that names where it came from, so the plan shows a
 * rename), deleted files and directories to remove when emptied (never
 * above the PATH argument they were found under).  migrate/plan.c merges it with the
 * rules' fixes into one el_changeset.
 *
 * The work is split by responsibility: moves.c decides what moves where
 * and emits it, includes.c the #include lines moved code needs (and
 * re-pathing), headers.c the lexing of legacy headers, register.c the
 * registration in kernels.def or an eh_backend table; move_ctx.h holds
 * the state they share (and move_ctx.c its helpers, below them all). */
#ifndef EM_MOVES_H
#define EM_MOVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "edit.h"
#include "hash.h"
#include "manual.h"
#include "scan.h"
#include "texts.h"

/* ---- the moves ------------------------------------------------------- */

/* Edit groups, so plan.c can tell them from fixes (group >= 0). */
enum {
    EM_GROUP_MOVE = -1,    /* removal of moved code, appended code, registration */
    EM_GROUP_REPATH = -2   /* an #include re-pathed: dropped when a fix rewrites that include */
};

typedef struct em_select {
    char *const *backends;   /* --backend (none: all) */
    size_t n_backends;
    char *const *ops;        /* --op (none: all) */
    size_t n_ops;
    bool force;              /* files that do not parse are skipped, not refused */
    char *const *paths;      /* the PATH arguments: emptied directories are removed
                                up to, not including, the one a file was found under */
    size_t n_paths;
    /* the custom ops (custom_ops.h): their kernels move too, and are
     * registered by the generated unit, not in kernels.def; NULL: none */
    const struct em_customs *customs;
} em_select;

bool em_select_backend(const em_select *s, const char *backend);
bool em_select_op(const em_select *s, const char *op);

typedef struct em_create {
    char *path;
    char *text;
    size_t len;
    mode_t mode;
    char *from;              /* a whole file moved: where it was (it is in deletes); else NULL */
} em_create;

typedef struct em_rmdir {
    char *dir;               /* remove when emptied ... */
    char *stop;              /* ... with its parents up to, not including, this (NULL: cwd) */
} em_rmdir;

typedef struct em_range {
    char *path;
    size_t begin, end;
} em_range;

/* A definition the moves take out of its file. */
typedef struct em_moved_def {
    const em_def *def;
    char *dest;                        /* the file it goes to (absolute) */
    bool copied;                       /* a helper copied: code that stays uses it too */
} em_moved_def;

typedef struct em_moves {
    el_edits edits;                    /* on existing files */
    em_create *creates;  size_t n_creates, cap_creates;
    char **deletes;      size_t n_deletes, cap_deletes;
    em_rmdir *rmdirs;    size_t n_rmdirs, cap_rmdirs;
    em_range *moved;     size_t n_moved, cap_moved;   /* code that leaves its file */
    size_t n_defs;                     /* op definitions moved */
    em_moved_def *defs_moved;          /* every definition moved or copied, in tree order:
                                          what analyze lists "to move" */
    size_t n_defs_moved, cap_defs_moved;
    size_t n_repathed;                 /* include directives re-pathed */
} em_moves;

/* Compute the moves.  Files with parse errors are never touched (their
 * definitions are listed as manual work).  0, or -1 with *err when a
 * file cannot be read or changed since the scan. */
int em_moves_compute(const em_tree *t, const em_select *sel, em_texts *texts, em_moves *out,
                     em_manuals *manual, char **err);
/* True when [begin, end) of path lies in code that moves away (a moved
 * definition or helper, or a file that moves whole). */
bool em_moves_inside(const em_moves *m, const char *path, size_t begin, size_t end);
void em_moves_free(em_moves *m);

/* Path arithmetic shared with tests: `to` relative to directory `from`
 * (both absolute, normalized): "../../ops/blas/x.h". */
char *em_relpath(const char *from_dir, const char *to);

#endif
