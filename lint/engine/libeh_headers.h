/* lint/engine/libeh_headers.h -- where libeh's public headers are when the
 * project's own flags do not say: the directories both tools add, after
 * everything else, so `emberlint app/` works anywhere with no flags. */
#ifndef EL_LIBEH_HEADERS_H
#define EL_LIBEH_HEADERS_H

#include <stddef.h>

/* The -I directories for a file (absolute), in the order they are
 * searched: the headers next to the binary (BIN/../include: the build
 * tree's build/include, an install's PREFIX/include), `pkg-config
 * --cflags-only-I eh`, the configured PREFIX/include, then the EmberHarmony
 * tree above the file (TREE/libeh/include and TREE/libeh).  Only
 * directories that hold eh/eh.h (TREE/libeh: with it), each once.  A new
 * array of new strings (free with el_args_free). */
char **el_libeh_include_dirs(const char *abs_file, size_t *n);

#endif
