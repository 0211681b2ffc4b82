/* lint/main.c -- emberlint: the libclang-based linter of EmberHarmony.
 *
 * Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage,
 * configuration or I/O error, or fixes that could not be applied
 * (`emberlint: what went wrong` on stderr).  --diff: 1 when there is a
 * diff. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "clang_api.h"

#include "cache.h"
#include "clang_util.h"
#include "cli.h"
#include "compdb.h"
#include "deliver.h"
#include "config.h"
#include "engine.h"
#include "filehash.h"
#include "fix.h"
#include "gate.h"
#include "journal.h"
#include "knowledge.h"
#include "mem.h"
#include "merge.h"
#include "metadata.h"
#include "own_routines.h"
#include "path.h"
#include "progname.h"
#include "registry.h"
#include "report.h"
#include "shard.h"
#include "sources.h"

#ifndef EL_VERSION
#define EL_VERSION "0.0.0"
#endif

#define EXIT_FINDINGS EL_EXIT_FINDINGS
#define EXIT_TROUBLE EL_EXIT_TROUBLE

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

/* One run of the engine over the paths, with what it needs. */
typedef struct lint_run {
    el_configs *cfgs;
    el_filehash *hashes;
    el_sources sources;
    el_findings findings;
    el_include_list includes;   /* want_fixes only */
    el_fact_list facts;         /* skipped code (lint/change/inactive.h: --fix/--diff), own copies */
    el_tu_records tus;          /* --shard only: every TU's own result */
    el_engine_stats stats;
} lint_run;

/* What a run keeps besides its findings. */
typedef struct lint_wants {
    bool fixes;                 /* the rules' fixes (--fix, --diff, SARIF, shards) */
    bool cache_fixes;           /* and still use the cache (not for --fix/--diff) */
    bool tus;                   /* each TU's own result (--shard) */
} lint_wants;

static void lint_run_free(lint_run *r)
{
    el_findings_free(&r->findings);
    el_sources_free(&r->sources);
    el_include_list_free(&r->includes);
    el_fact_list_free(&r->facts);
    el_tu_records_free(&r->tus);
    el_filehash_free(r->hashes);
    el_configs_free(r->cfgs);
    memset(r, 0, sizeof *r);
}

/* With --fix and --diff: what the preprocessor skipped (fixes it needs
 * are left out). */
static const el_rule *const fix_rules[] = {&el_inactive_rule, NULL};

/* Does the run print the notes on what it passed over and took as the
 * project's own?  Not a shard (the merge says them: what one run says)
 * nor a --diff-base run (a pre-commit hook's run on every commit: the
 * files it passes over are not the change's). */
static bool says_notes(const el_cli *c)
{
    return !c->shard_count && !c->diff_base;
}

/* Collect the sources and lint them; -1 on a configuration error
 * (printed). */
static int lint_once(const el_cli *c, const el_compdb *db, const bool *selected,
                     char *const *paths, size_t n_paths, char *const *walked, size_t n_walked,
                     lint_wants w, lint_run *r)
{
    bool want_fixes = w.fixes;
    bool fixing = w.fixes && !w.cache_fixes; /* --fix, --diff */
    char *err = NULL;
    memset(r, 0, sizeof *r);
    r->cfgs = el_configs_new(c->config, &err);
    r->hashes = el_filehash_new();
    if (!r->cfgs) {
        fprintf(stderr, "emberlint: %s\n", err);
        free(err);
        return -1;
    }
    if (c->shard_count) /* (the merge warns, as one run does) */
        el_configs_quiet_all_unmatched(r->cfgs);
    if (el_sources_collect(paths, n_paths, r->cfgs, c->max_file_size, r->hashes, &r->sources) < 0)
        return -1;
    el_sources_walked(&r->sources, walked, n_walked);
    el_configs_finalize(r->cfgs);
    /* a CI job pointed at the wrong directory passes silently otherwise;
     * a path that is missing or unreadable was said already (exit 2) */
    if (r->sources.n == 0 && r->sources.io_errors == 0)
        fprintf(stderr, "emberlint: warning: nothing to lint: no source or header under the given "
                        "paths (the configuration's \"languages\" and \"exclude\" say which "
                        "files a walk takes)\n");

    el_engine_opts eo = {
        .jobs = c->jobs > 0 ? c->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN),
        .cache_dir = c->no_cache ? NULL : c->cache_dir ? c->cache_dir : el_cache_default_dir(paths, n_paths),
        .extra_args = c->extra,
        .n_extra = c->n_extra,
        .compdb = db,
        .selected = selected,
        .progress = isatty(STDERR_FILENO) && !c->verbose,
        .verbose = c->verbose,
        .no_prefix_pch = c->no_pch,
        .all_bodies = c->all_bodies,
        .want_fixes = want_fixes,
        .cache_fixes = w.cache_fixes,
        .includes_out = want_fixes ? &r->includes : NULL,
        .extra_rules = fixing ? fix_rules : NULL,
        /* (the skipped code; EH102's own-use facts for the note on own
         * copies) */
        .facts_out = fixing || says_notes(c) ? &r->facts : NULL,
        .shard_index = c->shard_index,
        .shard_count = c->shard_count,
        .tus_out = w.tus ? &r->tus : NULL,
    };
    if (eo.jobs < 1)
        eo.jobs = 1;
    if (c->verbose && !c->no_cache && !eo.cache_dir)
        fprintf(stderr, "emberlint: note: no cache: a path is outside the current directory, where "
                        "the cache would go (--cache-dir DIR to cache anyway)\n");
    el_engine_run(&eo, &r->sources, r->hashes, &r->findings, &r->stats);
    if (c->verbose)
        fprintf(stderr, "emberlint: %zu files, %zu translation units (%zu from the cache), %zu findings\n",
                el_sources_linted(&r->sources), r->stats.tus, r->stats.cached, r->findings.n);
    if (c->verbose && r->stats.pchs)
        fprintf(stderr, "emberlint: %zu translation units read the system headers they start with "
                        "from %zu shared precompiled prefix%s\n",
                r->stats.prefixed, r->stats.pchs, r->stats.pchs == 1 ? "" : "es");
    if (c->verbose && r->stats.parsed_again)
        fprintf(stderr, "emberlint: %zu translation units parsed with a shared prefix were parsed "
                        "again without it: a rule reads every file of them\n",
                r->stats.parsed_again);
    if (c->verbose && r->stats.bodiless)
        fprintf(stderr, "emberlint: %zu translation units of backend and core files were parsed "
                        "without the function bodies no rule reads (%zu again with them: a rule "
                        "needed one)\n",
                r->stats.bodiless, r->stats.bodies_again);
    /* (which TUs go without bodies depends on their files alone, never on
     * the rest of the run: EH000, which sees errors in a body only when
     * it is parsed, reports the same in any run, shard or cache) */
    if (c->verbose && r->stats.bodies_again >= 4 && r->stats.bodies_again * 2 > r->stats.bodiless)
        fprintf(stderr, "emberlint: note: most translation units parsed without function bodies "
                        "needed them after all (their headers define functions frontend rules "
                        "read, or their code is a library's): --all-bodies parses each once\n");
    if (c->verbose && r->stats.macro_table_walks)
        fprintf(stderr, "emberlint: %zu translation units read their macro table in a walk of "
                        "its own (asked before the engine's walk had fed it)\n",
                r->stats.macro_table_walks);
    return 0;
}

/* The findings fixed count those whose fix lies inside another's (a call
 * in a collapsed branch); "(K unsafe fixes not applied: use
 * --unsafe-fixes)" when K > 0; and the findings that have no fix at all
 * (EH103's #ifdef, a call no op replaces) are counted, so that "would fix
 * 0 findings" on a report of 164 does not read as a failure to fix them. */
static void fix_summary(const char *verb, const el_fix_plan *plan, const el_findings *found)
{
    size_t no_fix = 0;
    for (size_t i = 0; i < found->n; i++)
        no_fix += found->v[i].fix == NULL;
    size_t fixed = plan->fixes + plan->covered;
    fprintf(stderr, "emberlint: %s %zu finding%s in %zu file%s", verb, fixed,
            fixed == 1 ? "" : "s", plan->files, plan->files == 1 ? "" : "s");
    if (plan->unsafe_left)
        fprintf(stderr, " (%zu unsafe fix%s not applied: use --unsafe-fixes)", plan->unsafe_left,
                plan->unsafe_left == 1 ? "" : "es");
    if (plan->kept)
        fprintf(stderr, " (%zu fix%s not applied: listed above)", plan->kept,
                plan->kept == 1 ? "" : "es");
    if (no_fix)
        fprintf(stderr, " (%zu finding%s no automatic fix)", no_fix,
                no_fix == 1 ? " has" : "s have");
    fputc('\n', stderr);
}

/* --fix and --diff on the findings of a run made with want_fixes.
 * *relint is set when files changed (the findings must be computed
 * again).  Exit status: 0, EXIT_FINDINGS (--diff: there is a diff), or
 * EXIT_TROUBLE. */
static int fix_or_diff(const el_cli *c, const el_compdb *db, lint_run *r, bool *relint)
{
    el_inactive inactive;
    el_inactive_from_facts(&inactive, &r->facts);
    el_bounds bounds;
    el_bounds_of_paths(&bounds, c->paths, c->n_paths);
    el_buildcfgs cfgs;
    char *err = NULL;
    if (el_buildcfgs_make(&cfgs, db, &r->sources, NULL, &err) < 0) {
        fprintf(stderr, "emberlint: %s\n", err);
        free(err);
        el_inactive_free(&inactive);
        el_bounds_free(&bounds);
        return EXIT_TROUBLE;
    }
    el_fix_opts fo = {
        .unsafe = c->unsafe_fixes,
        .compdb = db,
        .extra_args = c->extra,
        .n_extra = c->n_extra,
        .includes = &r->includes,
        .cfgs = &cfgs,
        .bounds = &bounds,
        .inactive = &inactive,
    };
    el_fix_plan plan;
    int rc = 0;
    *relint = false;
    if (el_fix_plan_make(&plan, &r->findings, &r->sources, &fo, &err) < 0) {
        fprintf(stderr, "emberlint: %s\n", err);
        free(err);
        el_fix_plan_free(&plan);
        rc = EXIT_TROUBLE;
        goto out;
    }
    if (c->diff) {
        /* what --fix would write: verified the same way */
        FILE *out = NULL;
        if (el_fix_plan_verify(&plan, &r->sources, &fo, &err) < 0) {
            fprintf(stderr, "emberlint: %s\n", err);
            free(err);
            rc = EXIT_TROUBLE;
        } else if (!(out = el_open_output(c))) {
            rc = EXIT_TROUBLE;
        } else {
            int wr = el_changeset_diff(&plan.cs, out);
            if (wr == 0) {
                fflush(out);
                wr = ferror(out) ? -1 : 0;
            }
            if (el_close_output(c, out, wr) < 0)
                rc = EXIT_TROUBLE;
            else if (!el_changeset_empty(&plan.cs))
                rc = EXIT_FINDINGS;
            fix_summary("would fix", &plan, &r->findings);
        }
    } else if (el_fix_plan_commit(&plan, &r->sources, &fo, &err) < 0) {
        fprintf(stderr, "emberlint: %s\n", err);
        free(err);
        rc = EXIT_TROUBLE;
    } else {
        fix_summary("fixed", &plan, &r->findings);
        *relint = !el_changeset_empty(&plan.cs);
    }
    if (plan.refused && rc != EXIT_TROUBLE)
        rc = EXIT_TROUBLE; /* asked-for fixes were not applied */
    el_fix_plan_free(&plan);
out:
    el_buildcfgs_free(&cfgs);
    el_bounds_free(&bounds);
    el_inactive_free(&inactive);
    return rc;
}

/* --show-config FILE (a directory: the configuration of its files). */
static int show_config(const el_cli *c)
{
    struct stat st;
    if (stat(c->show_config, &st) != 0) {
        fprintf(stderr, "emberlint: --show-config: %s: %s\n", c->show_config, strerror(errno));
        return EXIT_TROUBLE;
    }
    char *err = NULL;
    el_configs *cfgs = el_configs_new(c->config, &err);
    char *abs = el_path_abs(c->show_config);
    char *probe = S_ISDIR(st.st_mode) ? el_path_join(abs, "x.c") : el_xstrdup(abs);
    const el_config *cfg = cfgs ? el_configs_for(cfgs, probe, &err) : NULL;
    int rc = 0;
    if (!cfg) {
        rc = trouble(err);
        free(err);
    } else {
        el_configs_finalize(cfgs);
        el_config_show(stdout, cfg, probe);
    }
    free(probe);
    free(abs);
    el_configs_free(cfgs);
    return rc;
}

/* The files of a compile database that do not exist (generated by the
 * build, not built yet): one warning, not an I/O error each. */
static bool under_cwd(const char *path, void *ud)
{
    (void)ud;
    char *rel = el_path_under(path, el_cwd());
    free(rel);
    return rel != NULL;
}

/* The database's files that do not exist are left out (el_compdb_check_missing
 * has said which). */
static size_t drop_missing(char **paths, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) == 0)
            paths[kept++] = paths[i];
    }
    return kept;
}

/* Before --fix or --diff: a commit a kill interrupted is resolved first
 * (--fix), or reported (--diff).  -1 when the tree cannot be trusted. */
static int resolve_interrupted(const el_cli *c, char *const *paths, size_t n_paths)
{
    el_bounds b;
    el_bounds_of_paths(&b, paths, n_paths);
    char *err = NULL;
    int found = el_journal_recover(b.roots, b.n, c->fix && !c->diff, &err);
    el_bounds_free(&b);
    if (found < 0) {
        fprintf(stderr, "emberlint: %s\n", err);
        free(err);
        return -1;
    }
    return found > 0 && c->diff ? -1 : 0;
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
        if (db && el_compdb_check_missing(db, c->paths, c->n_paths, EL_LINTED, false, c->verbose,
                                           &err) < 0) {
            el_compdb_free(db);
            db = NULL;
        }
        if (!db) {
            fprintf(stderr, "emberlint: %s\n", err);
            free(err);
            free(selected);
            return EXIT_TROUBLE;
        }
    }
    size_t n_paths = c->n_paths;
    char **db_paths;
    char *const *paths = el_compdb_paths_or(db, c->paths, &n_paths, &db_paths);
    bool from_db = db_paths != NULL; /* (db_paths is freed before the message below) */
    char **headers = NULL;
    size_t n_headers = 0;
    if (from_db) {
        n_paths = drop_missing(db_paths, n_paths);
        /* and the headers under the current directory they include */
        headers = el_compdb_tree_headers_originals(db, db_paths, n_paths, under_cwd, NULL, &n_headers);
        db_paths = el_xrealloc(db_paths, (n_paths + n_headers + 1) * sizeof *db_paths);
        for (size_t i = 0; i < n_headers; i++)
            db_paths[n_paths++] = headers[i];
        paths = db_paths;
    }
    if (!n_paths) {
        size_t n_files = el_compdb_file_count(db);
        bool all_assembly = from_db && n_files > 0 && el_compdb_assembly_count(db) == n_files;
        el_compdb_free(db);
        free(db_paths);
        el_args_free(headers, n_headers);
        free(selected);
        if (all_assembly)
            fprintf(stderr, "emberlint: %s/compile_commands.json lists only assembly files: no C to lint "
                            "(name PATHs)\n", c->build_dir);
        else if (from_db) /* -p without PATH: the database lists nothing there is */
            fprintf(stderr, "emberlint: %s/compile_commands.json lists no file to lint (build first, "
                            "or name PATHs)\n", c->build_dir);
        else
            fprintf(stderr, "emberlint: no PATH given (see emberlint --help)\n");
        return EXIT_TROUBLE;
    }

    int rc = EXIT_TROUBLE;
    bool fixing = c->fix || c->diff;
    /* reports that show fixes (SARIF; a shard's, for the merge) keep them */
    bool show_fixes = c->format == EL_FORMAT_SARIF || c->shard_count;
    lint_wants w = {.fixes = fixing || show_fixes, .cache_fixes = !fixing, .tus = c->shard_count > 0};
    lint_run run;
    memset(&run, 0, sizeof run);
    el_gate gate;
    json_object *payload = NULL;
    if (el_gate_open(&gate, c, &err) < 0) {
        fprintf(stderr, "emberlint: %s\n", err);
        free(err);
        goto done;
    }
    if (fixing) {
        el_change_signals_install();
        if (resolve_interrupted(c, c->paths, c->n_paths) < 0)
            goto done;
    }
    if (lint_once(c, db, selected, paths, n_paths, headers, n_headers, w, &run) < 0)
        goto done;
    if (says_notes(c)) { /* once: not after a relint */
        el_sources_note_unwalked_cxx(&run.sources, EL_LINTED, EL_LINT);
        if (from_db)
            el_sources_note_named_excluded(&run.sources, c->build_dir, EL_LINTED);
        el_own_routines_note_facts(&run.sources, &run.facts, from_db ? c->build_dir : NULL,
                                   "not reported", "lints", stderr);
    }
    int fix_rc = 0;
    if (fixing) {
        bool relint = false;
        fix_rc = fix_or_diff(c, db, &run, &relint);
        if (c->diff) {
            rc = fix_rc;
            if (run.sources.io_errors)
                rc = EXIT_TROUBLE;
            goto done;
        }
        if (relint) {
            /* What remains after the fixes. */
            lint_run_free(&run);
            if (lint_once(c, db, selected, paths, n_paths, headers, n_headers, w, &run) < 0)
                goto done;
        }
    }
    if (c->shard_count)
        payload = el_shard_payload("emberlint", c->shard_index, c->shard_count,
                                   el_merge_invocation(c, paths, n_paths, from_db, &run.sources),
                                   &run.sources, &run.tus);
    rc = el_deliver(c, &gate, &run.findings, &run.sources, fixing, payload,
                    run.sources.io_errors || fix_rc == EXIT_TROUBLE);
done:
    if (payload)
        json_object_put(payload);
    el_gate_close(&gate);
    lint_run_free(&run);
    el_compdb_free(db);
    free(db_paths);
    el_args_free(headers, n_headers);
    free(selected);
    return rc;
}

int main(int argc, char **argv)
{
    el_path_init();
    elc_parse_in_caller_thread();
    elc_keep_heap();
    el_cli cli;
    char *err = NULL;
    if (el_cli_parse(argc, argv, &cli, &err) < 0) {
        fprintf(stderr, "emberlint: %s (see emberlint --help)\n", err);
        free(err);
        el_cli_free(&cli);
        return EXIT_TROUBLE;
    }
    int rc = 0;
    if (cli.help || cli.version) {
        if (cli.help) {
            el_cli_usage(stdout);
        } else {
            CXString v = clang_getClangVersion();
            printf("emberlint %s (%s)\n", EL_VERSION, clang_getCString(v));
            clang_disposeString(v);
        }
        el_cli_free(&cli);
        /* as for every other output: a full disk or a closed pipe is said */
        if (fflush(stdout) != 0 || ferror(stdout))
            return trouble("standard output: write error");
        return 0;
    }
    if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
        rc = trouble(err);
        free(err);
    } else if (cli.list_rules) {
        list_rules(cli.format == EL_FORMAT_JSON);
    } else if (cli.explain) {
        rc = explain(cli.explain);
    } else if (cli.show_config) {
        rc = show_config(&cli);
    } else if (cli.merge) {
        rc = el_merge_run(&cli);
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
