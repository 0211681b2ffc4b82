/* lint/engine/cache.h -- the result cache (default .emberlint-cache/).
 *
 * One entry per translation unit, named by a key that covers the tool
 * (version and binary), the main file's path, its compiler arguments, its
 * configuration and the rules that run (the engine computes it).  The
 * entry lists every file the TU read with a token of the content libclang
 * parsed (and, for linted files, their class and configuration), and the
 * paths the include search found empty; it is used only when every token
 * still matches the file on disk and every empty path is still empty, so
 * an edited header, or a new one that would shadow another, invalidates
 * every TU it concerns.  TUs that parse with errors are stored like the
 * others; only a TU libclang produced nothing for is not.
 *
 * Entries are input, as a build cache's are: an entry is read only from
 * a regular file (not through a symbolic link, size-limited), must carry
 * its own key and a checksum over its content, and every field is
 * checked (known rule IDs, findings in files the TU read, ...); anything
 * else is a miss, and the entry is rewritten.  Paths inside the tree are
 * stored relative to the root given to el_cache_open, so a cache moved
 * with its tree (another checkout, a CI cache) still applies.  Entries
 * are written to a fresh temporary file in the cache directory (O_EXCL,
 * no symbolic links followed) and renamed into place, so concurrent and
 * interrupted runs are safe.  The cache directory itself must not be a
 * symbolic link.  docs/emberlint.md has the trust model. */
#ifndef EL_CACHE_H
#define EL_CACHE_H

#include <stdbool.h>

#include "finding.h"
#include "hash.h"

typedef struct el_cache el_cache;

/* The default cache directory for a run on paths[0..n): .emberlint-cache
 * in the current directory when every path is inside it, else NULL (no
 * cache: a run on a tree elsewhere creates nothing outside it; --cache-dir
 * names a directory explicitly). */
const char *el_cache_default_dir(char *const *paths, size_t n);

/* Open (create) the cache directory; paths under root are stored relative
 * to it.  NULL with *err when the directory cannot be used. */
el_cache *el_cache_open(const char *dir, const char *root, char **err);

/* The questions a load asks about the files an entry names. */
typedef struct el_cache_check {
    /* the file's token now (content, class, configuration) equals token */
    bool (*dep_ok)(const char *path, el_hash128 token, void *ud);
    /* nothing is at path (a file there would shadow a header) */
    bool (*absent_ok)(const char *path, void *ud);
    void *ud;
} el_cache_check;

/* Load the entry for key into out when it is valid and every check
 * holds; out is untouched on a miss. */
bool el_cache_load(el_cache *c, el_hash128 key, el_tu_result *out, const el_cache_check *check);
/* Store r (its deps carry tokens) under key. */
void el_cache_store(el_cache *c, el_hash128 key, const el_tu_result *r);
void el_cache_close(el_cache *c);

/* A string with the root replaced by a placeholder (for cache keys); a
 * new string. */
char *el_cache_relocatable(const el_cache *c, const char *s);

#endif
