/* migrate/merge.c -- ember-migrate merge: the reports of `analyze --shard
 * K/N --format json` joined (lint/engine/shard.h) and analyzed as one
 * (options.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "mem.h"
#include "options.h"
#include "shard.h"

int em_run_merge(const em_opts *o)
{
    size_t n = o->scan.n_paths;
    json_object **reports = el_xcalloc(n + 1, sizeof *reports);
    json_object **payloads = el_xcalloc(n + 1, sizeof *payloads);
    const char **whats = el_xcalloc(n + 1, sizeof *whats);
    char **paths = NULL;
    char *err = NULL;
    int rc = 2;
    for (size_t i = 0; i < n; i++) {
        whats[i] = o->scan.paths[i];
        if (!(reports[i] = json_object_from_file(whats[i]))) {
            err = el_xasprintf("%s: cannot read it as JSON (a report of analyze --shard K/N --format json)",
                               whats[i]);
            goto done;
        }
        payloads[i] = el_shard_payload_of(reports[i]);
    }
    /* the shards' paths (every shard's invocation is checked equal when
     * the shards are joined) */
    json_object *inv = el_shard_invocation(payloads[0], "ember-migrate", whats[0], &err);
    size_t n_paths = 0;
    if (!inv || !(paths = el_shard_invocation_paths(inv, &n_paths, whats[0], &err)))
        goto done;
    /* here, by the files the shards name, before the paths are
     * walked (a merge elsewhere, "." from `/`, would walk what lies there) */
    if (el_shard_check_here(payloads, whats, n, "ember-migrate", &err) < 0)
        goto done;
    em_opts whole = *o;
    whole.scan.paths = paths;
    whole.scan.n_paths = n_paths;
    whole.scan.merge_payloads = payloads;
    whole.scan.merge_whats = whats;
    whole.scan.n_merge = n;
    rc = em_run_analyze(&whole);
done:
    if (err) {
        fprintf(stderr, "ember-migrate: %s\n", err);
        free(err);
    }
    for (size_t i = 0; i < n; i++)
        if (reports[i])
            json_object_put(reports[i]);
    free(reports);
    free(payloads);
    free(whats);
    free(paths);
    return rc;
}
