/* lint/engine/unbuilt.h -- the files a run with a compile database
 * leaves out as not built in its configuration, and the note that says
 * so.  With a database, a .c file it does not list (and the command line
 * does not name) that no TU read, and a header no TU read, is not built
 * in this configuration (a backend not enabled, a tool not made): it is
 * not linted, and one note on stderr counts them (-v: lists them).  A
 * shard's run hands its list to the merge (shard.h), which alone sees
 * what every shard's TUs read; ember-migrate's build configurations
 * report a file only when every configuration that had it left it out. */
#ifndef EL_UNBUILT_H
#define EL_UNBUILT_H

#include <stdbool.h>
#include <stddef.h>

#include "compdb.h"
#include "sources.h"
#include "strmap.h"

typedef struct el_unbuilt {
    struct el_unbuilt_file {
        char *path;           /* absolute */
        bool header;
        bool by_cxx;          /* a header the database's C++ files include,
                                 none of which this run lints (languages) */
    } *v;
    size_t n, cap;
} el_unbuilt;
/* by_cxx (a header): only C++ files include it that the run does not
 * lint -- built, but by files left out (its own note, not "not built"). */
void el_unbuilt_add(el_unbuilt *u, const char *path, bool header, bool by_cxx);
/* Into out (real path -> 1): the run's headers (sources) the database's
 * C++ files include, when the run lints none of those files ("languages"
 * leaves C++ out, or they are outside the PATHs).  Such a header is built
 * -- by the C++ files -- not left out of this configuration; alone, as C,
 * it would only fail to parse (igraph's C++ directories' .h files). */
void el_unbuilt_cxx_only_headers(const el_compdb *db, const el_sources *sources, el_strmap *out);
/* Mark the sources u lists as not built (el_source.not_built). */
void el_unbuilt_mark(const el_unbuilt *u, el_sources *sources);
void el_unbuilt_free(el_unbuilt *u);
/* The note on stderr that says how many there are (nothing for none);
 * verbose (-v): and which, one a line after it, relative to the current
 * directory.  done and to_do say what the tool does with a file
 * ("linted", "lint"; ember-migrate: "scanned", "scan"), as
 * el_sources_note_unwalked_cxx's. */
void el_unbuilt_note(const el_unbuilt *u, bool verbose, const char *done, const char *to_do);

/* Across build configurations: a file is left out when no configuration
 * whose sources hold it built it. */
typedef struct el_unbuilt_across {
    el_unbuilt left;          /* every configuration's, once each */
    el_strmap built, seen;
} el_unbuilt_across;
/* One configuration's list (emptied) and its sources. */
void el_unbuilt_across_add(el_unbuilt_across *a, el_unbuilt *left, const el_sources *scope);
/* Into out (replaced): the files no configuration built; a is freed. */
void el_unbuilt_across_take(el_unbuilt_across *a, el_unbuilt *out);

#endif
