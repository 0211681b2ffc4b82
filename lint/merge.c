/* lint/merge.c -- emberlint merge (merge.h). */
#include "merge.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "deliver.h"
#include "engine.h"
#include "filehash.h"
#include "gate.h"
#include "mem.h"
#include "metadata.h"
#include "own_routines.h"
#include "path.h"
#include "progname.h"
#include "shard.h"
#include "sources.h"

static json_object *str_or_null(const char *s)
{
    return s ? json_object_new_string(s) : NULL;
}

json_object *el_merge_invocation(const el_cli *c, char *const *paths, size_t n_paths, bool db_only,
                                 const el_sources *sources)
{
    json_object *o = json_object_new_object();
    json_object *ps = json_object_new_array();
    for (size_t i = 0; i < n_paths; i++) {
        char *abs = el_path_abs(paths[i]);
        char *rel = el_path_under(abs, el_cwd());
        json_object_array_add(ps, json_object_new_string(paths[i][0] == '/' && rel ? rel : paths[i]));
        free(rel);
        free(abs);
    }
    json_object_object_add(o, "paths", ps);
    json_object_object_add(o, "config", str_or_null(c->config));
    json_object_object_add(o, "select", str_or_null(c->select));
    json_object_object_add(o, "ignore", str_or_null(c->ignore));
    json_object_object_add(o, "max_file_size", json_object_new_int64((int64_t)c->max_file_size));
    /* (whether, not where: the merge's machine need not have the build) */
    json_object_object_add(o, "compdb", json_object_new_boolean(c->build_dir != NULL));
    if (db_only)
        el_shard_invocation_db_only(o, c->build_dir, sources);
    return o;
}

static const char *inv_str(json_object *inv, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(inv, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

typedef struct merge_in {
    json_object **reports;
    json_object **payloads;
    const char **whats;
    size_t n;
} merge_in;

static void merge_in_free(merge_in *m)
{
    for (size_t i = 0; i < m->n; i++)
        json_object_put(m->reports[i]);
    free(m->reports);
    free(m->payloads);
    free(m->whats);
}

/* Read every report and find its payload. */
static int read_reports(el_cli *c, merge_in *m, char **err)
{
    m->n = 0;
    m->reports = el_xcalloc(c->n_paths + 1, sizeof *m->reports);
    m->payloads = el_xcalloc(c->n_paths + 1, sizeof *m->payloads);
    m->whats = el_xcalloc(c->n_paths + 1, sizeof *m->whats);
    for (size_t i = 0; i < c->n_paths; i++) {
        const char *path = c->paths[i];
        json_object *j = json_object_from_file(path);
        if (!j) {
            FILE *f = fopen(path, "r");
            *err = f ? el_xasprintf("%s: not a json or sarif report", path)
                     : el_xasprintf("%s: cannot read", path);
            if (f)
                fclose(f);
            return -1;
        }
        m->reports[m->n] = j;
        m->whats[m->n] = path;
        m->payloads[m->n] = el_shard_payload_of(j);
        m->n++;
        if (!el_shard_invocation(m->payloads[m->n - 1], "emberlint", path, err))
            return -1;
    }
    return 0;
}

/* One of paths[0..n) exists here (else the merge runs in another
 * directory than the shards did: outside a git work tree, where the
 * current directory is the root, el_shard_check_cwd cannot tell). */
static bool any_here(char *const *paths, size_t n)
{
    struct stat st;
    for (size_t i = 0; i < n; i++)
        if (stat(paths[i], &st) == 0)
            return true;
    return false;
}

int el_merge_run(el_cli *c)
{
    char *err = NULL;
    int rc = EL_EXIT_TROUBLE;
    merge_in m = {0};
    el_configs *cfgs = NULL;
    el_filehash *hashes = NULL;
    el_sources sources = {0};
    el_tu_records recs = {0};
    el_findings findings = {0};
    bool *selected = NULL;
    char **paths = NULL;
    el_gate gate;
    memset(&gate, 0, sizeof gate);
    if (!c->n_paths) {
        fprintf(stderr, "emberlint: merge: no shard report given (see emberlint --help)\n");
        return EL_EXIT_TROUBLE;
    }
    if (read_reports(c, &m, &err) < 0 || el_gate_open(&gate, c, &err) < 0)
        goto fail;

    /* The shards' run again, up to the parsing: the same files, classes
     * and configuration; every shard's invocation is checked equal by
     * el_shard_join. */
    json_object *inv = el_shard_invocation(m.payloads[0], "emberlint", m.whats[0], &err);
    json_object *mfs;
    if (el_shard_check_cwd(m.payloads[0], m.whats[0], &err) < 0)
        goto fail; /* (before its paths, relative to there, are walked) */
    size_t n_paths = 0;
    if (!(paths = el_shard_invocation_paths(inv, &n_paths, m.whats[0], &err)))
        goto fail;
    if (!n_paths) { /* a shard lints at least one path: paths[0] is NULL */
        err = el_xasprintf("%s: the shard payload is malformed (it lists no path)", m.whats[0]);
        goto fail;
    }
    if (!any_here(paths, n_paths)) {
        err = el_xasprintf("%s: none of the paths the shard linted (%s%s) is here: run the merge in "
                           "the directory the shards ran in", m.whats[0], paths[0],
                           n_paths > 1 ? ", ..." : "");
        goto fail;
    }
    /* (by the files the shards name, before the walk: a merge in
     * another directory where the paths exist, "." from `/`, would walk
     * whatever lies there before it found the tree differs) */
    if (el_shard_check_here(m.payloads, m.whats, m.n, "emberlint", &err) < 0)
        goto fail;
    if (!json_object_object_get_ex(inv, "max_file_size", &mfs)) {
        err = el_xasprintf("%s: the shard payload is malformed", m.whats[0]);
        goto fail;
    }
    el_cli shard_cli = *c;
    shard_cli.select = (char *)inv_str(inv, "select");
    shard_cli.ignore = (char *)inv_str(inv, "ignore");
    selected = el_xcalloc(el_meta_count() + 1, sizeof *selected);
    if (el_cli_selection(&shard_cli, selected, &err) < 0)
        goto fail;
    if (!(cfgs = el_configs_new(inv_str(inv, "config"), &err)))
        goto fail;
    hashes = el_filehash_new();
    if (el_sources_collect(paths, n_paths, cfgs, (size_t)json_object_get_int64(mfs), hashes, &sources) < 0)
        goto done; /* printed */
    el_configs_finalize(cfgs);
    if (el_shard_join(m.payloads, m.whats, m.n, "emberlint", EL_LINTED, &sources, &recs, &err) < 0)
        goto fail;
    el_unbuilt_mark(&recs.unbuilt, &sources);
    el_unbuilt_note(&recs.unbuilt, c->verbose, EL_LINTED, EL_LINT);
    json_object *had_db;
    el_fact_list facts = {0};
    el_engine_opts eo = {.selected = selected,
                         .shards_had_compdb = json_object_object_get_ex(inv, "compdb", &had_db) &&
                                              json_object_get_boolean(had_db),
                         .facts_out = &facts};
    el_engine_finish(&eo, &sources, &recs, &findings);
    /* (the shards say neither) */
    el_sources_note_unwalked_cxx(&sources, EL_LINTED, EL_LINT);
    /* and, when the shards ran with -p and no PATH, the notes of such a run */
    bool *excluded = NULL;
    const char *db_only = el_shard_db_only(inv, &sources, &excluded);
    if (db_only)
        el_sources_note_excluded(&sources, excluded, db_only, EL_LINTED);
    free(excluded);
    el_own_routines_note_facts(&sources, &facts, db_only, "not reported", "lints", stderr);
    el_fact_list_free(&facts);
    if (c->verbose)
        fprintf(stderr, "emberlint: merged %zu shard%s: %zu files, %zu translation units, %zu findings\n",
                m.n, m.n == 1 ? "" : "s", el_sources_linted(&sources), recs.n, findings.n);
    rc = el_deliver(c, &gate, &findings, &sources, false, NULL, sources.io_errors > 0);
    goto done;
fail:
    fprintf(stderr, "emberlint: %s\n", err);
    free(err);
done:
    el_findings_free(&findings);
    el_tu_records_free(&recs);
    el_sources_free(&sources);
    el_filehash_free(hashes);
    el_configs_free(cfgs);
    free(selected);
    free(paths);
    el_gate_close(&gate);
    merge_in_free(&m);
    return rc;
}
