/* lint/engine/skipped_templates.h -- a .c template whose includer skips
 * it is not blamed for failing alone.
 *
 * A .c file another source includes (a template: `#include
 * "vector/neon.c"` after what it needs) is linted through its includer
 * (engine.h, el_tus_read_elsewhere).  Where the includer's preprocessor
 * skips the #include in this configuration (`#ifdef __ARM_NEON`), no TU
 * reads the template but its own, and alone it often does not parse.
 * Like a header reached by no source (docs/rules/EH000.md), such a file
 * gets no EH000 of its own when a linted file #includes it, read as text
 * through every #if arm; its TU's other findings stay.  A .c file that
 * parses alone has no EH000 to leave out. */
#ifndef EL_SKIPPED_TEMPLATES_H
#define EL_SKIPPED_TEMPLATES_H

#include <stddef.h>

#include "compdb.h"
#include "finding.h"
#include "sources.h"

/* Drop from res[0..n) the EH000 findings at linted .c files that a
 * linted file (not the file itself) #includes by a name that resolves
 * from its own directory -- unless build (the compile database, or NULL)
 * lists the file: the build compiles it on its own. */
void el_forgive_skipped_templates(const el_sources *sources, const el_compdb *build,
                                  el_tu_result *const *res, size_t n);

#endif
