/* lint/change/changeset.h -- a set of file changes written all or nothing.
 *
 * emberlint --fix and ember-migrate apply compute every new content in
 * memory first, then commit the set:
 *   1. every file is read again and compared with the content the plan
 *      was made from (its hash at parse time): a file that changed since
 *      it was read is refused and NOTHING is written; so is a read-only
 *      file (no write permission bit, or not writable by this user), even
 *      though renaming over it would work;
 *   2. each new content goes to a temporary file in the target's own
 *      directory (same file system), is flushed (fsync), gets the
 *      original's permission bits, and is renamed over the target;
 *      created files likewise; deleted files are renamed aside first and
 *      removed only when everything else succeeded; directories needed
 *      for created files are made, directories emptied by deletions are
 *      removed when asked (never one holding the current directory);
 *   3. just before each rename the target is compared once more with the
 *      content read in step 1 (a concurrent editor loses nothing);
 *   4. if any step fails, every change made so far is undone, in reverse,
 *      so each file is byte-identical to before (and carries its mode),
 *      created files and directories are gone.
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT are held during a commit or an undo
 * and delivered when it is complete (or rolled back), so an interrupted
 * tool never leaves a half-changed tree or temporary files.
 * After a successful commit the caller may still call el_changeset_undo
 * (ember-migrate does when the re-parse shows a new error).
 *
 * Failure injection for tests (never set in production): the environment
 * variable EL_TEST_FAIL_WRITE=N makes the N-th write (1-based, counting
 * temporary files written and renames) fail with EIO, and
 * EL_TEST_TOUCH_BEFORE_COMMIT=PATH appends a byte to PATH after step 1,
 * simulating an editor that saves while the tool runs, and
 * EL_TEST_SIGNAL_DURING_COMMIT=N raises signal N as the commit starts
 * (it must arrive only once the commit is over). */
#ifndef EL_CHANGESET_H
#define EL_CHANGESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

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
    /* commit's undo log (opaque to callers) */
    void *undo;
} el_changeset;

/* root: absolute directory display paths are made relative to (the
 * current directory for the tools). */
void el_changeset_init(el_changeset *cs, const char *root);
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
/* The change of a path, or NULL. */
el_change *el_changeset_find(el_changeset *cs, const char *path);
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
void el_changeset_free(el_changeset *cs);

#endif
