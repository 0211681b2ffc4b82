/* lint/change/bounds.h -- the tree a run may write: the PATH arguments
 * (a directory named, or the directory of a file named; symlinks in the
 * arguments themselves resolved), or the current directory when only a
 * compilation database names the files.  A file whose real path lies
 * outside every root -- reached through a symlink that leaves the tree
 * -- is read, never written, moved or deleted, and nothing is created
 * there; the changeset refuses such a change (changeset.h) and the tools
 * list it for a person before. */
#ifndef EL_BOUNDS_H
#define EL_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct el_bounds {
    char **roots;            /* absolute, real */
    size_t n;
    bool set;                /* made from PATHs: no root then means nothing may be
                                written (fail closed), not "no bounds" */
} el_bounds;

/* The roots of the PATH arguments (n == 0: the current directory). */
void el_bounds_of_paths(el_bounds *b, char *const *paths, size_t n);
/* Add a root (made real; ignored when it does not exist). */
void el_bounds_add(el_bounds *b, const char *dir);
/* Is the file (or directory) at path inside a root?  path is made real
 * as far as it exists (a file to create: its existing ancestor). */
bool el_bounds_contain(const el_bounds *b, const char *path);
/* The root holding path (real), or NULL. */
const char *el_bounds_root_of(const el_bounds *b, const char *path);
void el_bounds_copy(el_bounds *dst, const el_bounds *src);
void el_bounds_free(el_bounds *b);

#endif
