/* lint/engine/cache.h -- the result cache (default .emberlint-cache/).
 *
 * One entry per translation unit, named by a key that covers the tool
 * (version and binary), the main file's path, its compiler arguments, its
 * configuration and the rules that run.  The entry lists every file the TU
 * read with a token of its content (and, for linted files, their class
 * and configuration); it is used only when every token still matches, so
 * an edited header invalidates every TU that includes it.  TUs with errors
 * are never stored.  Entries are written atomically (temporary file and
 * rename), so concurrent runs and interrupted runs are safe; an unreadable
 * or corrupt entry is a miss. */
#ifndef EL_CACHE_H
#define EL_CACHE_H

#include <stdbool.h>

#include "finding.h"
#include "hash.h"

typedef struct el_cache el_cache;

/* Open (create) the cache directory; NULL with *err when impossible. */
el_cache *el_cache_open(const char *dir, char **err);
/* Load the entry for key into out when dep_ok(path, token, ud) holds for
 * every file it lists.  out is empty on a miss. */
bool el_cache_load(el_cache *c, el_hash128 key, el_tu_result *out,
                   bool (*dep_ok)(const char *path, el_hash128 token, void *ud), void *ud);
/* Store r (its deps carry tokens) under key. */
void el_cache_store(el_cache *c, el_hash128 key, const el_tu_result *r);
void el_cache_close(el_cache *c);

#endif
