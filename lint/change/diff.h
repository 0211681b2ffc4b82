/* lint/change/diff.h -- unified diffs, as `git diff` writes them, so that
 * `git apply --check` and `git apply` accept the output of
 * `ember-migrate plan` and `emberlint --fix --diff`.
 *
 * Paths are written relative (a/PATH, b/PATH); a new file is diffed
 * against /dev/null with "new file mode", a deleted one the other way with
 * "deleted file mode", a moved file as a git rename ("similarity index",
 * "rename from", "rename to", then hunks only where the content changed).
 * Three lines of context, hunks merged when their context touches.  A
 * file without a final newline gets "\ No newline at end of file".
 * patch(1) applies modifications, creations and deletions, but not a pure
 * rename (it has no hunk): the format is git's. */
#ifndef EL_DIFF_H
#define EL_DIFF_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* Write the diff of one file.  old == NULL: a new file; new == NULL: a
 * deleted file.  mode is the file's permission bits (0644) for the mode
 * lines.  Nothing is written when both contents are equal.  Returns 0, or
 * -1 on a write error (errno set). */
int el_diff_write(FILE *out, const char *relpath, const char *old, size_t old_len,
                  const char *new_text, size_t new_len, mode_t mode);
/* Write the diff of a file moved from `from` to `to` (relative paths),
 * old the content at from, new_text at to: a git rename, with a
 * "similarity index" (the share of the larger side's bytes in unchanged
 * lines; 100% only when identical -- git apply does not check it), mode
 * lines when the modes differ, and hunks when the content changed.
 * Returns 0, or -1 on a write error (errno set). */
int el_diff_write_rename(FILE *out, const char *from, const char *to, const char *old,
                         size_t old_len, const char *new_text, size_t new_len, mode_t old_mode,
                         mode_t new_mode);

#endif
