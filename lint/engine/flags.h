/* lint/engine/flags.h -- the compiler arguments each file is parsed with:
 * its compile_commands.json entry (-p), else the defaults (-std=gnu17, or
 * -x c++ -std=c++17 for C++; a -x or -std= after `--` decides instead,
 * and the default standard follows its language; a -x after `--` also
 * replaces an entry's -x and -std=), then the arguments
 * after `--`; of those,
 * the kinds that only affect parsing (args_policy.h); then libeh's
 * headers where the flags do not find them (libeh_headers.h: next to the
 * binary, pkg-config eh, the install prefix, the tree above the file). */
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
/* The arguments a file starts from, before those after `--`: its
 * database entry, a borrowed entry in the file's own language, or the
 * defaults (-std=gnu17; -x c++ -std=c++17 for C++).  Free with
 * el_args_free. */
char **el_base_flags(const el_compdb *db, const el_source *src, size_t *n_out);

#endif
