/* lint/cli.c -- command-line parsing (cli.h). */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mem.h"
#include "metadata.h"
#include "opt.h"
#include "shard.h"

#define DEFAULT_MAX_FILE_SIZE (64u << 20)

void el_cli_usage(FILE *f)
{
    fputs("usage: emberlint [options] PATH... [-- compiler arguments]\n"
          "       emberlint merge [--format F] [-o FILE] [report options] SHARD_REPORT...\n"
          "\n"
          "Lint C files (directories are walked for .c and .h) for frontend/backend\n"
          "separation and ops-only use of libeh.\n"
          "\n"
          "options:\n"
          "  -p BUILD_DIR          read BUILD_DIR/compile_commands.json (no PATH: lint its files\n"
          "                        and the headers under . they include)\n"
          "  -j N, --jobs N        parse N files in parallel (default: number of cores)\n"
          "  --format FORMAT       text (default), json, sarif or github\n"
          "  -o FILE, --output FILE  write the report to FILE\n"
          "  --select LIST         only these rules (IDs, ID prefixes like EH1, names; ALL)\n"
          "  --ignore LIST         not these rules\n"
          "  --fail-on LEVEL       exit 1 for findings at or above error or warning (default)\n"
          "  --fix                 apply the safe fixes, then report what remains\n"
          "  --diff                print the fixes as a unified diff and change nothing\n"
          "                        (exit 1 when there is one)\n"
          "  --unsafe-fixes        with --fix or --diff: the unsafe fixes too\n"
          "  --extra-arg ARG       a compiler argument, as after -- (repeatable)\n"
          "  --statistics          text: counts per rule after the findings\n"
          "  --baseline FILE       report only findings FILE does not hold\n"
          "  --write-baseline FILE record the findings in FILE (exit 0) and report nothing\n"
          "  --diff-base REV       only findings on lines changed since the merge base\n"
          "                        of REV and HEAD (git), uncommitted changes included\n"
          "  --shard K/N           lint part K of N of the translation units (json or\n"
          "                        sarif); join the parts with emberlint merge\n"
          "  --list-rules          list every rule (--format json for JSON)\n"
          "  --explain ID          print a rule's documentation\n"
          "  --config FILE         use FILE instead of finding .emberlint.json files\n"
          "  --show-config FILE    print the configuration that applies to FILE, and where\n"
          "                        each value comes from\n"
          "  --no-cache            do not read or write the result cache\n"
          "  --no-pch              parse each file's system headers itself, not once\n"
          "                        for the files that start with the same ones\n"
          "  --all-bodies          parse the function bodies of backend and core files\n"
          "                        that no rule reads (EH000 then sees errors there)\n"
          "  --cache-dir DIR       the cache directory (default .emberlint-cache)\n"
          "  --color WHEN          auto (default: colour on a terminal, unless NO_COLOR is\n"
          "                        set and not empty or TERM is dumb), always, never\n"
          "  --max-file-size BYTES skip larger files (default 64 MiB)\n"
          "  -v, --verbose         say how many files were linted and cached\n"
          "  --version             print the version\n"
          "  -h, --help            print this help\n"
          "\n"
          "emberlint merge joins the reports of every --shard K/N run (json or sarif) into\n"
          "the report one run over everything gives; it takes --format, -o, --fail-on,\n"
          "--statistics, --color, --baseline, --write-baseline and --diff-base.\n"
          "\n"
          "Arguments after -- are passed to the compiler (clang): -I, -D, -std...\n"
          "Exit status: 0 no findings at or above --fail-on, 1 findings, 2 usage,\n"
          "configuration or I/O error, or fixes that could not be applied.\n"
          "See docs/emberlint.md.\n",
          f);
}

static void append_list(char **dst, const char *item)
{
    if (!*dst) {
        *dst = el_xstrdup(item);
        return;
    }
    char *j = el_xasprintf("%s,%s", *dst, item);
    free(*dst);
    *dst = j;
}

/* Options that do not go together, and what merge does not take (a
 * shard's run decides them). */
static int check_combinations(const el_cli *c, char **err)
{
    if (c->write_baseline && c->diff_base) {
        *err = el_xstrdup("--write-baseline records every finding: it does not go with --diff-base");
        return -1;
    }
    if (c->write_baseline && (c->fix || c->diff)) {
        *err = el_xasprintf("--write-baseline does not go with %s", c->fix ? "--fix" : "--diff");
        return -1;
    }
    if (c->shard_count) {
        const char *bad = c->fix ? "--fix" : c->diff ? "--diff" : c->write_baseline ? "--write-baseline" : NULL;
        if (bad) {
            *err = el_xasprintf("--shard does not go with %s (%s)", bad,
                                c->write_baseline ? "write the baseline with emberlint merge"
                                                  : "fixes are one change, made on one machine");
            return -1;
        }
        if (c->format != EL_FORMAT_JSON && c->format != EL_FORMAT_SARIF) {
            *err = el_xstrdup("--shard needs --format json or sarif (emberlint merge reads them)");
            return -1;
        }
    }
    if (c->merge) {
        const char *bad = c->build_dir ? "-p" : c->jobs ? "--jobs" : c->select ? "--select"
                        : c->ignore ? "--ignore" : c->config ? "--config" : c->no_cache ? "--no-cache" : c->no_pch ? "--no-pch"
                        : c->all_bodies ? "--all-bodies"
                        : c->cache_dir ? "--cache-dir" : c->fix ? "--fix" : c->diff ? "--diff"
                        : c->shard_count ? "--shard" : c->n_extra ? "-- or --extra-arg" : c->list_rules ? "--list-rules"
                        : c->explain ? "--explain" : NULL;
        if (bad) {
            *err = el_xasprintf("merge: %s belongs to the shards' runs (the merge repeats what they did)", bad);
            return -1;
        }
    }
    return 0;
}

int el_cli_parse(int argc, char **argv, el_cli *c, char **err)
{
    memset(c, 0, sizeof *c);
    c->format = EL_FORMAT_TEXT;
    c->fail_on = EL_SEV_WARNING;
    c->color = -1;
    c->max_file_size = DEFAULT_MAX_FILE_SIZE;
    c->paths = el_xcalloc((size_t)argc + 1, sizeof *c->paths);
    c->extra = el_xcalloc((size_t)argc + 1, sizeof *c->extra);
    const char *v;
    int first = 1;
    if (argc > 1 && strcmp(argv[1], "merge") == 0) {
        c->merge = true;
        first = 2;
    }
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            for (int k = i + 1; k < argc; k++)
                c->extra[c->n_extra++] = argv[k];
            break;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            c->paths[c->n_paths++] = argv[i];
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            c->help = true;
        } else if (strcmp(a, "--version") == 0) {
            c->version = true;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            c->verbose = true;
        } else if (strcmp(a, "--list-rules") == 0) {
            c->list_rules = true;
        } else if (strcmp(a, "--statistics") == 0) {
            c->statistics = true;
        } else if (strcmp(a, "--no-cache") == 0) {
            c->no_cache = true;
        } else if (strcmp(a, "--no-pch") == 0) {
            c->no_pch = true;
        } else if (strcmp(a, "--all-bodies") == 0) {
            c->all_bodies = true;
        } else if (strcmp(a, "--fix") == 0) {
            c->fix = true;
        } else if (strcmp(a, "--diff") == 0) {
            c->diff = true;
        } else if (strcmp(a, "--unsafe-fixes") == 0) {
            c->unsafe_fixes = true;
        } else if (el_opt_is(a, "-p")) {
            if (!(c->build_dir = el_opt_value(argc, argv, &i, "-p", err)))
                return -1;
        } else if (el_opt_is(a, "-j") || el_opt_is(a, "--jobs")) {
            const char *name = a[1] == '-' ? "--jobs" : "-j";
            if (!(v = el_opt_value(argc, argv, &i, name, err)) ||
                el_opt_jobs(name, v, &c->jobs, err) < 0)
                return -1;
        } else if (el_opt_is(a, "--format")) {
            if (!(v = el_opt_value(argc, argv, &i, "--format", err)))
                return -1;
            if (strcmp(v, "text") == 0)
                c->format = EL_FORMAT_TEXT;
            else if (strcmp(v, "json") == 0)
                c->format = EL_FORMAT_JSON;
            else if (strcmp(v, "sarif") == 0)
                c->format = EL_FORMAT_SARIF;
            else if (strcmp(v, "github") == 0)
                c->format = EL_FORMAT_GITHUB;
            else {
                *err = el_xasprintf("--format: expected text, json, sarif or github, got '%s'", v);
                return -1;
            }
        } else if (el_opt_is(a, "-o") || el_opt_is(a, "--output")) {
            if (!(c->output = el_opt_value(argc, argv, &i, a[1] == '-' ? "--output" : "-o", err)))
                return -1;
        } else if (el_opt_is(a, "--select")) {
            if (!(v = el_opt_value(argc, argv, &i, "--select", err)))
                return -1;
            append_list(&c->select, v);
        } else if (el_opt_is(a, "--ignore")) {
            if (!(v = el_opt_value(argc, argv, &i, "--ignore", err)))
                return -1;
            append_list(&c->ignore, v);
        } else if (el_opt_is(a, "--fail-on")) {
            if (!(v = el_opt_value(argc, argv, &i, "--fail-on", err)))
                return -1;
            if (strcmp(v, "error") == 0)
                c->fail_on = EL_SEV_ERROR;
            else if (strcmp(v, "warning") == 0)
                c->fail_on = EL_SEV_WARNING;
            else {
                *err = el_xasprintf("--fail-on: expected error or warning, got '%s'", v);
                return -1;
            }
        } else if (el_opt_is(a, "--color")) {
            if (!(v = el_opt_value(argc, argv, &i, "--color", err)))
                return -1;
            if (strcmp(v, "auto") == 0)
                c->color = -1;
            else if (strcmp(v, "always") == 0)
                c->color = 1;
            else if (strcmp(v, "never") == 0)
                c->color = 0;
            else {
                *err = el_xasprintf("--color: expected auto, always or never, got '%s'", v);
                return -1;
            }
        } else if (el_opt_is(a, "--explain")) {
            if (!(c->explain = el_opt_value(argc, argv, &i, "--explain", err)))
                return -1;
        } else if (el_opt_is(a, "--cache-dir")) {
            if (!(c->cache_dir = el_opt_value(argc, argv, &i, "--cache-dir", err)))
                return -1;
        } else if (el_opt_is(a, "--config")) {
            if (!(c->config = el_opt_value(argc, argv, &i, "--config", err)))
                return -1;
        } else if (el_opt_is(a, "--show-config")) {
            if (!(c->show_config = el_opt_value(argc, argv, &i, "--show-config", err)))
                return -1;
        } else if (el_opt_is(a, "--extra-arg")) {
            /* a compiler argument where `--` cannot go: before PATHs that
             * a program appends (pre-commit), as clang-tidy's */
            if (!(v = el_opt_value(argc, argv, &i, "--extra-arg", err)))
                return -1;
            c->extra[c->n_extra++] = (char *)v;
        } else if (el_opt_is(a, "--baseline")) {
            if (!(c->baseline = el_opt_value(argc, argv, &i, "--baseline", err)))
                return -1;
        } else if (el_opt_is(a, "--write-baseline")) {
            if (!(c->write_baseline = el_opt_value(argc, argv, &i, "--write-baseline", err)))
                return -1;
        } else if (el_opt_is(a, "--diff-base")) {
            if (!(c->diff_base = el_opt_value(argc, argv, &i, "--diff-base", err)))
                return -1;
        } else if (el_opt_is(a, "--shard")) {
            if (!(v = el_opt_value(argc, argv, &i, "--shard", err)) ||
                el_shard_parse(v, &c->shard_index, &c->shard_count, err) < 0)
                return -1;
        } else if (el_opt_is(a, "--max-file-size")) {
            if (!(v = el_opt_value(argc, argv, &i, "--max-file-size", err)))
                return -1;
            if (el_opt_size(v, &c->max_file_size) < 0) {
                *err = el_xasprintf("--max-file-size: expected a number of bytes, got '%s'", v);
                return -1;
            }
        } else {
            *err = el_xasprintf("unknown option '%s'", a);
            return -1;
        }
    }
    if (c->unsafe_fixes && !c->fix && !c->diff) {
        *err = el_xasprintf("--unsafe-fixes needs --fix or --diff");
        return -1;
    }
    return check_combinations(c, err);
}

void el_cli_free(el_cli *c)
{
    free(c->paths);
    free(c->extra);
    free(c->select);
    free(c->ignore);
    memset(c, 0, sizeof *c);
}

/* Mark in sel every rule an item names: "ALL", an ID, an ID prefix, a
 * name.  false when it names none. */
static bool mark(const char *item, bool *sel, bool value)
{
    bool any = false;
    size_t n = el_meta_count();
    for (size_t k = 0; k < n; k++) {
        const el_rule_meta *m = el_meta_at(k);
        bool hit = strcmp(item, "ALL") == 0 || strcmp(item, m->name) == 0 ||
                   (item[0] && strncmp(m->id, item, strlen(item)) == 0);
        if (hit) {
            sel[k] = value;
            any = true;
        }
    }
    return any;
}

static int apply_list(const char *list, const char *opt, bool *sel, bool value, char **err)
{
    char *copy = el_xstrdup(list);
    char *save = NULL;
    int rc = 0;
    for (char *t = strtok_r(copy, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
        /* IDs and ALL in any case: eh101, all */
        if (strncasecmp(t, "eh", 2) == 0 || strcasecmp(t, "all") == 0)
            for (char *p = t; *p; p++)
                *p = (char)toupper((unsigned char)*p);
        if (!mark(t, sel, value)) {
            *err = el_xasprintf("%s: no rule is named '%s' (see emberlint --list-rules)", opt, t);
            rc = -1;
            break;
        }
    }
    free(copy);
    return rc;
}

int el_cli_selection(const el_cli *c, bool *selected, char **err)
{
    size_t n = el_meta_count();
    for (size_t k = 0; k < n; k++)
        selected[k] = c->select == NULL;
    if (c->select && apply_list(c->select, "--select", selected, true, err) < 0)
        return -1;
    if (c->ignore && apply_list(c->ignore, "--ignore", selected, false, err) < 0)
        return -1;
    return 0;
}
