/* lint/engine/shard_select.h -- which shard of a --shard K/N run a file
 * belongs to: a stable hash of its path relative to the repository root
 * (the nearest directory above the current one holding .git, else the
 * current directory), so every machine of a CI matrix picks the same
 * disjoint parts whatever the checkout's location.  The engine selects
 * its translation units with it; shard.h carries the results to the
 * merge. */
#ifndef EL_SHARD_SELECT_H
#define EL_SHARD_SELECT_H

#define EL_MAX_SHARDS 100000u

/* "K/N" with 1 <= K <= N: *index = K - 1, *count = N.  -1 with *err. */
int el_shard_parse(const char *spec, unsigned *index, unsigned *count, char **err);
/* The shard (0-based) of a file (absolute path) among count. */
unsigned el_shard_of(const char *path, unsigned count);
/* The repository root shard paths are relative to (see above). */
const char *el_shard_root(void);

#endif
