/* lint/engine/header_copies.h -- the headers a build reads through a copy
 * of its own: CMake's configure_file(... COPYONLY) or file(COPY) puts
 * include/cones.h into <build>/include/cones.h, and the database's files
 * include the copy (SCS).  The tree's header is then built in this
 * configuration, though no TU reads it: it is linted (alone, with a
 * neighbour's flags), not called "not built", so that a run over the
 * tree (-p build .), whose walk skips the build directory, does not lose
 * its findings. */
#ifndef EL_HEADER_COPIES_H
#define EL_HEADER_COPIES_H

#include <stdbool.h>

#include "filehash.h"
#include "sources.h"
#include "strmap.h"

typedef struct el_header_copies el_header_copies;

/* Of the files the TUs read (read: real paths as keys), those that are no
 * linted source, by name. */
el_header_copies *el_header_copies_new(const el_strmap *read, const el_sources *sources);
/* Is one of them a copy of the file at path: the same name, the same
 * bytes? */
bool el_header_copies_has(const el_header_copies *c, el_filehash *hashes, const char *path);
void el_header_copies_free(el_header_copies *c);

/* The tree's header that path, in the build directory build_real (a real
 * path), is a copy of: the file at the same place under a directory above
 * the build directory (<build>/include/cones.h: include/cones.h under the
 * build directory's parent, or under its parent's), the first that exists,
 * with the same bytes (CMake's COPYONLY and file(COPY) keep the tree's
 * layout).  A new real path, or NULL.  A run without PATH (-p BUILD) lints
 * that header instead of the copy: its findings and fixes are then where
 * the project keeps the code, as with -p BUILD . */
char *el_header_copy_original(const char *path, const char *build_real);

#endif
