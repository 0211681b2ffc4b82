/* lint/analysis/own_backend_include.h -- does a file's own text #include a
 * backend header?
 *
 * Such a file is what EH101 plans fixes for, and planning them reads
 * every #include of the translation unit, the system headers' too: a
 * file parsed with a shared prefix PCH (prefix_pch.h), whose system
 * headers' directives are in the PCH, is then parsed a second time
 * without it (EH101's reads_whole_tu asks this first, so that the file is
 * parsed once).  Read from the text (a quoted name resolved next to the
 * file, an angled one by its name alone): a file this misses is parsed
 * twice, as before; one it names wrongly only parses its system headers
 * itself. */
#ifndef EL_OWN_BACKEND_INCLUDE_H
#define EL_OWN_BACKEND_INCLUDE_H

#include <stdbool.h>

#include "config.h"

/* EH101's question about an #include written `spelled` that resolves to
 * `real` (NULL: not found): a backend header, or a file of a legacy
 * backend directory. */
bool el_include_is_backend_private(const el_config *cfg, const char *spelled, const char *real);
/* Files a and b (NULL: none) are of the same legacy backend directory: a
 * file including its own legacy backend's header is not EH101's. */
bool el_same_legacy_backend(const el_config *cfg, const char *a, const char *b);
/* The text of the file at path includes what EH101 reads as a backend
 * include (the two above). */
bool el_includes_backend_header(const char *path, const el_config *cfg);

#endif
