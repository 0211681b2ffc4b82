/* migrate/generated.h -- files a build generates: a header CMake's
 * configure_file writes into the build directory from a template of the
 * source tree (SUNDIALS' sundials_lapack_defs.h from
 * sundials_lapack_defs.h.in).  Such a file is never rewritten: its sites
 * are listed at the template, the file a person changes. */
#ifndef EM_GENERATED_H
#define EM_GENERATED_H

#include <stdbool.h>

typedef struct em_generated {
    char *build_dir; /* the CMake build directory holding the file (its CMakeCache.txt) */
    char *source;    /* the source tree CMakeCache.txt names (CMAKE_HOME_DIRECTORY), or NULL */
    char *tmpl;      /* the template it is made from, or NULL when none is found */
    char *several;   /* with no tmpl: the files that could each be it ("a, b"), or NULL */
    unsigned line, col; /* the site's place in tmpl (0: not found there) */
} em_generated;

/* Is the file at the absolute path a file of a CMake build directory (a
 * directory above it holds a CMakeCache.txt written there, by its
 * CMAKE_CACHEFILE_DIR) and not of a source tree -- the cache's
 * CMAKE_HOME_DIRECTORY when that is the build directory or inside it (an
 * in-source build), or a FetchContent _deps/NAME-src?  Then true with *g filled: its
 * template, looked for in the source tree as NAME.in, STEM.in (config.in
 * for config.h), NAME.cmake or NAME.cmake.in -- at the same place
 * relative to the source tree first, else the one file so named
 * (preferring one with #cmakedefine or @VAR@ markers; with several
 * alike, none: they are listed in several), else the one C or C++ file
 * of the same name and the same bytes (configure_file COPYONLY) -- and the place in
 * it of the site at line:col naming `name` (name may be NULL): the same
 * line when it names it there (configure_file keeps lines), else its
 * first line that names it. */
bool em_generated_file(const char *path, unsigned line, unsigned col, const char *name,
                       em_generated *g);
void em_generated_free(em_generated *g);
/* How many times the run has walked a source tree for templates (once
 * per source tree, whatever the number of sites). */
unsigned em_generated_walks(void);

#endif
