/* lint/engine/shard.h -- splitting a run across machines (--shard K/N)
 * and joining the parts again (emberlint merge, ember-migrate merge).
 *
 * A translation unit belongs to shard K of N by a stable hash of its main
 * file's path relative to the repository root (the nearest directory
 * above the current one holding .git, else the current directory), so
 * every machine of a CI matrix picks the same disjoint parts whatever the
 * checkout's location.
 *
 * A shard's report carries a payload (JSON report: key "shard"; SARIF:
 * runs[0].properties.emberlintShard) with what the merge needs to finish
 * the run exactly as one machine would: every TU's own findings (with
 * fixes) and facts, before project hooks and suppressions, the linted
 * files each read, the shard's position, how the run was invoked and a
 * hash of the tree it saw.  The merge walks the same tree again (cheap:
 * no parsing), checks it is the same, keeps a header's own TU only when
 * no .c file of any shard included it, and runs the project hooks and
 * suppressions over the union.  Paths in the payload are relative to the
 * root, so the merge may run in another checkout of the same tree. */
#ifndef EL_SHARD_H
#define EL_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>

#include "engine.h"
#include "shard_select.h"
#include "sources.h"

/* The payload of a shard's report; invocation (owned by the payload from
 * now on) says how the tool was run, for the merge to run the same way. */
json_object *el_shard_payload(const char *tool, unsigned index, unsigned count,
                              json_object *invocation, const el_sources *sources,
                              const el_tu_records *recs);
/* The payload inside a report (JSON or SARIF), or NULL. */
json_object *el_shard_payload_of(json_object *report);
/* The invocation of a payload (borrowed), or NULL with *err when it is
 * not a payload of `tool`. */
json_object *el_shard_invocation(json_object *payload, const char *tool, const char *what, char **err);

/* A run with -p BUILD and no PATH: its invocation says so, for the
 * merge to print the notes such a run prints ("db_only": BUILD as given;
 * "excluded": the database's files "exclude" matches, root-relative,
 * el_sources_named_excluded).  Every shard records the same, so the
 * merge checks them equal with the rest of the invocation. */
void el_shard_invocation_db_only(json_object *invocation, const char *build_dir, const el_sources *s);
/* Of an invocation: its BUILD (borrowed) when the shards ran with -p
 * and no PATH, else NULL; *excluded: s->n flags (calloc'd) for the files
 * of s it records as excluded, or NULL when none. */
const char *el_shard_db_only(json_object *invocation, const el_sources *s, bool **excluded);

/* The "paths" of an invocation (strings borrowed from it, the array
 * malloc'd, *n set); NULL with *err when it has none.  what: the report,
 * for the message. */
char **el_shard_invocation_paths(json_object *invocation, size_t *n, const char *what, char **err);

/* 0 when the current directory is where the payload's shard ran
 * (relative to the repository root), else -1 with *err: checked before
 * the merge walks the shards' paths, which are relative to it. */
int el_shard_check_cwd(json_object *payload, const char *what, char **err);

/* 0 when every payload is one of `tool`'s, ran in the current directory
 * (el_shard_check_cwd) and some file the payloads name (their
 * translation units' main files, the files they did not build) is here,
 * else -1 with *err.  Only those files are looked at: checked before the
 * merge walks the shards' paths, so that a merge in the wrong directory
 * (`/`, a home directory) says so without walking what lies there.  Some
 * of them missing only is a tree changed since the shards ran, which
 * el_shard_join says. */
int el_shard_check_here(json_object *const *payloads, const char *const *whats, size_t n,
                        const char *tool, char **err);

/* Join the payloads of every shard of a run into TU records in job order
 * (.c files in source order, then the headers no .c included), checked
 * against the sources the merge collected: every shard once, the same
 * invocation and tree.  -1 with *err.  whats[i] names payload i (its
 * file) in messages; done, what the tool did with the files (EL_LINTED,
 * ember-migrate's "scanned"). */
int el_shard_join(json_object *const *payloads, const char *const *whats, size_t n,
                  const char *tool, const char *done, el_sources *sources, el_tu_records *out, char **err);

#endif
