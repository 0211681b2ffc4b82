/* lint/merge.h -- `emberlint merge REPORT...`: the reports of the shards
 * of a run (--shard K/N, json or sarif) joined into the report one run
 * over everything gives (engine/shard.h says how). */
#ifndef EL_MERGE_H
#define EL_MERGE_H

#include <stddef.h>
#include <json-c/json.h>

#include "cli.h"

/* How a shard was run, for its payload: the paths it linted (relative to
 * the current directory when under it), --config, --select, --ignore,
 * --max-file-size. */
json_object *el_merge_invocation(const el_cli *c, char *const *paths, size_t n_paths);
/* Run the merge; the exit status (as a lint run's). */
int el_merge_run(el_cli *c);

#endif
