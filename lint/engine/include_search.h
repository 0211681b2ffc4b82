/* lint/engine/include_search.h -- where a TU's #include directives looked.
 *
 * A cached result stays valid only while every file the TU read is
 * unchanged *and* no new file would be found instead: a new x.h next to
 * main.c shadows the x.h that `-Iinc` found.  So for every directive of
 * a parsed TU (its own and its headers') this lists the places the
 * include search would look (the including file's directory for "x.h",
 * the -iquote, -I, -isystem and -idirafter directories of its arguments,
 * and the system directories libclang found headers in) where nothing is
 * now; a file appearing at any of them misses the cache.  Directories
 * after the one that answered are listed too: a few needless misses if
 * files appear there, never a stale hit.  `#include_next` directives are
 * left out (they search on from where their header was found). */
#ifndef EL_INCLUDE_SEARCH_H
#define EL_INCLUDE_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include "clang_api.h"

#include "filehash.h"
#include "finding.h"

/* Add to res->absent the empty places tu's include search looked at;
 * directives are every #include of the TU (its InclusionDirective
 * cursors: the engine's walk collects them), args are the TU's compiler
 * arguments, answers about what exists are shared through fs.  False
 * when the tree on disk no longer matches what libclang found (a header
 * appeared where the search would have taken it): then the result must
 * not be cached. */
bool el_include_search_absent(CXTranslationUnit tu, const CXCursor *directives, size_t n_directives,
                              char *const *args, size_t n_args, el_filehash *fs, el_tu_result *res);

#endif
