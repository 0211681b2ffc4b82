/* lint/engine/shard_select.c -- which shard a file belongs to
 * (shard_select.h). */
#include "shard_select.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "mem.h"
#include "path.h"

#define MAX_SHARDS EL_MAX_SHARDS

int el_shard_parse(const char *spec, unsigned *index, unsigned *count, char **err)
{
    char *end;
    unsigned long k = strtoul(spec, &end, 10), n = 0;
    bool ok = end != spec && *end == '/' && spec[0] >= '0' && spec[0] <= '9';
    if (ok) {
        const char *ns = end + 1;
        n = strtoul(ns, &end, 10);
        ok = end != ns && *end == '\0' && ns[0] >= '0' && ns[0] <= '9';
    }
    if (!ok || n < 1 || n > MAX_SHARDS || k < 1 || k > n) {
        *err = el_xasprintf("--shard: expected K/N with 1 <= K <= N <= %u, got '%s'", MAX_SHARDS, spec);
        return -1;
    }
    *index = (unsigned)k - 1;
    *count = (unsigned)n;
    return 0;
}

static char *root_dir;

const char *el_shard_root(void)
{
    if (!root_dir) /* the cache's paths are relative to the same directory */
        root_dir = el_path_repo_root();
    return root_dir;
}

unsigned el_shard_of(const char *path, unsigned count)
{
    if (count <= 1)
        return 0;
    char *rel = el_path_under(path, el_shard_root());
    if (!rel)
        rel = el_xstrdup(path);
    el_hash128 h = el_hash_bytes(rel, strlen(rel));
    free(rel);
    return (unsigned)(h.a % count);
}
