/* lint/merge.h -- `emberlint merge REPORT...`: the reports of the shards
 * of a run (--shard K/N, json or sarif) joined into the report one run
 * over everything gives (engine/shard.h says how). */
#ifndef EL_MERGE_H
#define EL_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "cli.h"
#include "sources.h"

/* How a shard was run, for its payload: the paths it linted (relative to
 * the current directory when under it), --config, --select, --ignore,
 * --max-file-size, and with -p and no PATH (db_only) what the notes of
 * such a run need (el_shard_invocation_db_only: the sources collected). */
json_object *el_merge_invocation(const el_cli *c, char *const *paths, size_t n_paths, bool db_only,
                                 const el_sources *sources);
/* Run the merge; the exit status (as a lint run's). */
int el_merge_run(el_cli *c);

#endif
