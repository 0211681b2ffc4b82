/* migrate/compdb_update.h -- compile_commands.json after files moved.
 *
 * A database that lists a file the plan moves is out of date once the
 * plan is applied.  When it lies inside the tree, its new content (each
 * entry of a moved file naming the new place: "file", and the same path
 * in "arguments", "command" and "output", spelled as before: absolute or
 * relative to the entry's "directory") joins the changeset, so it changes
 * with the files, all or nothing.  Otherwise the run prints the command
 * that regenerates it. */
#ifndef EM_COMPDB_UPDATE_H
#define EM_COMPDB_UPDATE_H

#include <stddef.h>

/* The new text of the database (content text) after each from[i] moved
 * to to[i] (absolute paths), *count the moved files it lists; NULL when
 * it lists none of them (or does not parse as JSON: libclang read it,
 * the run goes on). */
char *em_compdb_moved(const char *text, char *const *from, char *const *to, size_t n,
                      size_t *count);
/* The command that regenerates the database of build directory dir
 * (CMake, Meson), or NULL when the tool that wrote it is not known. */
char *em_compdb_regenerate(const char *dir);

#endif
