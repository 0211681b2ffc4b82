/* The lint section of `make bench`: emberlint's speed, as issue #4 asks.
 *
 *   cold, project tree      emberlint -j 1 (empty cache) on libeh/ examples/ backends/ tools/,
 *                           and with --no-pch (no shared system headers: docs/emberlint.md)
 *                           vs bare libclang parsing of the same TUs  (goal: within 1.15x)
 *                           vs clang-tidy running one check           (goal: faster)
 *   cold, generated corpus  the same on >= 300 generated frontend files
 *   warm cache              re-run on the corpus with the populated cache (goal: >= 20x cold)
 *   -j 2 against -j 1       cold, on the corpus                       (goal: >= 1.7x)
 *   cold CPU time           user + system time of the corpus' cold runs: emberlint
 *                           vs clang-tidy with one cheap check         (goal: at most clang-tidy's)
 *   --diff-base             the corpus as a git repository, warm cache, one line of
 *                           one file changed before each run           (goal: under 1 s)
 *   one file, 20k calls     emberlint, --diff and ember-migrate plan; against a
 *                           tenth of the calls                        (goal: <= 15x, linear)
 *   broken files            warm against cold on a tree where every 20th file does
 *                           not parse                                 (goal: >= 20x)
 *
 * Every row is an external program, timed by the harness (bench_time:
 * one warm-up run, then the median of --reps runs, fewer when one run is
 * slow) around fork+exec+wait, with output to /dev/null, like
 * bench_time_command.  Not bench_time_command itself: emberlint exits 1
 * when it has findings, and the corpus is written to have many, so this
 * file's runner accepts 0..max_ok and reports anything else.
 *
 * The same compiler arguments everywhere: -std=c11 (after -- for
 * emberlint, where it replaces the default, lint/engine/flags.c),
 * -I <tree>/libeh/include -I <tree>/libeh, the extra
 * arguments `-Ilibeh/include -D_POSIX_C_SOURCE=200809L` (what
 * `make lint-dogfood` passes) and -w (emberlint adds it).  The baseline,
 * bench/reference/parse_only.c (built as $(BUILD)/bench/parse-only), parses
 * each translation unit with them and the parse options emberlint uses,
 * and nothing else.  Each run of emberlint "cold" gets a fresh, empty
 * --cache-dir (the first run on a new tree, cache writes included).
 *
 * Before anything is timed, emberlint lints each set once (-v, JSON) to
 * check that it parses (no EH000) and to count its translation units: a
 * directory of the tree that does not parse with these flags is left out
 * with a note, and a TU count that differs from the baseline's is noted.
 * The warm run's cache hits are checked the same way. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <json-c/json.h>
#include "bench.h"
#include "reference/lint_corpus.h"


#define CORPUS_FILES 300
#define QUICK_CORPUS_FILES 6
#define PARSE_GOAL 1.15  /* emberlint within this factor of parsing alone */
#define WARM_GOAL 20.0   /* warm >= this times faster than cold */
#define JOBS_GOAL 1.7    /* -j 2 >= this times faster than -j 1 */
#define TIDY_CHECK "readability-else-after-return"
#define DIFF_BASE_GOAL_S 1.0 /* --diff-base, one line changed, warm cache */
#define MAX_CPU_SAMPLES 64
#define COLD_TREE_ROUNDS 7 /* timed rounds of the project-tree cold case, at least */

/* Extra compiler arguments after `--` (what `make lint-dogfood` passes). */
static const char *const extra_args[] = {"-Ilibeh/include", "-D_POSIX_C_SOURCE=200809L"};
#define N_EXTRA (sizeof extra_args / sizeof extra_args[0])

/* ---- string vectors ------------------------------------------------------- */

typedef struct strv {
    char **v; /* NULL-terminated while n < cap */
    size_t n, cap;
} strv;

static void sv_push(strv *s, const char *x)
{
    if (s->n + 2 > s->cap) {
        size_t ncap = s->cap ? s->cap * 2 : 32;
        char **nv = realloc(s->v, ncap * sizeof *nv);
        if (!nv) {
            fprintf(stderr, "eh-bench: out of memory\n");
            exit(1);
        }
        s->v = nv;
        s->cap = ncap;
    }
    s->v[s->n++] = strdup(x);
    s->v[s->n] = NULL;
}

static void sv_free(strv *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* ---- running programs ----------------------------------------------------------- */

/* Run argv: stdin from /dev/null, stdout and stderr to `out` (a file) or
 * /dev/null.  The exit status; 127 if it could not start; 128+N for
 * signal N; -1 on a harness failure. */
static int run_to_cpu(char *const argv[], const char *out, double *cpu, const char *cwd);

static int run_to(char *const argv[], const char *out)
{
    return run_to_cpu(argv, out, NULL, NULL);
}

static double children_cpu(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return 0;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* run_to, and the child's CPU time (user + system, seconds: the growth of
 * RUSAGE_CHILDREN, one child at a time) in *cpu when cpu is not NULL; in
 * directory cwd when it is not NULL. */
static int run_to_cpu(char *const argv[], const char *out, double *cpu, const char *cwd)
{
    fflush(NULL);
    double before = children_cpu();
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        int fd = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0666);
        if (in < 0 || fd < 0 || dup2(in, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 ||
            (cwd && chdir(cwd) != 0))
            _exit(127);
        execvp(argv[0], argv);
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    if (cpu)
        *cpu = children_cpu() - before;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, len = 0;
    char *s = malloc(cap);
    size_t r;
    while (s && (r = fread(s + len, 1, cap - len - 1, f)) > 0) {
        len += r;
        if (cap - len < 2) {
            char *ns = realloc(s, cap * 2);
            if (!ns) {
                free(s);
                s = NULL;
                break;
            }
            s = ns;
            cap *= 2;
        }
    }
    fclose(f);
    if (s)
        s[len] = '\0';
    return s;
}

/* The last non-empty line of a log, for a reason ("" if none). */
static const char *last_line(char *log)
{
    if (!log)
        return "";
    size_t l = strlen(log);
    while (l > 0 && (log[l - 1] == '\n' || log[l - 1] == '\r'))
        log[--l] = '\0';
    char *nl = strrchr(log, '\n');
    char *line = nl ? nl + 1 : log;
    if (strlen(line) > 300)
        line[300] = '\0';
    return line;
}

/* A command timed by the harness. */
typedef struct tcmd {
    strv argv;
    int max_ok;            /* exit statuses 0..max_ok are success (emberlint: 1, findings) */
    int cache_slot;        /* argv index of the --cache-dir value renewed per run, or -1 */
    const char *cache_base;
    int runs;
    int status;            /* of the last run */
    double cpu[MAX_CPU_SAMPLES]; /* CPU time of each run (the warm-up run first) */
    int n_cpu;
    const char *cwd;       /* where it runs (NULL: here) */
} tcmd;

static int tcmd_run(void *p)
{
    tcmd *c = p;
    if (c->cache_slot >= 0) { /* a fresh, empty cache directory: a cold run */
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/run-%d", c->cache_base, c->runs);
        free(c->argv.v[c->cache_slot]);
        c->argv.v[c->cache_slot] = strdup(dir);
    }
    c->runs++;
    double cpu = 0;
    c->status = run_to_cpu(c->argv.v, NULL, &cpu, c->cwd);
    if (c->n_cpu < MAX_CPU_SAMPLES)
        c->cpu[c->n_cpu++] = cpu;
    return c->status >= 0 && c->status <= c->max_ok ? 0 : -1;
}

typedef struct lint_env {
    bench_ctx *ctx;
    char root[4096];       /* the source tree (cwd), absolute */
    char emberlint[4096];
    char parse_only[4096];
    char work[4096];       /* $(BUILD)/bench */
    char tidy[256];        /* clang-tidy to run, "" if none */
    char tidy_version[128];
    const char *why_no_emberlint, *why_no_parse, *why_no_tidy;
    long tree_bodiless, tree_bodies_again; /* the project tree's -v line (lint_check) */
    int quick;
} lint_env;

/* A row for `c` that could not be timed: run it once more with its output
 * kept, and say why (for the subject tools, also an error: they must run). */
static void failed_row(lint_env *e, tcmd *c, const char *id, const char *label, int must_run)
{
    char logp[4200], why[512];
    snprintf(logp, sizeof logp, "%s/lint-failed.log", e->work);
    int status = c->status;
    run_to(c->argv.v, logp);
    char *log = slurp(logp);
    snprintf(why, sizeof why, "%s exited with status %d%s%s", c->argv.v[0], status,
             *last_line(log) ? ": " : "", last_line(log));
    free(log);
    bench_row_skipped(e->ctx, id, label, "%s", why);
    if (must_run)
        bench_error(e->ctx, "%s", why);
}

/* Time `c`; on success add the row, else a skipped row saying why.  1 if
 * measured. */
static int time_row(lint_env *e, tcmd *c, const char *id, const char *label, int must_run,
                    bench_stats *st)
{
    memset(st, 0, sizeof *st);
    if (bench_time(e->ctx, tcmd_run, c, st) == 0) {
        bench_row(e->ctx, id, label, st, 1, NULL);
        return 1;
    }
    failed_row(e, c, id, label, must_run);
    return 0;
}

/* ---- emberlint's view of a set of paths --------------------------------------------- */

typedef struct lint_check {
    long files, tus, cached, findings;
    long bodiless, bodies_again; /* TUs parsed without function bodies, again with them */
    strv eh000;            /* files with EH000 findings */
    int ok;                /* the run worked (exit 0/1, JSON and -v line read) */
    char why[512];
} lint_check;

/* emberlint -v --format json on `paths` (with the flags), once. */
static void lint_once(lint_env *e, const strv *paths, const char *cache_dir, int jobs,
                      lint_check *out)
{
    memset(out, 0, sizeof *out);
    char json_path[4200], log_path[4200], j[16];
    snprintf(json_path, sizeof json_path, "%s/lint-check.json", e->work);
    snprintf(log_path, sizeof log_path, "%s/lint-check.log", e->work);
    snprintf(j, sizeof j, "%d", jobs);
    strv a = {0};
    sv_push(&a, e->emberlint);
    sv_push(&a, "-v");
    sv_push(&a, "-j");
    sv_push(&a, j);
    sv_push(&a, "--format");
    sv_push(&a, "json");
    sv_push(&a, "-o");
    sv_push(&a, json_path);
    if (cache_dir) {
        sv_push(&a, "--cache-dir");
        sv_push(&a, cache_dir);
    } else {
        sv_push(&a, "--no-cache");
    }
    for (size_t i = 0; i < paths->n; i++)
        sv_push(&a, paths->v[i]);
    sv_push(&a, "--");
    for (size_t i = 0; i < N_EXTRA; i++)
        sv_push(&a, extra_args[i]);
    int rc = run_to(a.v, log_path);
    sv_free(&a);
    char *log = slurp(log_path);
    if (rc != 0 && rc != 1) {
        snprintf(out->why, sizeof out->why, "emberlint exited with status %d: %s", rc, last_line(log));
        free(log);
        return;
    }
    const char *v = log ? strstr(log, "translation units (") : NULL;
    while (v && v > log && v[-1] != '\n')
        v--;
    if (!v || sscanf(v, "emberlint: %ld files, %ld translation units (%ld from the cache), %ld",
                     &out->files, &out->tus, &out->cached, &out->findings) != 4) {
        snprintf(out->why, sizeof out->why, "no summary line from emberlint -v: %s", last_line(log));
        free(log);
        return;
    }
    const char *b = strstr(log, "translation units of backend and core files were parsed without");
    while (b && b > log && b[-1] != '\n')
        b--;
    if (b && sscanf(b, "emberlint: %ld translation units of backend and core files were parsed "
                       "without the function bodies no rule reads (%ld again",
                    &out->bodiless, &out->bodies_again) != 2)
        out->bodiless = out->bodies_again = 0;
    free(log);
    json_object *root = json_object_from_file(json_path), *findings;
    if (!root || !json_object_object_get_ex(root, "findings", &findings)) {
        snprintf(out->why, sizeof out->why, "emberlint --format json wrote no findings array");
        json_object_put(root);
        return;
    }
    for (size_t i = 0; i < json_object_array_length(findings); i++) {
        json_object *f = json_object_array_get_idx(findings, i), *rule, *file;
        if (json_object_object_get_ex(f, "rule", &rule) &&
            strcmp(json_object_get_string(rule), "EH000") == 0 &&
            json_object_object_get_ex(f, "file", &file))
            sv_push(&out->eh000, json_object_get_string(file));
    }
    json_object_put(root);
    out->ok = 1;
}

/* ---- the commands ---------------------------------------------------------------------- */

static void push_flags(const lint_env *e, strv *a)
{
    char inc[4200];
    sv_push(a, "-std=c11");
    snprintf(inc, sizeof inc, "%s/libeh/include", e->root);
    sv_push(a, "-I");
    sv_push(a, inc);
    snprintf(inc, sizeof inc, "%s/libeh", e->root);
    sv_push(a, "-I");
    sv_push(a, inc);
    for (size_t i = 0; i < N_EXTRA; i++)
        sv_push(a, extra_args[i]);
    sv_push(a, "-w");
}

/* emberlint -j N [--no-pch] [--cache-dir fresh-per-run | DIR] PATHS -- extra */
static void emberlint_opt_cmd(const lint_env *e, tcmd *c, const strv *paths, int jobs,
                              const char *cold_base, const char *cache_dir, bool no_pch)
{
    memset(c, 0, sizeof *c);
    char j[16];
    snprintf(j, sizeof j, "%d", jobs);
    sv_push(&c->argv, e->emberlint);
    sv_push(&c->argv, "-j");
    sv_push(&c->argv, j);
    if (no_pch)
        sv_push(&c->argv, "--no-pch");
    sv_push(&c->argv, "--cache-dir");
    c->cache_slot = cold_base ? (int)c->argv.n : -1;
    c->cache_base = cold_base;
    sv_push(&c->argv, cold_base ? cold_base : cache_dir);
    for (size_t i = 0; i < paths->n; i++)
        sv_push(&c->argv, paths->v[i]);
    sv_push(&c->argv, "--");
    for (size_t i = 0; i < N_EXTRA; i++)
        sv_push(&c->argv, extra_args[i]);
    c->max_ok = 1;
}

static void emberlint_cmd(const lint_env *e, tcmd *c, const strv *paths, int jobs,
                          const char *cold_base, const char *cache_dir)
{
    emberlint_opt_cmd(e, c, paths, jobs, cold_base, cache_dir, false);
}

/* plain: without the detailed preprocessing record */
static void parse_cmd(const lint_env *e, tcmd *c, const strv *files, int plain)
{
    memset(c, 0, sizeof *c);
    c->cache_slot = -1;
    sv_push(&c->argv, e->parse_only);
    if (plain)
        sv_push(&c->argv, "--plain");
    for (size_t i = 0; i < files->n; i++)
        sv_push(&c->argv, files->v[i]);
    sv_push(&c->argv, "--");
    push_flags(e, &c->argv);
}

static void tidy_cmd(const lint_env *e, tcmd *c, const strv *files)
{
    memset(c, 0, sizeof *c);
    c->cache_slot = -1;
    sv_push(&c->argv, e->tidy);
    sv_push(&c->argv, "--checks=-*," TIDY_CHECK);
    for (size_t i = 0; i < files->n; i++)
        sv_push(&c->argv, files->v[i]);
    sv_push(&c->argv, "--");
    push_flags(e, &c->argv);
}

static double ms(double s) { return s * 1e3; }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The CPU times of c's timed runs (the warm-up run left out) as stats;
 * 0 when there are none. */
static int cpu_stats(const tcmd *c, bench_stats *st)
{
    memset(st, 0, sizeof *st);
    int n = c->n_cpu - 1;
    if (n < 1)
        return 0;
    double v[MAX_CPU_SAMPLES];
    memcpy(v, c->cpu + 1, (size_t)n * sizeof *v);
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    st->median_s = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    st->min_s = v[0];
    st->max_s = v[n - 1];
    st->reps = n;
    return 1;
}

/* The median over rounds of a's CPU time over b's in the same round
 * (bench_time_set runs every row once a round, so run k of each is in
 * round k): this VM's slow spells, which last several rounds and slow
 * every row alike, move it less than the ratio of the two medians.
 * 0 when there are no runs to pair. */
static double paired_cpu_ratio(const tcmd *a, const tcmd *b, double *lo, double *hi)
{
    int n = (a->n_cpu < b->n_cpu ? a->n_cpu : b->n_cpu) - 1;
    if (n < 1)
        return 0;
    double v[MAX_CPU_SAMPLES];
    int m = 0;
    for (int k = 1; k <= n; k++) /* (a run whose time was not read pairs with nothing) */
        if (a->cpu[k] > 0 && b->cpu[k] > 0)
            v[m++] = a->cpu[k] / b->cpu[k];
    if (m < 1)
        return 0;
    qsort(v, (size_t)m, sizeof *v, cmp_double);
    *lo = v[0];
    *hi = v[m - 1];
    return m % 2 ? v[m / 2] : (v[m / 2 - 1] + v[m / 2]) / 2;
}

/* ---- cold runs: emberlint, the parse baseline, clang-tidy -------------------------------- */

/* One cold case on `paths` (what emberlint gets) / `files` (the .c files,
 * what the baseline and clang-tidy get).  *cold gets emberlint's stats
 * (reps 0 if not measured). */
static void cold_case(lint_env *e, const char *id, const char *title, const strv *paths,
                      const strv *files, long tus, bench_stats *cold)
{
    bench_ctx *ctx = e->ctx;
    bench_case(ctx, id, title);
    memset(cold, 0, sizeof *cold);
    char base[4200];
    snprintf(base, sizeof base, "%s/lint-cache/%s-cold", e->work, id);
    /* The rows, timed round by round (bench_time_set): a load that comes
     * or goes during the case weighs on every row alike. */
    enum { EMBERLINT, NOPCH, PARSE, PARSE_PLAIN, TIDY, N_ROWS };
    static const struct {
        const char *id, *label, *cpu_id, *cpu_label;
        int must_run;
    } rows[N_ROWS] = {
        [EMBERLINT] = {"emberlint", "emberlint -j 1, empty cache", "emberlint_cpu",
                       "emberlint: CPU time (user + system)", 1},
        /* without the shared prefix PCH: every file parses its system
         * headers itself, as the other rows do */
        [NOPCH] = {"emberlint_nopch", "emberlint -j 1 --no-pch, empty cache",
                   "emberlint_nopch_cpu", "emberlint --no-pch: CPU time", 1},
        [PARSE] = {"parse", "libclang parse only (same TUs, flags)", "parse_cpu",
                   "parse only: CPU time", 1},
        [PARSE_PLAIN] = {"parse_plain", "libclang parse only, no preprocessing record",
                         "parse_plain_cpu", "parse only, no preprocessing record: CPU time", 1},
        [TIDY] = {"tidy", "clang-tidy, 1 check", "tidy_cpu", "clang-tidy: CPU time", 0},
    };
    const char *why_not[N_ROWS] = {e->why_no_emberlint, e->why_no_emberlint, e->why_no_parse,
                                   e->why_no_parse, e->why_no_tidy};
    char base_nopch[4300];
    snprintf(base_nopch, sizeof base_nopch, "%s-nopch", base);
    tcmd cmds[N_ROWS];
    bench_timed items[N_ROWS];
    size_t n_items = 0, item_of[N_ROWS];
    memset(cmds, 0, sizeof cmds);
    for (size_t r = 0; r < N_ROWS; r++) {
        item_of[r] = N_ROWS;
        if (why_not[r])
            continue;
        if (r == EMBERLINT)
            emberlint_cmd(e, &cmds[r], paths, 1, base, NULL);
        else if (r == NOPCH)
            emberlint_opt_cmd(e, &cmds[r], paths, 1, base_nopch, NULL, true);
        else if (r == PARSE || r == PARSE_PLAIN)
            parse_cmd(e, &cmds[r], files, r == PARSE_PLAIN);
        else
            tidy_cmd(e, &cmds[r], files);
        item_of[r] = n_items;
        items[n_items++] = (bench_timed){.fn = tcmd_run, .arg = &cmds[r]};
    }
    lint_rm_tree(base);
    lint_rm_tree(base_nopch);
    /* the tree's rows take a second or two each: enough rounds for a
     * steady median (3, what the budget gives, let one slow spell decide) */
    bench_time_set(ctx, items, n_items, strcmp(id, "tree") == 0 ? COLD_TREE_ROUNDS : 0);
    lint_rm_tree(base);
    lint_rm_tree(base_nopch);
    /* CPU time (user + system) of the same runs, shown after the wall times */
    bench_stats cpu[N_ROWS];
    int have_cpu[N_ROWS] = {0};
    for (size_t r = 0; r < N_ROWS; r++) {
        if (why_not[r]) {
            bench_row_skipped(ctx, rows[r].id, rows[r].label, "%s", why_not[r]);
        } else if (items[item_of[r]].failed) {
            failed_row(e, &cmds[r], rows[r].id, rows[r].label, rows[r].must_run);
        } else {
            bench_row(ctx, rows[r].id, rows[r].label, &items[item_of[r]].st, 1, NULL);
            have_cpu[r] = cpu_stats(&cmds[r], &cpu[r]);
            if (r == EMBERLINT)
                *cold = items[item_of[r]].st;
        }
    }
    /* (a failed row's run again, for its log, wrote a cache too) */
    lint_rm_tree(base);
    lint_rm_tree(base_nopch);
    for (size_t r = 0; r < N_ROWS; r++) {
        if (have_cpu[r])
            bench_row(ctx, rows[r].cpu_id, rows[r].cpu_label, &cpu[r], 1, NULL);
        if (!why_not[r])
            sv_free(&cmds[r].argv);
    }
    bench_stats cpu_e = cpu[EMBERLINT], cpu_n = cpu[NOPCH], cpu_p = cpu[PARSE],
                cpu_q = cpu[PARSE_PLAIN], cpu_t = cpu[TIDY];
    int have_cpu_e = have_cpu[EMBERLINT], have_cpu_n = have_cpu[NOPCH], have_cpu_p = have_cpu[PARSE],
        have_cpu_q = have_cpu[PARSE_PLAIN], have_cpu_t = have_cpu[TIDY];

    if (strcmp(id, "tree") == 0) {
        bench_note(ctx, "every row parses the same .c files with -std=c11 -I<tree>/libeh/include "
                        "-I<tree>/libeh -Ilibeh/include -D_POSIX_C_SOURCE=200809L -w (emberlint's "
                        "defaults plus `-- -Ilibeh/include -D_POSIX_C_SOURCE=200809L`), one file "
                        "after another on one thread; the rows are timed round by round "
                        "(each round runs every row once, starting one row later than the "
                        "last), so a load that comes or goes weighs on all of them");
        bench_note(ctx, "emberlint: a fresh, empty --cache-dir per run (a first run, cache "
                        "entries written); exit status 1 (findings) counts as success");
        bench_note(ctx, "emberlint shares the system headers files start with (one precompiled "
                        "prefix a run for the files whose first lines are the same guarded "
                        "system includes, when it pays: docs/emberlint.md, \"Shared system "
                        "headers\"); --no-pch parses them in every file, like the other rows");
        bench_note(ctx, "parse alone: bench/reference/parse_only.c, clang_parseTranslationUnit2 "
                        "with emberlint's parse options (detailed preprocessing record, keep "
                        "going; on the calling thread, LIBCLANG_NOTHREADS, as emberlint), one "
                        "CXIndex, then dispose: no cursor visited; `--plain`: the same without "
                        "the preprocessing record");
        if (!e->why_no_tidy)
            bench_note(ctx, "clang-tidy: `%s --checks=-*," TIDY_CHECK " FILES -- FLAGS` (LLVM %s), "
                            "one process, files in turn",
                       e->tidy, e->tidy_version);
    } else {
        bench_note(ctx, "the same commands, flags and protocol as the project-tree case");
    }
    if (tus > 0 && (size_t)tus != files->n)
        bench_note(ctx, "emberlint parses %ld translation units, the other rows %zu (the .c "
                        "files): headers no .c file includes are parsed on their own by "
                        "emberlint only",
                   tus, files->n);

    if (have_cpu[EMBERLINT] && have_cpu[TIDY]) {
        double lo = 0, hi = 0, paired = paired_cpu_ratio(&cmds[EMBERLINT], &cmds[TIDY], &lo, &hi);
        if (paired > 0)
            bench_note(ctx, "round by round, emberlint's CPU time over clang-tidy's in the same "
                            "round: median %.3f (%.3f to %.3f; below 1: emberlint used less)",
                       paired, lo, hi);
    }
    double t_e, t_p, t_t;
    int have_e = bench_row_time(ctx, "emberlint", &t_e);
    int have_p = bench_row_time(ctx, "parse", &t_p);
    int have_t = bench_row_time(ctx, "tidy", &t_t);
    bench_goal_speedup(ctx, "emberlint within 1.15x of parse alone", "emberlint", "parse",
                       1.0 / PARSE_GOAL);
    if (bench_goal_status(ctx) == 0 && have_e && have_p && tus > 0)
        bench_goal_reason(ctx, "emberlint takes %.1f ms per translation unit beyond bare "
                               "parsing (%.0f%% over it): chiefly the walk over every cursor "
                               "of the linted files (libclang's traversal and each cursor's "
                               "location) with the rules' hooks (bench/README.md has a "
                               "callgrind profile)",
                          ms(t_e - t_p) / (double)tus, (t_e / t_p - 1.0) * 100.0);
    bench_goal_speedup(ctx, "cold CPU time at most clang-tidy's (1 check)", "emberlint_cpu", "tidy_cpu",
                       1.0);
    /* (differences below the runs' scatter can come out negative: 0) */
#define AT_LEAST_0(x) ((x) > 0 ? (x) : 0.0)
    if (bench_goal_status(ctx) == 0 && have_cpu_e && have_cpu_n && have_cpu_t && have_cpu_p &&
        have_cpu_q)
        bench_goal_reason(ctx, "CPU time: emberlint %.0f ms (the files' shared system headers "
                               "save %.0f ms: --no-pch %.0f ms); --no-pch = libclang's parse %.0f "
                               "ms (%.0f ms of it the detailed preprocessing record the rules "
                               "read: includes, macro definitions and uses) + %.0f ms of walk, "
                               "rules and cache writes; clang-tidy %.0f ms = about a parse without "
                               "the record (%.0f ms) + %.0f ms for its check. Parsing is the same "
                               "libclang work in both: emberlint's cost beyond it exceeds the "
                               "check's, and these files' first system headers are too light or "
                               "too varied for a shared prefix to make up for it",
                          ms(cpu_e.median_s), AT_LEAST_0(ms(cpu_n.median_s - cpu_e.median_s)),
                          ms(cpu_n.median_s), ms(cpu_p.median_s),
                          AT_LEAST_0(ms(cpu_p.median_s - cpu_q.median_s)),
                          AT_LEAST_0(ms(cpu_n.median_s - cpu_p.median_s)), ms(cpu_t.median_s),
                          ms(cpu_q.median_s), AT_LEAST_0(ms(cpu_t.median_s - cpu_q.median_s)));
#undef AT_LEAST_0
    else if (bench_goal_status(ctx) == 0 && have_cpu_e && have_cpu_t)
        bench_goal_reason(ctx, "CPU time: emberlint %.0f ms, clang-tidy %.0f ms",
                          ms(cpu_e.median_s), ms(cpu_t.median_s));
    bench_goal_speedup(ctx, "emberlint faster than clang-tidy (1 check)", "emberlint", "tidy", 1.0);
    if (bench_goal_status(ctx) == 0 && have_e && have_t) {
        if (have_p && t_t <= t_p)
            bench_goal_reason(ctx, "clang-tidy with one check (%.0f ms) is no slower than bare "
                                   "libclang parsing of the same files (%.0f ms): on one thread "
                                   "no libclang-based tool can beat it, whatever it does after "
                                   "parsing",
                              ms(t_t), ms(t_p));
        else if (have_p)
            bench_goal_reason(ctx, "clang-tidy spends %.0f ms beyond bare parsing of the same "
                                   "files (%.0f ms), emberlint %.0f ms: emberlint's work after "
                                   "parsing (see the goal above) is the larger",
                              ms(t_t - t_p), ms(t_p), ms(t_e - t_p));
    }
}

/* ---- the tree: which directories parse --------------------------------------------------- */

/* The directories of the tree to lint: libeh examples backends tools, less
 * those with files emberlint cannot parse with these flags (backends/ is
 * split into its backends then).  Fills paths and their .c files. */
static int pick_tree(lint_env *e, strv *paths, strv *files, long *tus, strv *dropped)
{
    static const char *const top[] = {"libeh", "examples", "backends", "tools"};
    static const char *const quick_top[] = {"examples"};
    const char *const *units = e->quick ? quick_top : top;
    size_t n_units = e->quick ? 1 : sizeof top / sizeof top[0];
    strv cand = {0};
    for (size_t i = 0; i < n_units; i++) {
        struct stat st;
        if (stat(units[i], &st) == 0 && S_ISDIR(st.st_mode))
            sv_push(&cand, units[i]);
    }
    int rc = 0;
    for (int pass = 0; pass < 3 && cand.n; pass++) {
        lint_check chk;
        lint_once(e, &cand, NULL, bench_opts(e->ctx)->nproc, &chk);
        if (!chk.ok) {
            bench_error(e->ctx, "emberlint on the tree: %s", chk.why);
            rc = -1;
            sv_free(&chk.eh000);
            break;
        }
        if (chk.eh000.n == 0) {
            *tus = chk.tus;
            e->tree_bodiless = chk.bodiless;
            e->tree_bodies_again = chk.bodies_again;
            break;
        }
        /* Drop the units holding a file that does not parse. */
        strv next = {0};
        for (size_t u = 0; u < cand.n; u++) {
            size_t l = strlen(cand.v[u]);
            const char *bad = NULL;
            for (size_t k = 0; k < chk.eh000.n && !bad; k++)
                if (strncmp(chk.eh000.v[k], cand.v[u], l) == 0 && chk.eh000.v[k][l] == '/')
                    bad = chk.eh000.v[k];
            if (!bad) {
                sv_push(&next, cand.v[u]);
            } else if (strcmp(cand.v[u], "backends") == 0) {
                strv subs = {0}; /* each backend on its own: keep those that parse */
                char **names = NULL;
                size_t nn = 0, cap = 0;
                lint_list_c_files("backends", &names, &nn, &cap);
                for (size_t k = 0; k < nn; k++) {
                    char *s = strchr(names[k] + strlen("backends/"), '/');
                    if (s) {
                        *s = '\0';
                        if (!subs.n || strcmp(subs.v[subs.n - 1], names[k]) != 0)
                            sv_push(&subs, names[k]);
                    }
                    free(names[k]);
                }
                free(names);
                for (size_t k = 0; k < subs.n; k++) {
                    size_t sl = strlen(subs.v[k]);
                    int sub_bad = 0;
                    for (size_t b = 0; b < chk.eh000.n; b++)
                        sub_bad |= strncmp(chk.eh000.v[b], subs.v[k], sl) == 0 &&
                                   chk.eh000.v[b][sl] == '/';
                    if (!sub_bad)
                        sv_push(&next, subs.v[k]);
                    else
                        sv_push(dropped, subs.v[k]);
                }
                sv_free(&subs);
            } else {
                sv_push(dropped, cand.v[u]);
            }
        }
        sv_free(&cand);
        cand = next;
        sv_free(&chk.eh000);
    }
    for (size_t i = 0; i < cand.n; i++) {
        sv_push(paths, cand.v[i]);
        char **v = NULL;
        size_t n = 0, cap = 0;
        lint_list_c_files(cand.v[i], &v, &n, &cap);
        for (size_t k = 0; k < n; k++) {
            sv_push(files, v[k]);
            free(v[k]);
        }
        free(v);
    }
    sv_free(&cand);
    return rc;
}

/* ---- the section -------------------------------------------------------------------------------- */

static void find_tools(lint_env *e)
{
    bench_ctx *ctx = e->ctx;
    snprintf(e->emberlint, sizeof e->emberlint, "%s", bench_build_path(ctx, "bin/emberlint"));
    snprintf(e->parse_only, sizeof e->parse_only, "%s", bench_build_path(ctx, "bench/parse-only"));
    snprintf(e->work, sizeof e->work, "%s", bench_build_path(ctx, "bench"));
    if (access(e->emberlint, X_OK) != 0)
        e->why_no_emberlint = "emberlint is not built (make builds build/bin/emberlint)";
    if (access(e->parse_only, X_OK) != 0)
        e->why_no_parse = "the baseline is not built (make bench builds build/bench/parse-only)";

    /* clang-tidy: $EH_BENCH_CLANG_TIDY, else clang-tidy, else clang-tidy-14. */
    const char *env = getenv("EH_BENCH_CLANG_TIDY");
    const char *cands[] = {env && *env ? env : "clang-tidy", "clang-tidy-14"};
    int n = env && *env ? 1 : 2;
    e->why_no_tidy = env && *env ? "EH_BENCH_CLANG_TIDY does not run (--version failed)"
                                 : "clang-tidy not installed (apt-get install clang-tidy)";
    char logp[4200];
    snprintf(logp, sizeof logp, "%s/lint-tidy-version.log", e->work);
    for (int k = 0; k < n; k++) {
        char *argv[] = {(char *)cands[k], "--version", NULL};
        if (run_to(argv, logp) != 0)
            continue;
        snprintf(e->tidy, sizeof e->tidy, "%s", cands[k]);
        e->why_no_tidy = NULL;
        char *log = slurp(logp);
        const char *v = log ? strstr(log, "version ") : NULL;
        snprintf(e->tidy_version, sizeof e->tidy_version, "%.*s", v ? (int)strcspn(v + 8, " \n") : 7,
                 v ? v + 8 : "unknown");
        free(log);
        break;
    }
}

/* Append `dir` to paths and its .c files to files. */
static void add_dir(strv *paths, strv *files, const char *dir)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    if (lint_list_c_files(dir, &v, &n, &cap) != 0)
        return;
    if (paths)
        sv_push(paths, dir);
    for (size_t k = 0; k < n; k++) {
        sv_push(files, v[k]);
        free(v[k]);
    }
    free(v);
}

static void tree_case(lint_env *e)
{
    bench_ctx *ctx = e->ctx;
    static const char *const top[] = {"libeh", "examples", "backends", "tools"};
    if (access("libeh/include/eh/eh.h", R_OK) != 0) {
        bench_case(ctx, "tree", "cold lint, project tree");
        bench_row_skipped(ctx, "emberlint", "emberlint -j 1, empty cache",
                          "eh-bench was not run from the top of the source tree");
        bench_goal_speedup(ctx, "emberlint within 1.15x of parse alone", "emberlint", "parse",
                           1.0 / PARSE_GOAL);
        bench_goal_speedup(ctx, "emberlint faster than clang-tidy (1 check)", "emberlint", "tidy",
                           1.0);
        return;
    }
    strv paths = {0}, files = {0}, dropped = {0};
    long tus = 0;
    if (e->why_no_emberlint) { /* nothing to check the set with: take it as it is */
        for (size_t i = e->quick ? 1 : 0; i < (e->quick ? 2u : 4u); i++)
            add_dir(&paths, &files, top[i]);
        tus = (long)files.n;
    } else if (pick_tree(e, &paths, &files, &tus, &dropped) != 0) {
        return; /* reported */
    }
    char title[256], list[160] = "";
    for (size_t i = 0; i < paths.n; i++) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%s/", i ? " " : "", paths.v[i]);
    }
    snprintf(title, sizeof title, "cold lint, project tree (%s: %zu files)", list, files.n);
    bench_stats cold;
    cold_case(e, "tree", title, &paths, &files, tus, &cold);
    if (e->tree_bodiless)
        bench_note(ctx, "emberlint parses %ld of the %ld translation units (backend and core files) "
                        "without the function bodies no rule reads, %ld of them again with them "
                        "(docs/emberlint.md, \"Function bodies no rule reads\"); the other rows "
                        "parse every body",
                   e->tree_bodiless, tus, e->tree_bodies_again);
    if (e->quick)
        bench_note(ctx, "--quick: examples/ only");
    for (size_t i = 0; i < dropped.n; i++)
        bench_note(ctx, "%s/ left out: emberlint reports EH000 (does not parse) in it with these "
                        "flags", dropped.v[i]);
    sv_free(&paths);
    sv_free(&files);
    sv_free(&dropped);
}

/* ---- one file of many calls; a tree with broken files --------------------------------------- */

#define CALLS_BIG 20000
#define CALLS_SMALL 2000
#define QUICK_CALLS_BIG 2000
#define QUICK_CALLS_SMALL 200
#define CALLS_GOAL 15.0      /* 10x the call sites: at most this many times the time (linear: 10) */
#define BROKEN_FILES 60
#define QUICK_BROKEN_FILES 6
#define BROKEN_EVERY 20      /* every 20th file does not parse */

/* argv of `tool [args...] PATH -- extra` into c (not cached, timed as is). */
static void tool_cmd(tcmd *c, const char *tool, const char *const *args, const char *path)
{
    memset(c, 0, sizeof *c);
    c->cache_slot = -1;
    c->max_ok = 1;
    sv_push(&c->argv, tool);
    for (; *args; args++)
        sv_push(&c->argv, *args);
    sv_push(&c->argv, path);
    sv_push(&c->argv, "--");
    for (size_t i = 0; i < N_EXTRA; i++)
        sv_push(&c->argv, extra_args[i]);
}

/* Time per file linear in its call sites: the same file at two sizes,
 * and the fix and migration paths on the big one. */
static void calls_case(lint_env *e)
{
    bench_ctx *ctx = e->ctx;
    int big = e->quick ? QUICK_CALLS_BIG : CALLS_BIG, small = e->quick ? QUICK_CALLS_SMALL : CALLS_SMALL;
    char title[160];
    snprintf(title, sizeof title, "one file of %d call sites (time linear in calls)", big);
    bench_case(ctx, "calls", title);
    char dbig[4200], dsmall[4200], fbig[4300], fsmall[4300], err[512], migrate[4200];
    snprintf(dbig, sizeof dbig, "%s/lint-calls-%d", e->work, big);
    snprintf(dsmall, sizeof dsmall, "%s/lint-calls-%d", e->work, small);
    snprintf(fbig, sizeof fbig, "%s/app.c", dbig);
    snprintf(fsmall, sizeof fsmall, "%s/app.c", dsmall);
    snprintf(migrate, sizeof migrate, "%s", bench_build_path(ctx, "bin/ember-migrate"));
    const char *why = e->why_no_emberlint;
    if (!why && (lint_mkdir_p(dbig) != 0 || lint_mkdir_p(dsmall) != 0 ||
                 lint_calls_write(fbig, big, err, sizeof err) < 0 ||
                 lint_calls_write(fsmall, small, err, sizeof err) < 0)) {
        bench_error(ctx, "lint: cannot write the call-site files: %s", err);
        why = "the generated files could not be written";
    }
    static const char *const lint_args[] = {"-j", "1", "--no-cache", NULL};
    static const char *const diff_args[] = {"-j", "1", "--diff", "--unsafe-fixes", NULL};
    /* every fix chosen, as the --diff row: both time the same changes */
    static const char *const plan_args[] = {"plan", "--unsafe-fixes", NULL};
    struct {
        const char *id, *label, *tool;
        const char *const *args;
        const char *path;
    } rows[] = {
        {"big", "emberlint -j 1 --no-cache, big file", e->emberlint, lint_args, fbig},
        {"small", "emberlint -j 1 --no-cache, a tenth of the calls", e->emberlint, lint_args, fsmall},
        {"diff", "emberlint --diff (every fix chosen), big file", e->emberlint, diff_args, fbig},
        {"migrate", "ember-migrate plan, big file", migrate, plan_args, dbig},
    };
    char labels[4][200];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        snprintf(labels[i], sizeof labels[i], "%s (%d calls)", rows[i].label,
                 strcmp(rows[i].id, "small") == 0 ? small : big);
        if (why || (rows[i].tool == migrate && access(migrate, X_OK) != 0)) {
            bench_row_skipped(ctx, rows[i].id, labels[i], "%s",
                              why ? why : "ember-migrate is not built");
            continue;
        }
        tcmd c;
        bench_stats st;
        tool_cmd(&c, rows[i].tool, rows[i].args, rows[i].path);
        time_row(e, &c, rows[i].id, labels[i], 1, &st);
        sv_free(&c.argv);
    }
    bench_note(ctx, "the file: bench/reference/lint_corpus.c (lint_calls_write), one function of "
                    "backend calls with a fix, calls through a macro and op calls; the extra "
                    "arguments as in the other cases");
    bench_goal_speedup(ctx, "10x the calls in at most 15x the time (linear: 10x)", "big", "small",
                       1.0 / CALLS_GOAL);
    double tb, ts;
    if (bench_goal_status(ctx) == 0 && bench_row_time(ctx, "big", &tb) &&
        bench_row_time(ctx, "small", &ts))
        bench_goal_reason(ctx, "%.0f ms for 10x the calls of %.0f ms: time grows faster than the "
                               "call sites",
                          ms(tb), ms(ts));
    lint_rm_tree(dbig);
    lint_rm_tree(dsmall);
}

/* Files that do not parse are cached too: a warm run on a tree with a
 * few broken files stays fast. */
static void broken_case(lint_env *e)
{
    bench_ctx *ctx = e->ctx;
    int n = e->quick ? QUICK_BROKEN_FILES : BROKEN_FILES;
    char title[160], tree[4200], cache[4200], cold_base[4200], err[512];
    snprintf(title, sizeof title, "warm cache on a tree with broken files (%d files, every %dth "
                                  "does not parse)", n, BROKEN_EVERY);
    bench_case(ctx, "broken", title);
    snprintf(tree, sizeof tree, "%s/lint-broken", e->work);
    snprintf(cache, sizeof cache, "%s/lint-cache/broken-warm", e->work);
    snprintf(cold_base, sizeof cold_base, "%s/lint-cache/broken-cold", e->work);
    const char *why = e->why_no_emberlint;
    int broken = 0;
    if (!why && (lint_corpus_write(tree, n, err, sizeof err) < 0 ||
                 (broken = lint_corpus_break(tree, BROKEN_EVERY, err, sizeof err)) < 0)) {
        bench_error(ctx, "lint: cannot write the broken tree: %s", err);
        why = "the tree could not be written";
    }
    strv paths = {0};
    sv_push(&paths, tree);
    lint_check chk = {0};
    if (!why) {
        lint_rm_tree(cache);
        lint_once(e, &paths, cache, 1, &chk); /* fills the warm cache */
        if (!chk.ok) {
            bench_error(ctx, "emberlint on the broken tree: %s", chk.why);
            why = "emberlint failed on the broken tree";
        }
    }
    tcmd c;
    bench_stats st;
    if (why) {
        bench_row_skipped(ctx, "warm", "emberlint -j 1, warm cache", "%s", why);
        bench_row_skipped(ctx, "cold", "emberlint -j 1, empty cache", "%s", why);
    } else {
        emberlint_cmd(e, &c, &paths, 1, NULL, cache);
        time_row(e, &c, "warm", "emberlint -j 1, warm cache", 1, &st);
        sv_free(&c.argv);
        lint_rm_tree(cold_base);
        emberlint_cmd(e, &c, &paths, 1, cold_base, NULL);
        time_row(e, &c, "cold", "emberlint -j 1, empty cache", 1, &st);
        sv_free(&c.argv);
        lint_rm_tree(cold_base);
        emberlint_opt_cmd(e, &c, &paths, 1, cold_base, NULL, true);
        time_row(e, &c, "cold_nopch", "emberlint -j 1 --no-pch, empty cache", 1, &st);
        sv_free(&c.argv);
        lint_rm_tree(cold_base);
        lint_check w;
        lint_once(e, &paths, cache, 1, &w);
        if (w.ok)
            bench_note(ctx, "%zu files report EH000; after the timed runs %ld of %ld translation "
                            "units came from the cache",
                       w.eh000.n, w.cached, w.tus);
        sv_free(&w.eh000);
        bench_note(ctx, "the generated corpus (%d files) with %d of them broken by "
                        "lint_corpus_break (a syntax error appended)",
                   n, broken);
    }
    bench_goal_speedup(ctx, "warm >= 20x faster than cold with broken files", "warm", "cold",
                       WARM_GOAL);
    double t_w, t_c, t_n;
    if (bench_goal_status(ctx) == 0 && bench_row_time(ctx, "warm", &t_w) &&
        bench_row_time(ctx, "cold", &t_c) && bench_row_time(ctx, "cold_nopch", &t_n))
        bench_goal_reason(ctx, "the cold run shares its files' system headers (one precompiled "
                               "prefix: %.0f ms, %.1fx faster than --no-pch's %.0f ms, against "
                               "which the warm run is %.1fx faster); the warm run's %.1f ms are "
                               "the process starting and reading %d cache entries (libclang is "
                               "not even loaded): every translation unit, the broken ones too, "
                               "comes from the cache (the note above)",
                          ms(t_c), t_n / t_c, ms(t_n), t_n / t_w, ms(t_w), n);
    sv_free(&chk.eh000);
    sv_free(&paths);
    lint_rm_tree(cache);
    lint_rm_tree(tree);
}

/* ---- --diff-base: one line changed, warm cache ------------------------------------------- */

typedef struct diff_run {
    tcmd c;
    char path[4200];       /* the file edited before each run */
    char *original;
    int n;
} diff_run;

/* Change line 1 of the file (differently each time, so its translation
 * unit is linted again), then run emberlint --diff-base HEAD. */
static int diff_run_once(void *p)
{
    diff_run *d = p;
    FILE *f = fopen(d->path, "w");
    if (!f)
        return -1;
    fprintf(f, "/* edit %d */ %s", ++d->n, d->original);
    if (fclose(f) != 0)
        return -1;
    return tcmd_run(&d->c);
}

static int git_in(const char *dir, const char *a, const char *b, const char *c, const char *d)
{
    char *const argv[] = {"git", "-C", (char *)dir, "-c", "user.name=eh-bench", "-c",
                          "user.email=eh-bench@example.invalid", (char *)a, (char *)b, (char *)c,
                          (char *)d, NULL};
    return run_to(argv, NULL);
}

static void diff_base_case(lint_env *e, const char *corpus, const char *why_not)
{
    bench_ctx *ctx = e->ctx;
    bench_case(ctx, "diffbase", "--diff-base: one line changed in the corpus, warm cache");
    const char *label = "emberlint -j 1 --diff-base HEAD, one line of one file changed";
    if (!corpus) {
        bench_row_skipped(ctx, "diffbase", label, "%s", why_not);
        bench_goal_max_time(ctx, "under 1 s", "diffbase", DIFF_BASE_GOAL_S);
        return;
    }
    if (git_in(corpus, "init", "-q", NULL, NULL) != 0 || git_in(corpus, "add", "-A", NULL, NULL) != 0 ||
        git_in(corpus, "commit", "-q", "--allow-empty", "-mcorpus") != 0) {
        bench_row_skipped(ctx, "diffbase", label, "git could not make the corpus a repository");
        bench_goal_max_time(ctx, "under 1 s", "diffbase", DIFF_BASE_GOAL_S);
        return;
    }
    diff_run d;
    memset(&d, 0, sizeof d);
    strv files = {0}; /* the corpus' first file */
    add_dir(NULL, &files, corpus);
    if (files.n)
        snprintf(d.path, sizeof d.path, "%s", files.v[0]);
    sv_free(&files);
    d.original = slurp(d.path);
    /* it runs in the corpus: absolute paths */
    char cache[8400], inc[4200], tool[8400], dir[8400];
    snprintf(cache, sizeof cache, "%s%s%s/lint-cache/diffbase", e->work[0] == '/' ? "" : e->root,
             e->work[0] == '/' ? "" : "/", e->work);
    snprintf(tool, sizeof tool, "%s%s%s", e->emberlint[0] == '/' ? "" : e->root,
             e->emberlint[0] == '/' ? "" : "/", e->emberlint);
    snprintf(dir, sizeof dir, "%s%s%s", corpus[0] == '/' ? "" : e->root, corpus[0] == '/' ? "" : "/", corpus);
    snprintf(inc, sizeof inc, "-I%s/libeh/include", e->root);
    lint_rm_tree(cache);
    sv_push(&d.c.argv, tool);
    sv_push(&d.c.argv, "-j");
    sv_push(&d.c.argv, "1");
    sv_push(&d.c.argv, "--cache-dir");
    sv_push(&d.c.argv, cache);
    sv_push(&d.c.argv, "--diff-base");
    sv_push(&d.c.argv, "HEAD");
    sv_push(&d.c.argv, ".");
    sv_push(&d.c.argv, "--");
    sv_push(&d.c.argv, inc);
    sv_push(&d.c.argv, "-D_POSIX_C_SOURCE=200809L");
    d.c.max_ok = 1;
    d.c.cache_slot = -1;
    d.c.cwd = dir;
    bench_stats st;
    if (!d.original || tcmd_run(&d.c) != 0) { /* fills the cache, untimed */
        bench_row_skipped(ctx, "diffbase", label, "emberlint --diff-base failed on the corpus");
    } else {
        memset(&st, 0, sizeof st);
        if (bench_time(ctx, diff_run_once, &d, &st) == 0)
            bench_row(ctx, "diffbase", label, &st, 1, NULL);
        else
            bench_row_skipped(ctx, "diffbase", label, "emberlint --diff-base exited with status %d",
                              d.c.status);
    }
    if (d.original) { /* the corpus as it was */
        FILE *f = fopen(d.path, "w");
        if (f) {
            fputs(d.original, f);
            fclose(f);
        }
    }
    bench_note(ctx, "the corpus (%s) committed to a git repository; the cache filled by one "
                    "untimed run; before each run, line 1 of %s is changed (differently each "
                    "time, so that translation unit is linted again and the others come from "
                    "the cache), then `emberlint --diff-base HEAD .` runs in the corpus, git "
                    "diff included",
               corpus, d.path + strlen(corpus) + 1);
    bench_goal_max_time(ctx, "under 1 s", "diffbase", DIFF_BASE_GOAL_S);
    free(d.original);
    sv_free(&d.c.argv);
    lint_rm_tree(cache);
}

static int run_lint(bench_ctx *ctx)
{
    const bench_options *o = bench_opts(ctx);
    lint_env e;
    memset(&e, 0, sizeof e);
    e.ctx = ctx;
    e.quick = o->quick;
    if (!getcwd(e.root, sizeof e.root) || lint_mkdir_p(bench_build_path(ctx, "bench")) != 0) {
        bench_case(ctx, "tree", "cold lint, project tree");
        bench_error(ctx, "lint: cannot use the current directory or %s",
                    bench_build_path(ctx, "bench"));
        return -1;
    }
    find_tools(&e);

    /* ---- the project's own tree ---- */
    tree_case(&e);

    /* ---- the generated corpus ---- */
    int rc = 0;
    int n_corpus = e.quick ? QUICK_CORPUS_FILES : CORPUS_FILES;
    char corpus[4200], warm_dir[4200], err[512], title[256];
    snprintf(corpus, sizeof corpus, "%s/lint-corpus%s", e.work, e.quick ? "-quick" : "");
    snprintf(warm_dir, sizeof warm_dir, "%s/lint-cache/warm", e.work);
    lint_rm_tree(warm_dir);
    long bytes = lint_corpus_write(corpus, n_corpus, err, sizeof err);
    if (bytes < 0) {
        bench_case(ctx, "corpus", "cold lint, generated corpus");
        bench_error(ctx, "lint: cannot write the corpus: %s", err);
        return -1;
    }
    strv cpaths = {0}, cfiles = {0};
    sv_push(&cpaths, corpus);
    add_dir(NULL, &cfiles, corpus);
    long ctus = (long)cfiles.n;
    /* Check that it parses, and fill the warm cache on the way (the cache
     * key depends on neither -j nor the output format). */
    lint_check chk = {0};
    int usable = !e.why_no_emberlint;
    if (usable) {
        lint_once(&e, &cpaths, warm_dir, o->nproc, &chk);
        if (!chk.ok || chk.eh000.n) {
            bench_case(ctx, "corpus", "cold lint, generated corpus");
            if (!chk.ok)
                bench_error(ctx, "emberlint on the corpus: %s", chk.why);
            else
                bench_error(ctx, "the generated corpus does not parse: EH000 in %s", chk.eh000.v[0]);
            usable = 0;
            rc = -1;
        } else {
            ctus = chk.tus;
        }
        sv_free(&chk.eh000);
    }
    const char *why_not = e.why_no_emberlint ? e.why_no_emberlint : "emberlint failed on the corpus";
    bench_stats corpus_cold;
    memset(&corpus_cold, 0, sizeof corpus_cold);
    if (usable || e.why_no_emberlint) {
        snprintf(title, sizeof title, "cold lint, generated corpus (%zu files)", cfiles.n);
        cold_case(&e, "corpus", title, &cpaths, &cfiles, ctus, &corpus_cold);
        bench_note(ctx, "corpus: %s, %.0f kB written by bench/reference/lint_corpus.c (the same "
                        "bytes every run): modules of frontend code on libeh's API, about 40 to "
                        "850 lines a file",
                   corpus, (double)bytes / 1e3);
        if (usable)
            bench_note(ctx, "emberlint reports %ld findings on it (EH103, EH201-EH203, EH301, "
                            "EH302, EH401): the rules have work to do",
                       chk.findings);
    }

    /* ---- warm cache ---- */
    bench_case(ctx, "warm", "warm cache: unchanged corpus, populated --cache-dir");
    double t_warm = 0;
    if (!usable) {
        bench_row_skipped(ctx, "warm", "emberlint -j 1, warm cache", "%s", why_not);
    } else {
        tcmd c;
        bench_stats st;
        emberlint_cmd(&e, &c, &cpaths, 1, NULL, warm_dir);
        if (time_row(&e, &c, "warm", "emberlint -j 1, warm cache", 1, &st))
            t_warm = st.median_s;
        sv_free(&c.argv);
    }
    if (corpus_cold.reps)
        bench_row(ctx, "cold", "emberlint -j 1, empty cache (corpus case)", &corpus_cold, 1, NULL);
    else
        bench_row_skipped(ctx, "cold", "emberlint -j 1, empty cache (corpus case)", "%s",
                          usable ? "not measured" : why_not);
    if (usable) {
        lint_check w;
        lint_once(&e, &cpaths, warm_dir, 1, &w);
        if (w.ok)
            bench_note(ctx, "checked after the timed runs: %ld of %ld translation units came from "
                            "the cache", w.cached, w.tus);
        sv_free(&w.eh000);
    }
    bench_note(ctx, "the cache was filled by one untimed run; the cold row is the corpus case's "
                    "measurement, quoted");
    bench_goal_speedup(ctx, "warm >= 20x faster than cold", "warm", "cold", WARM_GOAL);
    if (bench_goal_status(ctx) == 0 && t_warm > 0)
        bench_goal_reason(ctx, "a warm run still starts, reads the configuration, walks "
                               "the tree and hashes every file and include of each of the %ld "
                               "translation units to validate its entry: %.0f ms, %.2f ms per TU",
                          ctus, ms(t_warm), ms(t_warm) / (double)(ctus > 0 ? ctus : 1));

    /* ---- --diff-base on a one-line change ---- */
    diff_base_case(&e, usable ? corpus : NULL, usable ? NULL : why_not);

    /* ---- -j 2 against -j 1 ---- */
    bench_case(ctx, "jobs", "-j 2 against -j 1: cold lint of the corpus");
    if (!usable) {
        bench_row_skipped(ctx, "j2", "emberlint -j 2, empty cache", "%s", why_not);
    } else {
        tcmd c;
        bench_stats st;
        char base[4200];
        snprintf(base, sizeof base, "%s/lint-cache/j2-cold", e.work);
        lint_rm_tree(base);
        emberlint_cmd(&e, &c, &cpaths, 2, base, NULL);
        time_row(&e, &c, "j2", "emberlint -j 2, empty cache", 1, &st);
        sv_free(&c.argv);
        lint_rm_tree(base);
    }
    if (corpus_cold.reps)
        bench_row(ctx, "j1", "emberlint -j 1, empty cache (corpus case)", &corpus_cold, 1, NULL);
    else
        bench_row_skipped(ctx, "j1", "emberlint -j 1, empty cache (corpus case)", "%s",
                          usable ? "not measured" : why_not);
    bench_note(ctx, "%d cores online; the -j 1 row is the corpus case's measurement, quoted",
               o->nproc);
    bench_goal_speedup(ctx, "-j 2 >= 1.7x faster than -j 1", "j2", "j1", JOBS_GOAL);
    double t1;
    if (bench_goal_status(ctx) == 0 && bench_row_time(ctx, "j1", &t1)) {
        if (o->nproc < 2)
            bench_goal_reason(ctx, "only %d core is online", o->nproc);
        else if (t_warm > 0 && t_warm < t1) {
            /* A warm run bounds the serial part (startup, walking the tree,
             * reading the configuration): Amdahl's law on the rest. */
            double cap = t1 / (t_warm + (t1 - t_warm) / 2);
            if (cap < JOBS_GOAL)
                bench_goal_reason(ctx, "up to %.0f ms of the cold run's %.0f ms may be serial (a "
                                       "warm run's time: start-up, walking the tree, the "
                                       "configuration), which would cap -j 2 at %.2fx",
                                  ms(t_warm), ms(t1), cap);
            else
                bench_goal_reason(ctx, "even if all of a warm run (%.0f ms) were serial, -j 2 "
                                       "could reach %.2fx: the shortfall is in the parallel part, "
                                       "the two workers not getting two cores' worth of time "
                                       "(other processes, shared caches and memory bandwidth)",
                                  ms(t_warm), cap);
        }
    }
    sv_free(&cpaths);
    sv_free(&cfiles);
    lint_rm_tree(warm_dir);

    /* ---- one file of many calls; broken files in a warm cache ---- */
    calls_case(&e);
    broken_case(&e);
    return rc;
}

BENCH_SECTION(lint_section, "lint", "emberlint: cold, warm and parallel lint against parsing alone "
                                    "and clang-tidy",
              20, run_lint)
