/* lint/base/gitdiff.h -- the lines a change added or modified, from git
 * (emberlint --diff-base REV).
 *
 * The change is everything since the merge base of REV and HEAD: the
 * commits since, staged and unstaged edits (`git diff -U0 -M <base>`:
 * the work tree against the merge base, renames followed so a moved file
 * does not count as new), and untracked files that are not ignored
 * (every line of them is new).  Git runs in the current directory; its
 * work tree is the one holding it. */
#ifndef EL_GITDIFF_H
#define EL_GITDIFF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct el_changes el_changes;

/* NULL with *err (malloc'd, one line) when git cannot tell: not inside a
 * git work tree, git missing, REV unknown, no merge base. */
el_changes *el_changes_since(const char *rev, char **err);
/* Did the change add or modify line `line` (1-based) of the file at this
 * absolute, real path? */
bool el_changes_has(const el_changes *c, const char *path, unsigned line);
/* Parse `git diff -U0` output (paths relative to top, an absolute
 * directory) into c; exposed for the tests. */
el_changes *el_changes_parse(const char *top, const char *diff);
/* The same for `size` bytes of output that may hold NULs (git diff
 * --text of a file with a NUL byte in it). */
el_changes *el_changes_parse_n(const char *top, const char *diff, size_t size);
void el_changes_free(el_changes *c);

#endif
