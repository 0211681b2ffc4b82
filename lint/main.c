/* lint/main.c -- emberlint: the libclang-based linter of EmberHarmony.
 *
 * Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage,
 * configuration or I/O error (`emberlint: what went wrong` on stderr). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <clang-c/Index.h>

#include "cli.h"
#include "compdb.h"
#include "config.h"
#include "engine.h"
#include "filehash.h"
#include "knowledge.h"
#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "report.h"
#include "sources.h"

#ifndef EL_VERSION
#define EL_VERSION "0.0.0"
#endif

#define EXIT_FINDINGS 1
#define EXIT_TROUBLE 2
#define DEFAULT_CACHE_DIR ".emberlint-cache"

static int trouble(const char *msg)
{
    fprintf(stderr, "emberlint: %s\n", msg);
    return EXIT_TROUBLE;
}

static void list_rules(bool as_json)
{
    if (as_json) {
        json_object *arr = json_object_new_array();
        for (size_t k = 0; k < el_meta_count(); k++) {
            const el_rule_meta *m = el_meta_at(k);
            json_object *o = json_object_new_object();
            char applies[64];
            json_object_object_add(o, "id", json_object_new_string(m->id));
            json_object_object_add(o, "name", json_object_new_string(m->name));
            json_object_object_add(o, "severity", json_object_new_string(el_severity_name(m->severity)));
            json_object_object_add(o, "applies_to",
                                   json_object_new_string(el_applies_str(m->applies, applies, sizeof applies)));
            json_object_object_add(o, "summary", json_object_new_string(m->summary));
            json_object_object_add(o, "fixable", json_object_new_boolean(m->fixable));
            json_object_object_add(o, "fix", json_object_new_string(m->fix));
            json_object_object_add(o, "implemented", json_object_new_boolean(el_meta_implemented(m)));
            json_object_array_add(arr, o);
        }
        puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                     JSON_C_TO_STRING_NOSLASHESCAPE));
        json_object_put(arr);
        return;
    }
    printf("%-6s %-30s %-8s %-22s %-7s %s\n", "ID", "NAME", "SEVERITY", "APPLIES TO", "FIX", "SUMMARY");
    for (size_t k = 0; k < el_meta_count(); k++) {
        const el_rule_meta *m = el_meta_at(k);
        char applies[64];
        printf("%-6s %-30s %-8s %-22s %-7s %s%s\n", m->id, m->name, el_severity_name(m->severity),
               el_applies_str(m->applies, applies, sizeof applies), m->fix, m->summary,
               el_meta_implemented(m) ? "" : " (not implemented yet)");
    }
}

static int explain(const char *id)
{
    char up[16];
    size_t i;
    for (i = 0; id[i] && i < sizeof up - 1; i++)
        up[i] = (char)(id[i] >= 'a' && id[i] <= 'z' ? id[i] - 'a' + 'A' : id[i]);
    up[i] = '\0';
    int k = el_meta_index(up);
    for (size_t j = 0; k < 0 && j < el_meta_count(); j++)
        if (strcmp(el_meta_at(j)->name, id) == 0)
            k = (int)j;
    if (k < 0) {
        fprintf(stderr, "emberlint: --explain: no rule is named '%s' (see emberlint --list-rules)\n", id);
        return EXIT_TROUBLE;
    }
    const el_rule_meta *m = el_meta_at((size_t)k);
    if (m->doc) {
        fputs(m->doc, stdout);
    } else {
        printf("# %s %s\n\n%s\n\n(No documentation page yet: docs/rules/%s.md.)\n", m->id, m->name,
               m->summary, m->id);
    }
    return 0;
}

static bool want_color(const el_cli *c, FILE *out)
{
    if (c->color >= 0)
        return c->color == 1;
    const char *nc = getenv("NO_COLOR");
    if (nc && nc[0])
        return false;
    const char *term = getenv("TERM");
    if (term && strcmp(term, "dumb") == 0)
        return false;
    return isatty(fileno(out));
}

static int lint(el_cli *c)
{
    size_t nm = el_meta_count();
    bool *selected = el_xcalloc(nm + 1, sizeof *selected);
    char *err = NULL;
    if (el_cli_selection(c, selected, &err) < 0) {
        fprintf(stderr, "emberlint: %s\n", err);
        free(err);
        free(selected);
        return EXIT_TROUBLE;
    }
    el_compdb *db = NULL;
    if (c->build_dir) {
        db = el_compdb_load(c->build_dir, &err);
        if (!db) {
            fprintf(stderr, "emberlint: %s\n", err);
            free(err);
            free(selected);
            return EXIT_TROUBLE;
        }
    }
    char **paths = c->paths;
    size_t n_paths = c->n_paths;
    char **db_paths = NULL;
    if (!n_paths && db) {
        n_paths = el_compdb_file_count(db);
        db_paths = el_xcalloc(n_paths + 1, sizeof *db_paths);
        for (size_t i = 0; i < n_paths; i++)
            db_paths[i] = (char *)el_compdb_file(db, i);
        paths = db_paths;
    }
    if (!n_paths) {
        el_compdb_free(db);
        free(selected);
        fprintf(stderr, "emberlint: no PATH given (see emberlint --help)\n");
        return EXIT_TROUBLE;
    }

    int rc = EXIT_TROUBLE;
    el_configs *cfgs = el_configs_new(c->config, &err);
    el_filehash *hashes = el_filehash_new();
    el_sources sources = {0};
    el_findings findings = {0};
    FILE *out = NULL;
    if (!cfgs) {
        fprintf(stderr, "emberlint: %s\n", err);
        free(err);
        goto done;
    }
    if (el_sources_collect(paths, n_paths, cfgs, c->max_file_size, hashes, &sources) < 0)
        goto done;
    el_configs_finalize(cfgs);

    el_engine_opts eo = {
        .jobs = c->jobs > 0 ? c->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN),
        .cache_dir = c->no_cache ? NULL : (c->cache_dir ? c->cache_dir : DEFAULT_CACHE_DIR),
        .extra_args = c->extra,
        .n_extra = c->n_extra,
        .compdb = db,
        .selected = selected,
        .progress = isatty(STDERR_FILENO) && !c->verbose,
    };
    if (eo.jobs < 1)
        eo.jobs = 1;
    el_engine_stats stats = {0, 0};
    el_engine_run(&eo, &sources, hashes, &findings, &stats);
    if (c->verbose)
        fprintf(stderr, "emberlint: %zu files, %zu translation units (%zu from the cache), %zu findings\n",
                sources.n, stats.tus, stats.cached, findings.n);

    out = c->output ? fopen(c->output, "w") : stdout;
    if (!out) {
        fprintf(stderr, "emberlint: %s: cannot write: %s\n", c->output, strerror(errno));
        goto done;
    }
    el_output rep = {&findings, &sources, want_color(c, out), c->statistics};
    int wr;
    switch (c->format) {
    case EL_FORMAT_JSON:
        wr = el_report_json(out, &rep);
        break;
    case EL_FORMAT_SARIF:
        wr = el_report_sarif(out, &rep);
        break;
    case EL_FORMAT_GITHUB:
        wr = el_report_github(out, &rep);
        break;
    default:
        wr = el_report_text(out, &rep);
        break;
    }
    if (out != stdout && fclose(out) != 0)
        wr = -1;
    out = NULL;
    if (wr < 0) {
        fprintf(stderr, "emberlint: %s: write error\n", c->output ? c->output : "standard output");
        goto done;
    }
    if (sources.io_errors) {
        rc = EXIT_TROUBLE;
        goto done;
    }
    rc = 0;
    for (size_t i = 0; i < findings.n; i++)
        if (findings.v[i].severity >= c->fail_on)
            rc = EXIT_FINDINGS;
done:
    el_findings_free(&findings);
    el_sources_free(&sources);
    el_filehash_free(hashes);
    el_configs_free(cfgs);
    el_compdb_free(db);
    free(db_paths);
    free(selected);
    return rc;
}

int main(int argc, char **argv)
{
    el_path_init();
    el_cli cli;
    char *err = NULL;
    if (el_cli_parse(argc, argv, &cli, &err) < 0) {
        fprintf(stderr, "emberlint: %s (see emberlint --help)\n", err);
        free(err);
        el_cli_free(&cli);
        return EXIT_TROUBLE;
    }
    int rc = 0;
    if (cli.help) {
        el_cli_usage(stdout);
        el_cli_free(&cli);
        return 0;
    }
    if (cli.version) {
        CXString v = clang_getClangVersion();
        printf("emberlint %s (%s)\n", EL_VERSION, clang_getCString(v));
        clang_disposeString(v);
        el_cli_free(&cli);
        return 0;
    }
    if (el_meta_init(&err) < 0 || el_knowledge_init(&err) < 0) {
        rc = trouble(err);
        free(err);
    } else if (cli.list_rules) {
        list_rules(cli.format == EL_FORMAT_JSON);
    } else if (cli.explain) {
        rc = explain(cli.explain);
    } else {
        rc = lint(&cli);
    }
    fflush(stdout);
    if (ferror(stdout) && rc != EXIT_TROUBLE)
        rc = trouble("standard output: write error");
    el_knowledge_free();
    el_meta_free();
    el_cli_free(&cli);
    return rc;
}
