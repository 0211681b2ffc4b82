/* lint/engine/flags.h -- the compiler arguments each file is parsed with:
 * its compile_commands.json entry (-p), else the defaults (-std=c11, or
 * -x c++ -std=c++17 for C++), then the arguments after `--`, then
 * libeh's headers where the flags do not find them (libeh_headers.h:
 * next to the binary, pkg-config eh, the install prefix, the tree above
 * the file). */
#ifndef EL_FLAGS_H
#define EL_FLAGS_H

#include <stddef.h>

#include "compdb.h"
#include "sources.h"

/* A new argument vector (free with el_args_free). */
char **el_flags_for(const el_compdb *db, const el_source *src, char *const *extra,
                    size_t n_extra, size_t *n_out);

#endif
