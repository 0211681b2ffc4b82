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
#include <time.h>
#include "clang_api.h"

#include "filehash.h"
#include "finding.h"

/* How the run's directives are written (<...>, "...", #include_next),
 * shared by its TUs and threads: each header's directives are tokenized
 * once a run, not once for every TU that includes the header.  Only for
 * files older than `started` by more than a second (a file rewritten
 * during the run has a new modification time, which is part of the key). */
typedef struct el_include_memo el_include_memo;
el_include_memo *el_include_memo_new(time_t started);
void el_include_memo_free(el_include_memo *m);

/* Add to res->absent the empty places tu's include search looked at;
 * directives are every #include of the TU (its InclusionDirective
 * cursors: the engine's walk collects them), args are the TU's compiler
 * arguments, answers about what exists are shared through fs, how
 * directives are written through memo (NULL: none).  False
 * when the tree on disk no longer matches what libclang found (a header
 * appeared where the search would have taken it): then the result must
 * not be cached. */
bool el_include_search_absent(CXTranslationUnit tu, const CXCursor *directives, size_t n_directives,
                              char *const *args, size_t n_args, el_filehash *fs,
                              el_include_memo *memo, el_tu_result *res);

#endif
