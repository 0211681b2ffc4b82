/* migrate/main.c -- ember-migrate: the command line (options.h), then one
 * subcommand.  Exit status: the subcommand's; 2 for usage errors
 * (`ember-migrate: what went wrong` on stderr). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clang_api.h"

#include "buildcfg.h"
#include "fileio.h"
#include "clang_util.h"
#include "knowledge.h"
#include "mem.h"
#include "metadata.h"
#include "opt.h"
#include "options.h"
#include "path.h"
#include "progname.h"
#include "registry.h"
#include "rule.h"
#include "shard.h"

#ifndef EL_VERSION
#define EL_VERSION "0.0.0"
#endif

#define EXIT_TROUBLE 2

static void usage(FILE *f)
{
    fputs("usage: ember-migrate analyze [--format text|markdown|json] [--all-ops] [--shard K/N] [options] PATH... [-- ARGS]\n"
          "       ember-migrate merge   [--format text|markdown|json] [--all-ops] [--backend B] [--op OP] REPORT...\n"
          "       ember-migrate plan    [--verify] [--unsafe-fixes] [options] PATH... [-- ARGS]\n"
          "       ember-migrate apply   [--backup] [--force] [--unsafe-fixes] [options] PATH... [-- ARGS]\n"
          "\n"
          "Move code written against backends (eh_blas_matmul, backend headers,\n"
          "ops/<backend>/ directories) onto libeh's frontend ops and backends/.\n"
          "\n"
          "commands:\n"
          "  analyze               the op x backend matrix: what each backend implements,\n"
          "                        what is missing, what backend code must move\n"
          "  plan                  the migration as a unified diff; changes nothing\n"
          "  apply                 perform the migration (atomically; idempotent)\n"
          "  merge                 join the reports of analyze --shard K/N --format json\n"
          "                        into the analysis of the whole tree\n"
          "\n"
          "options:\n"
          "  --backend NAME        only this backend (repeatable)\n"
          "  --op NAME             only this op (repeatable); custom ops are made\n"
          "                        only without --op\n"
          "  --namespace NAME      backend functions with no libeh op become custom ops\n"
          "                        NAME.<name>, called through NAME_<name> (default: app)\n"
          "  --format FORMAT       analyze, merge: text (default), markdown or json\n"
          "  --all-ops             analyze, merge: a row for every op of libeh/ops.def\n"
          "  --shard K/N           analyze: part K of N of the files (--format json);\n"
          "                        ember-migrate merge joins the parts\n"
          "  --backup              apply: keep each changed file's original as FILE.orig\n"
          "  --force               apply: proceed with the files that parse, leave those\n"
          "                        that do not untouched (never files changed meanwhile)\n"
          "  --verify              plan: parse the planned result in every configuration and\n"
          "                        report what would not compile (exit 2)\n"
          "  --unsafe-fixes        plan, apply: make the unsafe changes too (each listed);\n"
          "                        without it they are left out and listed with why\n"
          "  -p BUILD_DIR          read BUILD_DIR/compile_commands.json (no PATH: its files;\n"
          "                        a file listed with several -D flags is checked in each)\n"
          "  --define-sets SETS    build configurations to check in: \"USE_BLAS=1;!USE_BLAS\"\n"
          "                        (NAME, NAME=VALUE and !NAME items; sets split by ';')\n"
          "  -j N, --jobs N        parse N files in parallel (default 1)\n"
          "  -q, --quiet           print nothing but errors\n"
          "  -v, --verbose         notes on standard error (compiler arguments dropped)\n"
          "  --version             print the version\n"
          "  -h, --help            print this help\n"
          "\n"
          "Arguments after -- are passed to the compiler (clang): -I, -D, -std...\n"
          "Exit status: 0 success, 1 work left that could not be done (listed),\n"
          "2 usage, configuration, I/O error or refused change.  See docs/ember-migrate.md.\n",
          f);
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("ember-migrate: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs(" (see ember-migrate --help)\n", stderr);
    return EXIT_TROUBLE;
}

/* A usage error from lint/base/opt.h (err is freed). */
static int opt_error(char *err)
{
    int rc = usage_error("%s", err);
    free(err);
    return rc;
}

typedef enum command { CMD_NONE, CMD_ANALYZE, CMD_PLAN, CMD_APPLY, CMD_MERGE } command;

typedef struct parsed {
    em_opts o;
    command cmd;
    bool help, version;
} parsed;

/* A custom op namespace: a C identifier (the wrappers are <ns>_<name>). */
static bool namespace_ok(const char *v)
{
    size_t n = strlen(v);
    if (n == 0 || n > 40 || (v[0] >= '0' && v[0] <= '9'))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(v[i] == '_' || (v[i] >= 'a' && v[i] <= 'z') || (v[i] >= 'A' && v[i] <= 'Z') ||
              (v[i] >= '0' && v[i] <= '9')))
            return false;
    return true;
}

/* Parse argv; 0, or the exit status of a usage error (printed). */
static int parse(int argc, char **argv, parsed *p)
{
    em_opts *o = &p->o;
    char **paths = el_xcalloc((size_t)argc + 1, sizeof *paths);
    o->scan.paths = paths;
    o->backends = el_xcalloc((size_t)argc + 1, sizeof *o->backends);
    o->ops = el_xcalloc((size_t)argc + 1, sizeof *o->ops);
    o->scan.jobs = 1;
    o->scan.custom_ns = "app";
    const char *v;
    char *err = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) {
            o->scan.extra_args = argv + i + 1;
            o->scan.n_extra = (size_t)(argc - i - 1);
            break;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (p->cmd == CMD_NONE) {
                if (strcmp(a, "analyze") == 0)
                    p->cmd = CMD_ANALYZE;
                else if (strcmp(a, "plan") == 0)
                    p->cmd = CMD_PLAN;
                else if (strcmp(a, "apply") == 0)
                    p->cmd = CMD_APPLY;
                else if (strcmp(a, "merge") == 0)
                    p->cmd = CMD_MERGE;
                else
                    return usage_error("unknown command '%s': expected analyze, plan, apply or merge", a);
            } else {
                paths[o->scan.n_paths++] = argv[i];
            }
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            p->help = true;
        } else if (strcmp(a, "--version") == 0) {
            p->version = true;
        } else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o->quiet = true;
            o->scan.quiet = true;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            o->scan.verbose = true;
        } else if (strcmp(a, "--backup") == 0) {
            o->backup = true;
        } else if (strcmp(a, "--force") == 0) {
            o->force = true;
        } else if (strcmp(a, "--all-ops") == 0) {
            o->all_ops = true;
        } else if (strcmp(a, "--verify") == 0) {
            o->verify = true;
        } else if (strcmp(a, "--unsafe-fixes") == 0) {
            o->unsafe_fixes = true;
        } else if (el_opt_is(a, "--define-sets")) {
            if (!(v = el_opt_value(argc, argv, &i, "--define-sets", &err)))
                return opt_error(err);
            char **sets = NULL;
            size_t n_sets = 0;
            if (el_define_sets_split(v, &sets, &n_sets, &err) < 0)
                return opt_error(err);
            el_args_free(sets, n_sets);
            o->scan.define_sets = v;
        } else if (el_opt_is(a, "--namespace")) {
            if (!(v = el_opt_value(argc, argv, &i, "--namespace", &err)))
                return opt_error(err);
            if (!namespace_ok(v))
                return usage_error("--namespace: '%s' is not a C identifier of at most 40 "
                                   "characters",
                                   v);
            o->scan.custom_ns = v;
        } else if (el_opt_is(a, "--format")) {
            if (!(v = el_opt_value(argc, argv, &i, "--format", &err)))
                return opt_error(err);
            if (strcmp(v, "text") == 0)
                o->format = EM_FORMAT_TEXT;
            else if (strcmp(v, "markdown") == 0)
                o->format = EM_FORMAT_MARKDOWN;
            else if (strcmp(v, "json") == 0)
                o->format = EM_FORMAT_JSON;
            else
                return usage_error("--format: expected text, markdown or json, got '%s'", v);
        } else if (el_opt_is(a, "--backend")) {
            if (!(v = el_opt_value(argc, argv, &i, "--backend", &err)))
                return opt_error(err);
            if (!v[0])
                return usage_error("--backend: expected a backend name%s", "");
            o->backends[o->n_backends++] = (char *)v;
        } else if (el_opt_is(a, "--op")) {
            if (!(v = el_opt_value(argc, argv, &i, "--op", &err)))
                return opt_error(err);
            if (!el_is_op(v))
                return usage_error("--op: '%s' is not an op of libeh/ops.def", v);
            o->ops[o->n_ops++] = (char *)(strncmp(v, "eh_", 3) == 0 ? v + 3 : v);
        } else if (el_opt_is(a, "--shard")) {
            if (!(v = el_opt_value(argc, argv, &i, "--shard", &err)) ||
                el_shard_parse(v, &o->scan.shard_index, &o->scan.shard_count, &err) < 0)
                return opt_error(err);
        } else if (el_opt_is(a, "-p")) {
            if (!(v = el_opt_value(argc, argv, &i, "-p", &err)))
                return opt_error(err);
            o->scan.compdb_dir = v;
        } else if (el_opt_is(a, "-j") || el_opt_is(a, "--jobs")) {
            const char *name = a[1] == '-' ? "--jobs" : "-j";
            if (!(v = el_opt_value(argc, argv, &i, name, &err)) ||
                el_opt_jobs(name, v, &o->scan.jobs, &err) < 0)
                return opt_error(err);
        } else {
            return usage_error("unknown option '%s'", a);
        }
    }
    if (p->help || p->version)
        return 0;
    if (p->cmd == CMD_NONE)
        return usage_error("no command given: expected analyze, plan, apply or merge%s", "");
    bool reports = p->cmd == CMD_ANALYZE || p->cmd == CMD_MERGE;
    if (!reports && (o->format != EM_FORMAT_TEXT || o->all_ops))
        return usage_error("--format and --all-ops are options of analyze and merge%s", "");
    if (o->scan.shard_count && p->cmd != CMD_ANALYZE)
        return usage_error("--shard is an option of analyze (plan and apply are one change, made on "
                           "one machine)%s", "");
    if (o->scan.shard_count && o->format != EM_FORMAT_JSON)
        return usage_error("--shard needs --format json (ember-migrate merge reads it)%s", "");
    if (p->cmd == CMD_MERGE && (o->scan.compdb_dir || o->scan.n_extra))
        return usage_error("merge: -p and -- belong to the shards' runs%s", "");
    if (p->cmd == CMD_MERGE && !o->scan.n_paths)
        return usage_error("merge: no shard report given%s", "");
    if (p->cmd != CMD_APPLY && (o->backup || o->force))
        return usage_error("--backup and --force are options of apply%s", "");
    if (p->cmd != CMD_PLAN && o->verify)
        return usage_error("--verify is an option of plan%s", "");
    if (p->cmd != CMD_PLAN && p->cmd != CMD_APPLY && o->unsafe_fixes)
        return usage_error("--unsafe-fixes is an option of plan and apply%s", "");
    o->safe_only = (p->cmd == CMD_PLAN || p->cmd == CMD_APPLY) && !o->unsafe_fixes;
    o->scan.recover = p->cmd == CMD_APPLY;
    o->scan.refuse_missing = p->cmd == CMD_APPLY;
    if (!o->scan.n_paths && !o->scan.compdb_dir)
        return usage_error("no PATH given%s", "");
    return 0;
}

int main(int argc, char **argv)
{
    el_progname = "ember-migrate";
    el_path_init();
    elc_parse_in_caller_thread();
    elc_keep_heap();
    parsed p;
    memset(&p, 0, sizeof p);
    char *err = NULL;
    /* --op checks names against the compiled-in op set: no init needed */
    int rc = parse(argc, argv, &p);
    if (rc == 0 && p.help) {
        usage(stdout);
    } else if (rc == 0 && p.version) {
        CXString v = clang_getClangVersion();
        printf("ember-migrate %s (%s)\n", EL_VERSION, clang_getCString(v));
        clang_disposeString(v);
    } else if (rc == 0) {
        if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
            fprintf(stderr, "ember-migrate: %s\n", err);
            free(err);
            rc = EXIT_TROUBLE;
        } else {
            switch (p.cmd) {
            case CMD_ANALYZE:
                rc = em_run_analyze(&p.o);
                break;
            case CMD_PLAN:
                rc = em_run_plan(&p.o);
                break;
            case CMD_MERGE:
                rc = em_run_merge(&p.o);
                break;
            default:
                rc = em_run_apply(&p.o);
                break;
            }
        }
        el_knowledge_free();
        el_meta_free();
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ember-migrate: standard output: write error\n");
        rc = EXIT_TROUBLE;
    }
    free((void *)p.o.scan.paths);
    free(p.o.backends);
    free(p.o.ops);
    return rc;
}
