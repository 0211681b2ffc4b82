/* lint/engine/prefix_pch.h -- the system headers at the top of many
 * translation units, parsed once a run.
 *
 * Most of a C file's parse is the system headers it includes first:
 * <math.h>, <stdio.h>, <stdlib.h> and <string.h> are 10 of the 13.6 ms a
 * file of the bench's corpus takes.  Files whose first lines are the same
 * `#include <...>` lines, parsed with the same arguments, share one
 * precompiled header (PCH) of those lines: built once a run in a
 * temporary directory on the first file that needs it, then given to each
 * of them with -include-pch, so that they read those declarations and
 * macros instead of parsing them again.  Nothing stays on disk: the PCH
 * is held open and read through /proc/self/fd once written, and released
 * when the last file that shares it is linted.
 *
 * The translation unit is then the one a plain parse gives, because a
 * prefix is used only when
 *  - its lines are exactly the file's first lines (nothing before them
 *    but blanks and comments), its arguments exactly the file's, and they
 *    force no include of their own (-include, -imacros: those would come
 *    after the PCH instead of before the file's lines);
 *  - every header it includes is a system header guarded against a second
 *    inclusion (the file's own #include of it then reads nothing), and no
 *    file of its include tree is a header of libeh (eh/...: the rules ask
 *    whether a TU uses libeh) or a linted file: what the rules look at
 *    stays in the file's own parse (the walk sees the file's cursors; the
 *    PCH's are not visited);
 *  - its own parse has no errors.
 * A prefix is cut before its first header that fails those tests.  At
 * most 32 PCHs are held at once: a prefix met while that many wait for
 * their last user is not shared.  A rule
 * that needs every file of the TU (all directives, all declarations) asks
 * elc_tu_whole (clang_util.h): the engine then lints the file again
 * without the prefix, as it does when the parse with it fails or has
 * errors.  The PCH's files and the places its include search found empty
 * count as the file's own for the cache. */
#ifndef EL_PREFIX_PCH_H
#define EL_PREFIX_PCH_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"

#include "finding.h"
#include "sources.h"

/* The names of the `#include <name>` lines a file's text starts with
 * (blanks and comments between them); names[] is malloc'd, each name too. */
size_t el_prefix_includes(const char *text, size_t n, char ***names);
/* Do the text's leading includes start with names[0..k)? */
bool el_prefix_text_starts_with(const char *text, size_t n, char *const *names, size_t k);

typedef struct el_prefix_set el_prefix_set;
typedef struct el_prefix el_prefix;

/* What the engine records of a PCH's parse for its users' cache entries
 * (dependencies, absent places) into `pre`; false: not cacheable. */
typedef bool (*el_prefix_record_fn)(void *ud, CXTranslationUnit tu, const char *prefix_file,
                                    char *const *args, size_t n_args, el_tu_result *pre);

el_prefix_set *el_prefix_set_new(const el_sources *sources, unsigned parse_options,
                                 el_prefix_record_fn record, void *ud);
/* Offer file `item` (its source, its arguments); the arguments are
 * borrowed until el_prefix_set_free. */
void el_prefix_offer(el_prefix_set *s, size_t item, const el_source *src, char *const *args,
                     size_t n_args);
/* After every offer: the prefix `item` shares with others, or NULL. */
el_prefix *el_prefix_of(el_prefix_set *s, size_t item);
/* The PCH of p, built on the first call (others wait for it) with idx;
 * NULL when it cannot be built.  *pre: its parse's record. */
const char *el_prefix_pch(el_prefix_set *s, el_prefix *p, CXIndex idx, const el_tu_result **pre,
                          bool *cacheable);
/* Does text (the file as parsed) still start with p's includes?  The
 * file is read once to choose its prefix and again by the parse. */
bool el_prefix_matches(const el_prefix *p, const char *text, size_t n);
/* A member of p is linted (whether with the PCH or not): the last one
 * releases the PCH. */
void el_prefix_done(el_prefix_set *s, el_prefix *p);
/* The arguments that give a file the PCH el_prefix_pch returned (4). */
size_t el_prefix_args(const char *pch, const char *out[4]);
/* How many PCHs were built (0 for NULL). */
size_t el_prefix_set_built(const el_prefix_set *s);
/* Removes the PCHs and their directory. */
void el_prefix_set_free(el_prefix_set *s);

#endif
