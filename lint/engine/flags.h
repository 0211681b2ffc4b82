/* lint/engine/flags.h -- the compiler arguments each file is parsed with:
 * its compile_commands.json entry (-p), else the defaults (-std=c11 and
 * libeh's headers, found in the tree above the file or at the install
 * prefix), then the arguments after `--`. */
#ifndef EL_FLAGS_H
#define EL_FLAGS_H

#include <stddef.h>

#include "compdb.h"
#include "sources.h"

/* A new argument vector (free with el_args_free). */
char **el_flags_for(const el_compdb *db, const el_source *src, char *const *extra,
                    size_t n_extra, size_t *n_out);
/* The default arguments alone, for a file (used by tests and --help). */
char **el_default_flags(const char *abs_file, size_t *n_out);

#endif
