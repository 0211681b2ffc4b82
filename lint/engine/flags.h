/* lint/engine/flags.h -- the compiler arguments each file is parsed with:
 * its compile_commands.json entry (-p), else the defaults (-std=c11 and
 * libeh's headers, found in the tree above the file or at the install
 * prefix), then the arguments after `--`; of those, the kinds that only
 * affect parsing (args_policy.h). */
#ifndef EL_FLAGS_H
#define EL_FLAGS_H

#include <stddef.h>

#include "compdb.h"
#include "sources.h"

/* A new argument vector (free with el_args_free), holding only the
 * arguments the allow-list keeps (args_policy.h).  When dropped is not
 * NULL, the dropped arguments worth a note are appended to
 * (*dropped)[*n_dropped] (free each and the array). */
char **el_flags_for(const el_compdb *db, const el_source *src, char *const *extra,
                    size_t n_extra, size_t *n_out, char ***dropped, size_t *n_dropped);
/* The default arguments alone, for a file (used by tests and --help). */
char **el_default_flags(const char *abs_file, size_t *n_out);

#endif
