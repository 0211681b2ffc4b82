/* lint/change/changeset.h -- a set of file changes written all or nothing.
 *
 * emberlint --fix and ember-migrate apply compute every new content in
 * memory first, verify it by parsing (verify.h: nothing is written before
 * every configuration compiles), then commit the set:
 *   1. every file is read again and compared with the content the plan
 *      was made from (its hash at parse time): a file that changed since
 *      it was read is refused and NOTHING is written; so is a read-only
 *      file (no write permission bit, or not writable by this user), even
 *      though renaming over it would work, a file with several hard links
 *      (a rename would split them), a symbolic link, and anything outside
 *      the set's bounds (bounds.h: the tree given);
 *   2. a journal listing every step is written into the tree
 *      (journal.h), then each new content goes to a temporary file beside
 *      its target (same file system), flushed, with the original's
 *      permission bits, and each original gets a second name beside it;
 *   3. each target is compared once more with the content read in step 1
 *      (a concurrent editor loses nothing) and the temporary is renamed
 *      over it (a deleted file is unlinked, its second name kept);
 *   4. only when every rename succeeded: the second names go, emptied
 *      directories are removed when asked (never one holding the current
 *      directory), the journal goes last.
 * If a step fails, every step taken is undone from the journal, so each
 * file is byte-identical to before and carries its mode.  SIGINT,
 * SIGTERM, SIGHUP and SIGQUIT are held from step 1 until the set is
 * complete or rolled back; with el_change_signals_install the tool then
 * says which state the tree is in before the signal takes effect.  A
 * SIGKILL (or a crash) leaves the journal: the next run resolves it
 * (el_journal_recover), so the tree is again all-before or all-after.
 * After a successful commit the caller may still call el_changeset_undo.
 *
 * Failure injection for tests: lint/change/inject.h. */
#ifndef EL_CHANGESET_H
#define EL_CHANGESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "bounds.h"
#include "hash.h"

typedef enum el_change_kind {
    EL_CHANGE_MODIFY,     /* replace the content of an existing file */
    EL_CHANGE_CREATE,     /* a new file (must not exist) */
    EL_CHANGE_DELETE      /* remove an existing file */
} el_change_kind;

typedef struct el_change {
    el_change_kind kind;
    char *path;           /* absolute */
    char *display;        /* for messages and diffs: relative to the root */
    bool check_hash;      /* compare with `expected` in step 1 */
    el_hash128 expected;  /* content hash the plan was made from */
    char *old_text;       /* content read at step 1 (MODIFY, DELETE) */
    size_t old_len;
    char *new_text;       /* MODIFY, CREATE */
    size_t new_len;
    mode_t mode;          /* permission bits: the original's, or 0644 for CREATE */
    char *moved_from;     /* CREATE made by el_changeset_move: the DELETE's path */
} el_change;

typedef struct el_rmdir {
    char *dir;            /* absolute */
    char *stop;           /* absolute; NULL: the root */
} el_rmdir;

typedef struct el_changeset {
    el_change *v;
    size_t n, cap;
    char *root;           /* display paths are relative to this (absolute) */
    el_rmdir *rmdirs;     /* directories to remove when empty after commit */
    size_t n_rmdirs, cap_rmdirs;
    el_bounds bounds;     /* where it may write (none set: anywhere) */
    /* what the last commit did, for el_changeset_undo (opaque) */
    void *undo;
} el_changeset;

/* root: absolute directory display paths are made relative to (the
 * current directory for the tools). */
void el_changeset_init(el_changeset *cs, const char *root);
/* Limit the set to the tree b (copied): a change outside it is refused
 * when added (and again at the commit). */
void el_changeset_bound(el_changeset *cs, const el_bounds *b);
/* -1 with *err when abs is a regular file with several hard links (such
 * a file is never changed: a rename would split them). */
int el_changeset_check_links(const el_changeset *cs, const char *abs, char **err);
/* Replace a file's content.  `expected` (may be NULL) is the hash of the
 * content the new text was computed from.  The current content is read
 * now; -1 with *err (malloc'd) when it cannot be read or, with expected,
 * when it no longer matches. */
int el_changeset_modify(el_changeset *cs, const char *path, const el_hash128 *expected,
                        const char *new_text, size_t new_len, char **err);
/* A new file; -1 with *err if it exists or is already in the set. */
int el_changeset_create(el_changeset *cs, const char *path, const char *text, size_t len,
                        mode_t mode, char **err);
/* Remove a file (its content is kept for the diff and for undo). */
int el_changeset_delete(el_changeset *cs, const char *path, const el_hash128 *expected,
                        char **err);
/* A file moved: delete `from` (checked against `expected`, may be NULL)
 * and create `to` with new_text and from's mode.  It is committed and
 * undone exactly as that delete plus create; only the diff differs: the
 * pair is one git rename (diff.h).  -1 with *err (nothing recorded) when
 * either half cannot be. */
int el_changeset_move(el_changeset *cs, const char *from, const char *to, const char *new_text,
                      size_t new_len, const el_hash128 *expected, char **err);
/* Remove directory `dir` after the commit if it is then empty, then its
 * parents while they become empty, up to but not including `stop` (NULL:
 * the root).  Nothing is removed when dir is not inside stop, and never
 * a directory holding the current directory.  The tools pass as stop the
 * PATH argument the directory was found under, so they never climb above
 * what the user named. */
void el_changeset_rmdir_upto(el_changeset *cs, const char *dir, const char *stop);
/* Take the change of a path out of the set (nothing when it has none). */
void el_changeset_drop(el_changeset *cs, const char *path);
/* The change of a path, or NULL. */
el_change *el_changeset_find(el_changeset *cs, const char *path);
/* A change that alters nothing (a MODIFY with the old content). */
bool el_change_is_noop(const el_change *c);
/* True when no change would alter anything. */
bool el_changeset_empty(const el_changeset *cs);
/* The unified diff of every change, in path order (lint/change/diff.h); a move
 * is one rename, at its new path. */
int el_changeset_diff(const el_changeset *cs, FILE *out);
/* Commit (see above).  backup: keep each modified or deleted file's
 * original as PATH.orig (itself written atomically; an older PATH.orig is
 * replaced, and kept in memory for el_changeset_undo).  0 on success; -1
 * with *err (malloc'd, "PATH: what went wrong") and everything undone. */
int el_changeset_commit(el_changeset *cs, bool backup, char **err);
/* Undo a successful commit: every file back to its old content and mode,
 * created files and directories removed, .orig backups removed (or, where
 * they replaced an older PATH.orig, that one put back).  -1 with
 * *err if some file could not be restored (it names them). */
int el_changeset_undo(el_changeset *cs, char **err);
/* Drop what el_changeset_undo would need. */
void el_changeset_forget(el_changeset *cs);
void el_changeset_free(el_changeset *cs);

/* For the tools: on SIGINT, SIGTERM, SIGHUP or SIGQUIT say on stderr in
 * which state the tree is ("nothing was changed", "the changes were
 * written completely", "every change was undone") before the signal
 * takes its course.  Signals set to be ignored stay ignored. */
void el_change_signals_install(void);

#endif
