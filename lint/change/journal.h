/* lint/change/journal.h -- what makes a commit recoverable after a kill.
 *
 * Before a commit writes anything it writes a journal,
 * `.ember-changeset-<id>`, into each tree root that holds a change (the
 * changeset's bounds, else its root directory): every step it is about to
 * take, with the exact names of its temporary files (`.NAME.el-<id>.new`,
 * the new content, and `.NAME.el-<id>.old`, a second name or a copy of
 * the original) and the content hashes before and after.  The journal is
 * removed last, when everything else is done.  So whatever kills a
 * commit (SIGKILL, a crash, a power cut), the journal tells a later run
 * which state every file is in:
 *   - every change in place: the commit is completed (temporaries and
 *     asides removed, emptied directories removed);
 *   - otherwise it is undone: each replaced file gets its original back
 *     from its aside, created files and directories go, deleted files
 *     come back.
 * A file that changed after the interrupted run (neither its old nor its
 * new content) is left alone and its aside kept, with a message.  The
 * tree is then all-before or all-after, and the journal is gone.  The
 * committing run holds every copy of its journal locked (flock): a
 * journal a live run holds is never resolved by another. */
#ifndef EL_JOURNAL_H
#define EL_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "hash.h"
#include "strbuf.h"

typedef enum el_jop_kind { EL_JOP_MODIFY, EL_JOP_CREATE, EL_JOP_DELETE } el_jop_kind;

/* One file the commit replaces, creates or deletes. */
typedef struct el_jop {
    el_jop_kind kind;
    char *path;               /* absolute */
    char *tmp;                /* the new content beside it (MODIFY, CREATE) */
    char *aside;              /* the original beside it (MODIFY, DELETE) */
    el_hash128 old_hash;      /* MODIFY, DELETE */
    el_hash128 new_hash;      /* MODIFY, CREATE */
    mode_t mode;
} el_jop;

typedef struct el_journal {
    char id[17];
    char **copies;            /* the journal's files (absolute) */
    size_t n_copies, cap_copies;
    el_jop *ops;
    size_t n_ops, cap_ops;
    char **made;              /* directories the commit creates, parents first */
    size_t n_made, cap_made;
    char **rm_dir, **rm_stop; /* directories removed when emptied, up to (not) stop */
    size_t n_rm, cap_rm;
    int *locks;               /* per copy: its open descriptor, locked (flock) while the
                                 commit runs, so a concurrent run leaves it alone */
} el_journal;

/* A new journal with a fresh id; ops and directories are added by the
 * caller, with the names el_journal_name gives. */
void el_journal_init(el_journal *j);
/* `<dir>/.<base>.el-<id>.<tag>` for the file path. */
char *el_journal_name(const el_journal *j, const char *path, const char *tag);
el_jop *el_journal_add(el_journal *j, el_jop_kind kind, const char *path);
void el_journal_add_copy(el_journal *j, const char *dir);
void el_journal_add_made(el_journal *j, const char *dir);
void el_journal_add_rmdir(el_journal *j, const char *dir, const char *stop);
/* Write every copy, flushed and locked until el_journal_remove (or
 * _free); 0 or errno (no copy is left then). */
int el_journal_write(el_journal *j);
/* Remove every copy. */
void el_journal_remove(const el_journal *j);
void el_journal_free(el_journal *j);

/* Undo whatever of the journal's steps took place (see above): ops
 * [0, touched) may be in place, the others only prepared (n_ops when not
 * known).  Problems are appended to msg ("; PATH: ..."). */
void el_journal_rollback(const el_journal *j, size_t touched, el_buf *msg);
/* The commit went through: remove the asides and temporaries, then the
 * emptied directories (their removals are appended to removed when not
 * NULL, with their modes, for an undo). */
void el_journal_finish(const el_journal *j, char ***removed, mode_t **modes, size_t *n_removed);
/* Is every change of the journal in place? */
bool el_journal_complete(const el_journal *j);

/* Journals of interrupted commits in dirs and their ancestors: with fix,
 * each is completed or undone (a line on stderr says which, and what
 * was left alone); without, each is only reported.  Also removes the
 * temporary files an older version left beside the files of dirs (and
 * says so).  Returns the number of journals found, or -1 when one could
 * not be resolved (*err says which). */
int el_journal_recover(char *const *dirs, size_t n, bool fix, char **err);
/* Leftovers of older, unjournaled commits beside `path`
 * (.NAME.el-tmp.*, .NAME.el-del.*; .NAME.el-old.* when identical to the
 * file): removed, each with a line on stderr; others reported. */
void el_journal_sweep_beside(const char *path);
/* Is name, beside path, a temporary of a journaled commit
 * (`.BASE.el-<id>.old`, the original kept; `.BASE.el-<id>.new`, the new
 * content; *is_new says which) whose journal `.ember-changeset-<id>` is
 * still in path's directory or one above (where el_journal_recover looks)?
 * That journal's file (malloc'd), or NULL. */
char *el_journal_owning(const char *path, const char *name, bool *is_new);
/* The directories the journal at file was written into (its copies'; its
 * own directory when it cannot be read): a run given these as its PATHs
 * resolves it.  *n of them, each and the array malloc'd. */
char **el_journal_trees(const char *file, size_t *n);

#endif
