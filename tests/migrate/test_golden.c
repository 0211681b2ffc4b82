/* tests/migrate/test_golden.c -- `ember-migrate analyze`, `plan` and
 * `apply` on the golden trees tests/migrate/fixtures/<case>/:
 *   before/        the tree as written
 *   after/         the tree after the migration, exactly
 *                  (in both, a file NAME.in is written as NAME with @DIR@
 *                  replaced by the scratch directory: compile databases)
 *   args           ember-migrate options, one per line (optional); the PATH
 *                  `.` follows unless a line says --no-path
 *   manual         the manual-work lines plan prints, and its list of
 *                  unsafe changes ("unsafe, not applied" without
 *                  --unsafe-fixes, "unsafe, applied" with it, as apply)
 *                  (optional; with manual work or unsafe changes left out
 *                  the exit status is 1, else 0)
 *   manual.after   the lines apply prints, where the sites are after it
 *                  ("unsafe, not applied" / "unsafe, applied") (optional:
 *                  as manual)
 *   configs        emberlint's arguments in each build configuration, a
 *                  line each: options, then `--` and compiler arguments
 *                  (optional: one configuration, no arguments)
 *   then/          (optional, cases listed with THEN) a later run on the
 *                  tree apply leaves: its args, manual, manual.after and
 *                  after/, checked as above (say, without --unsafe-fixes
 *                  first, then with it)
 * For each case:
 *   - plan changes nothing, its diff passes `git apply --check` on a copy
 *     of before/ and `git apply` turns it into after/ (no diff: after/ is
 *     before/);
 *   - apply on a fresh copy gives after/ (files, directories, nothing
 *     else); a second apply changes nothing and says so, plan then prints
 *     no diff;
 *   - the list predicts the result: the sites apply lists with a rule
 *     ([EH1xx]) are exactly the EH101-EH104 findings emberlint reports on
 *     after/ in every configuration (none missing, none already fixed);
 *   - analyze's "to move" is what apply moved: each definition is in its
 *     destination in after/, and gone from its file unless copied;
 *   - a summary line ends every run; with -q nothing but errors is
 *     printed.
 * The cases (one class of real legacy code each) are listed at CASE. */
#include "migrate_test.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static char *fixture(const char *c, const char *what)
{
    return tt_fmt("%s/tests/migrate/fixtures/%s/%s", MIGRATE_SRCDIR, c, what);
}

/* ---- trees with templates ---- */

/* Write every NAME.in under dir as NAME, @DIR@ replaced by root. */
static void expand_templates(const char *root, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char *p = tt_path(dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            expand_templates(root, p);
        } else {
            size_t n = strlen(p);
            if (n > 3 && !strcmp(p + n - 3, ".in")) {
                char *text = tt_read(p, NULL);
                char *out = tt_replace_all(text, "@DIR@", root);
                char *name = strndup(p, n - 3);
                FILE *f = fopen(name, "w");
                assert_non_null(f);
                fputs(out, f);
                fclose(f);
                unlink(p);
                free(name);
                free(out);
                free(text);
            }
        }
        free(p);
    }
    closedir(d);
}

/* A scratch copy of the case's tree `what`, templates written for the
 * directory `root` (the scratch tree the tool runs in). */
static char *copy_of(const char *c, const char *what, const char *root, char *dir)
{
    char *src = fixture(c, what);
    tt_copytree(src, dir);
    free(src);
    expand_templates(root, dir);
    return dir;
}

/* ---- lines of output ---- */

/* The lines of s that keep() keeps: keep(line) is how much of the line
 * (its newline included) to keep, 0 for none; a kept part ends with a
 * newline. */
static char *filter_lines(const char *s, size_t (*keep)(const char *line))
{
    size_t cap = strlen(s) + 1, n = 0;
    char *out = calloc(cap, 1);
    assert_non_null(out);
    for (const char *l = s; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
        char *line = strndup(l, len);
        assert_non_null(line);
        size_t k = keep(line);
        memcpy(out + n, l, k);
        n += k;
        if (k && out[n - 1] != '\n')
            out[n++] = '\n';
        free(line);
        l += len;
    }
    return out;
}

static size_t whole_manual_line(const char *line)
{
    return strstr(line, ": manual: ") || strstr(line, ": unsafe, ") ? strlen(line) : 0;
}

/* The "FILE:LINE:COL: manual: ..." and "FILE:LINE:COL: unsafe, ...: ..."
 * lines of stderr. */
static char *manual_lines(const char *err)
{
    return filter_lines(err, whole_manual_line);
}

/* The last line of a text (without its newline). */
static char *last_line(const char *s)
{
    size_t n = strlen(s);
    while (n && s[n - 1] == '\n')
        n--;
    size_t b = n;
    while (b && s[b - 1] != '\n')
        b--;
    return strndup(s + b, n - b);
}

static void assert_summary_last(const char *err, const char *what)
{
    char *l = last_line(err);
    bool ok = !strncmp(l, "ember-migrate: ", 15) &&
              (strstr(l, " need") || strstr(l, "nothing to migrate") || strstr(l, "shown;"));
    if (!ok)
        fail_msg("%s: the run does not end with a summary line:\n%s", what, err);
    free(l);
    /* one summary line: "nothing to migrate" alone, not beside "0 calls ..." */
    if (strstr(err, "nothing to migrate") && (strstr(err, " to rewrite; ") || strstr(err, " rewritten; ")))
        fail_msg("%s: two summary lines:\n%s", what, err);
}

/* ---- one case ---- */

typedef struct golden {
    const char *c;
    const char *stage; /* "" or "then/": the files of the stage checked */
    char *args;       /* the `args` file's text (NULL: none), split in argv */
    const char *argv[32];
    size_t argc;
    char *manual;     /* plan's manual-work lines ("" when none) */
    char *manual_after;
    int status;       /* 1 with manual work, else 0 */
    char *dir;        /* the scratch tree */
    char *want;       /* the snapshot of after/ */
} golden;

/* A file of the stage checked (fixture(c, "then/args")). */
static char *stage_file(const golden *g, const char *what)
{
    char *w = tt_fmt("%s%s", g->stage, what);
    char *p = fixture(g->c, w);
    free(w);
    return p;
}

/* Read the stage's args, manual, manual.after and after/. */
static void golden_load(golden *g)
{
    const char *c = g->c;
    char *path = stage_file(g, "args");
    g->args = tt_read(path, NULL);
    free(path);
    size_t n = 2; /* argv[0]: the command, argv[1]: -q or not */
    bool no_path = false;
    for (char *line = g->args ? strtok(g->args, "\n") : NULL; line && n + 2 < 32;
         line = strtok(NULL, "\n")) {
        if (!strcmp(line, "--no-path"))
            no_path = true;
        else if (*line)
            g->argv[n++] = line;
    }
    if (!no_path)
        g->argv[n++] = ".";
    g->argv[n] = NULL;
    g->argc = n;
    path = stage_file(g, "manual");
    g->manual = tt_read(path, NULL);
    free(path);
    if (!g->manual)
        g->manual = strdup("");
    path = stage_file(g, "manual.after");
    g->manual_after = tt_read(path, NULL);
    free(path);
    if (!g->manual_after)
        g->manual_after = strdup(g->manual);
    g->status = strstr(g->manual, ": manual: ") || strstr(g->manual, ": unsafe, not applied: ") ? 1 : 0;
    char *after = tt_tmpdir();
    char *what = tt_fmt("%safter", g->stage);
    copy_of(c, what, g->dir, after);
    free(what);
    g->want = tt_snapshot(after, false);
    tt_rmtree(after);
    free(after);
    (void)c;
}

static void golden_unload(golden *g)
{
    free(g->want);
    free(g->manual);
    free(g->manual_after);
    free(g->args);
    g->want = g->manual = g->manual_after = g->args = NULL;
}

static void golden_open(golden *g, const char *c)
{
    memset(g, 0, sizeof *g);
    g->c = c;
    g->stage = "";
    g->dir = tt_tmpdir();
    copy_of(c, "before", g->dir, g->dir);
    golden_load(g);
}

static void golden_close(golden *g)
{
    tt_rmtree(g->dir);
    free(g->dir);
    golden_unload(g);
}

/* An option of plan and apply only (analyze describes every change). */
static bool changes_only(const char *cmd, const char *arg)
{
    return !strcmp(cmd, "analyze") && !strcmp(arg, "--unsafe-fixes");
}

/* `ember-migrate cmd [-q] <args> [.]` in the tree. */
static tt_run golden_run(golden *g, const char *cmd, bool quiet)
{
    const char *argv[34];
    size_t n = 0;
    argv[n++] = cmd;
    if (quiet)
        argv[n++] = "-q";
    for (size_t i = 2; i < g->argc; i++)
        if (!changes_only(cmd, g->argv[i]))
            argv[n++] = g->argv[i];
    argv[n] = NULL;
    return mt_migratev(g->dir, NULL, argv, true);
}

static void expect(const golden *g, const tt_run *r, const char *cmd, const char *manual)
{
    if (r->status != g->status)
        print_error("%s: %s exited %d\nstderr:\n%s", g->c, cmd, r->status, r->err);
    assert_int_equal(r->status, g->status);
    char *got = manual_lines(r->err);
    if (strcmp(got, manual))
        print_error("%s: %s's list:\n%s", g->c, cmd, got);
    assert_string_equal(got, manual);
    free(got);
    assert_summary_last(r->err, g->c);
}

static void assert_after(const golden *g)
{
    char *got = tt_snapshot(g->dir, false);
    tt_assert_same(g->want, got, g->c);
    free(got);
}

/* ---- the list predicts the result ---- */

static size_t site_of_tagged_line(const char *line)
{
    const char *m = strstr(line, ": manual: [EH1");
    if (m)
        return strlen(m) > 16 && m[16] == ']' ? (size_t)(m - line) : 0;
    /* an unsafe change left out: emberlint still reports its site */
    m = strstr(line, ": unsafe, not applied: [EH1");
    return m && strlen(m) > 29 && m[29] == ']' ? (size_t)(m - line) : 0;
}

/* "file:line:col\n" of every apply line tagged with a rule (the unsafe
 * changes left out included). */
static char *tagged_sites(const char *manual)
{
    return filter_lines(manual, site_of_tagged_line);
}

static int cmp_line(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of s, sorted and unique, as one string. */
static char *sorted_unique(const char *s)
{
    char *copy = strdup(s), *save = NULL;
    char *lines[4096];
    size_t n = 0;
    for (char *l = strtok_r(copy, "\n", &save); l && n < 4096; l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    qsort(lines, n, sizeof *lines, cmp_line);
    char *out = calloc(strlen(s) + 2, 1);
    for (size_t i = 0; i < n; i++)
        if (!i || strcmp(lines[i], lines[i - 1])) {
            strcat(out, lines[i]);
            strcat(out, "\n");
        }
    free(copy);
    return out;
}

/* Every EH101-EH104 finding of emberlint on the tree, in every
 * configuration of the `configs` file: "file:line:col\n". */
static char *lint_sites(const golden *g)
{
    char *path = fixture(g->c, "configs");
    char *configs = tt_read(path, NULL);
    free(path);
    if (!configs)
        configs = strdup(" \n"); /* one configuration, no arguments */
    size_t cap = 1, n = 0;
    char *out = calloc(1, 1);
    char *save = NULL;
    for (char *line = strtok_r(configs, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        const char *argv[32];
        size_t k = 0;
        argv[k++] = EMBERLINT;
        argv[k++] = "--format";
        argv[k++] = "json";
        argv[k++] = "--no-cache";
        argv[k++] = "--select";
        argv[k++] = "EH101,EH102,EH103,EH104";
        /* emberlint options, then `--` and compiler arguments */
        char *words = strdup(line), *ws = NULL;
        const char *cc[16];
        size_t ncc = 0;
        bool compiler = false;
        for (char *w = strtok_r(words, " ", &ws); w; w = strtok_r(NULL, " ", &ws)) {
            if (!strcmp(w, "--"))
                compiler = true;
            else if (compiler && ncc < 16)
                cc[ncc++] = w;
            else if (!compiler && k < 20)
                argv[k++] = w;
        }
        argv[k++] = ".";
        argv[k++] = "--";
        argv[k++] = MT_INCLUDE;
        for (size_t i = 0; i < ncc; i++)
            argv[k++] = cc[i];
        argv[k] = NULL;
        tt_run r = tt_exec(g->dir, argv, NULL);
        json_object *rep = tt_json(r.out);
        json_object *fs = tt_get(rep, "findings");
        for (size_t i = 0; i < json_object_array_length(fs); i++) {
            json_object *f = json_object_array_get_idx(fs, i);
            char *site = tt_fmt("%s:%d:%d\n", json_object_get_string(tt_get(f, "file")),
                                json_object_get_int(tt_get(f, "line")),
                                json_object_get_int(tt_get(f, "column")));
            cap += strlen(site);
            out = realloc(out, cap);
            memcpy(out + n, site, strlen(site) + 1);
            n += strlen(site);
            free(site);
        }
        json_object_put(rep);
        tt_free(&r);
        free(words);
    }
    free(configs);
    return out;
}

/* Does the case select part of the migration (--backend, --op)?  Then
 * what it leaves out is left for a later run, not for a person: the list
 * holds sites emberlint still reports, not all of them. */
static bool partial(const golden *g)
{
    for (size_t i = 2; i < g->argc; i++)
        if (!strcmp(g->argv[i], "--op") || !strcmp(g->argv[i], "--backend"))
            return true;
    return false;
}

/* Is every line of a among b's? */
static bool subset(const char *a, const char *b)
{
    for (const char *l = a; *l;) {
        const char *e = strchr(l, '\n');
        char *line = strndup(l, (size_t)(e - l) + 1);
        char *nl = tt_fmt("\n%s", line);
        bool in = !strncmp(b, line, strlen(line)) || strstr(b, nl);
        free(nl);
        free(line);
        if (!in)
            return false;
        l = e + 1;
    }
    return true;
}

static void assert_list_predicts(const golden *g, const char *manual)
{
    char *a = tagged_sites(manual), *b = lint_sites(g);
    char *listed = sorted_unique(a), *found = sorted_unique(b);
    if (partial(g) ? !subset(listed, found) : strcmp(listed, found) != 0)
        fail_msg("%s: the list does not predict the result:\nlisted by apply:\n%sreported by "
                 "emberlint afterwards:\n%s", g->c, listed, found);
    free(a);
    free(b);
    free(listed);
    free(found);
}

/* ---- analyze's "to move" is what moved ---- */

static void assert_moves_as_analyzed(const golden *g, const char *analyzed)
{
    json_object *rep = tt_json(analyzed);
    json_object *moves = tt_get(rep, "to_move");
    char *after = tt_tmpdir();
    char *what = tt_fmt("%safter", g->stage);
    copy_of(g->c, what, g->dir, after);
    free(what);
    for (size_t i = 0; i < json_object_array_length(moves); i++) {
        json_object *m = json_object_array_get_idx(moves, i), *copied = NULL;
        const char *name = json_object_get_string(tt_get(m, "name"));
        const char *file = json_object_get_string(tt_get(m, "file"));
        const char *dest = json_object_get_string(tt_get(m, "destination"));
        /* a custom op's kernel that stays for the run that makes the op
         * (without --unsafe-fixes): analyze describes the whole migration */
        static const char kept[] = " unsafe, not applied: [EH104] make custom op ";
        char *waits = tt_fmt("%s:", file);
        const char *at = strstr(g->manual_after, waits);
        const char *sp = at ? strchr(at + strlen(waits), ' ') : NULL;
        bool later = sp && !strncmp(sp, kept, sizeof kept - 1);
        free(waits);
        if (later)
            continue;
        if (!tt_file_contains(after, dest, name))
            fail_msg("%s: analyze moves %s to %s, which does not hold it", g->c, name, dest);
        bool stays = json_object_object_get_ex(m, "copied", &copied);
        char *src = tt_path(after, file);
        bool exists = access(src, F_OK) == 0;
        if (!stays && exists && tt_file_contains(after, file, name))
            fail_msg("%s: analyze moves %s out of %s, which still holds it", g->c, name, file);
        free(src);
    }
    json_object_put(rep);
    tt_rmtree(after);
    free(after);
}

/* ---- the checks ---- */

static void check_plan_in(golden *gp)
{
    golden g = *gp;
    const char *c = g.c;
    char *snap0 = tt_snapshot(g.dir, true);
    tt_run r = golden_run(&g, "plan", false);
    expect(&g, &r, "plan", g.manual);
    tt_run q = golden_run(&g, "plan", true);
    assert_string_equal(q.err, "");
    assert_string_equal(q.out, r.out);
    tt_free(&q);
    char *snap1 = tt_snapshot(g.dir, true);
    tt_assert_same(snap0, snap1, "plan must change nothing");
    /* the diff applies with git, and gives after/ (a case with nothing
     * to rewrite, only sites for a person, prints none) */
    if (r.out[0])
        tt_git_apply(g.dir, r.out, true);
    assert_after(&g);
    free(snap0);
    free(snap1);
    tt_free(&r);
    (void)c;
}

static void check_plan(const char *c)
{
    golden g;
    golden_open(&g, c);
    check_plan_in(&g);
    golden_close(&g);
}

static void check_apply_in(golden *gp)
{
    golden g = *gp;
    const char *c = g.c;
    tt_run an = golden_run(&g, "analyze", false);
    const char *argv[36];
    size_t n = 0;
    argv[n++] = "analyze";
    argv[n++] = "--format";
    argv[n++] = "json";
    for (size_t i = 2; i < g.argc; i++)
        if (!changes_only("analyze", g.argv[i]))
            argv[n++] = g.argv[i];
    argv[n] = NULL;
    tt_run js = mt_migratev(g.dir, NULL, argv, true);
    assert_summary_last(an.err, c);

    tt_run r = golden_run(&g, "apply", false);
    expect(&g, &r, "apply", g.manual_after);
    assert_after(&g);
    assert_list_predicts(&g, r.err);
    assert_moves_as_analyzed(&g, js.out);
    tt_free(&an);
    tt_free(&js);
    tt_free(&r);

    /* idempotent: the second run finds nothing to do */
    char *snap = tt_snapshot(g.dir, true);
    r = golden_run(&g, "apply", false);
    if (!tt_contains(r.err, "nothing to migrate"))
        print_error("%s: second apply said:\n%s", c, r.err);
    assert_true(tt_contains(r.err, "nothing to migrate"));
    char *again = tt_snapshot(g.dir, true);
    tt_assert_same(snap, again, "a second apply must change nothing");
    tt_free(&r);
    r = golden_run(&g, "apply", true);
    assert_string_equal(r.err, "");
    tt_free(&r);

    /* and plan then prints no diff */
    r = golden_run(&g, "plan", false);
    assert_string_equal(r.out, "");
    tt_free(&r);

    free(snap);
    free(again);
}

static void check_apply(const char *c)
{
    golden g;
    golden_open(&g, c);
    check_apply_in(&g);
    golden_close(&g);
}

/* A case with a later run (then/: args, manual, manual.after, after/):
 * the tree apply leaves, migrated again with then/args, is then/after,
 * as plan and apply are checked for any case. */
static void check_then(const char *c)
{
    golden g;
    golden_open(&g, c);
    tt_run r = golden_run(&g, "apply", true);
    assert_int_equal(r.status, g.status);
    tt_free(&r);
    golden_unload(&g);
    g.stage = "then/";
    golden_load(&g);
    char *dir = g.dir, *copy = tt_tmpdir();
    tt_copytree(dir, copy);
    check_plan_in(&g);
    g.dir = copy;
    check_apply_in(&g);
    tt_rmtree(copy);
    free(copy);
    g.dir = dir;
    golden_close(&g);
}

#define THEN(name)                                                                                 \
    static void test_then_##name(void **state)                                                     \
    {                                                                                              \
        (void)state;                                                                               \
        check_then(#name);                                                                         \
    }

#define CASE(name)                                                                                 \
    static void test_plan_##name(void **state)                                                     \
    {                                                                                              \
        (void)state;                                                                               \
        check_plan(#name);                                                                         \
    }                                                                                              \
    static void test_apply_##name(void **state)                                                    \
    {                                                                                              \
        (void)state;                                                                               \
        check_apply(#name);                                                                        \
    }

/* The first cases: the moves themselves.
 *   legacy_dir     a whole ops/blas/ moving with its header and a static
 *                  helper; calls and include rewritten in a frontend file;
 *                  a relative include re-pathed; kernels.def created
 *   partial_op     --op matmul: one function moves, a helper it shares
 *                  with code that stays is copied, the legacy header is
 *                  included from the new place; the include stays
 *   existing_dest  code appended to an existing backends/blas/gemm.c
 *                  (includes merged), kernels.def extended in order
 *   manual         a name that is not an op and a call through a macro:
 *                  listed, untouched
 *   table          a kernel registered in an eh_backend table
 *   shared_static  a static variable shared with code that stays: listed,
 *                  its op not moved; a static const one is copied; a
 *                  tentative definition (`static int n;`) moves with its
 *                  only user
 *   legacy_dir_cxx legacy_dir in C++: a .cpp appended whole to an existing
 *                  backends/blas/dot.cpp, the .hpp header moving, and the
 *                  renames safe (<eh/eh.h>'s ops are declared inside
 *                  extern "C" { }) */
CASE(legacy_dir)
CASE(partial_op)
CASE(existing_dest)
CASE(manual)
CASE(table)
CASE(shared_static)
CASE(legacy_dir_cxx)

/* One class of real legacy code each (issue 10), in styles of their own:
 *   three_backends  an image toolkit with its own legacy layout (impl/<b>/,
 *                   a .emberlint.json): three backends' kernels move, one
 *                   frontend file calls all three
 *   dispatch_table  a DSP engine chosen at run time through a table of
 *                   function pointers and &fn: entries renamed to the ops
 *                   (types agree); &eh_ref_sum (another signature) listed,
 *                   as is the call through the pointer holding it, and
 *                   eh_ref_sum moves but is never registered
 *   wrapper_macros  a rigid-body solver whose wrappers (MATVEC(m, v), GEMV)
 *                   are macros naming a backend function: each use listed
 *                   with the macro's name, and the header's include that
 *                   brings the function stays (its users are elsewhere)
 *   ifdef_configs   #ifdef USE_BLAS / #else around includes and calls,
 *                   with --define-sets "USE_BLAS;!USE_BLAS": both arms
 *                   rewritten and checked, both includes replaced
 *   ifdef_skipped   arms no configuration compiles: a call whose callee
 *                   is declared is renamed (the rename proven where it is
 *                   skipped); one declared only by a skipped include is
 *                   listed, and that include follows its moved header;
 *                   types and a macro the file defines there with a
 *                   library's prefix (struct cblas_limit, fftw_window)
 *                   are not listed, the library call beside them is, and
 *                   so are aliases of the library's names (a #define, a
 *                   typedef, a macro that is one in one #if arm); the
 *                   library's constants in a listed call's arguments are
 *                   that call's site, one alone is its own; definitions
 *                   that do not make a name the project's: another arm's
 *                   (#ifdef NO_CBLAS), an #if 0's, a fallback #ifndef
 *                   FFTW_ESTIMATE, a macro built on an alias; mixer.c's
 *                   legacy includes stay (its skipped code keeps
 *                   fftwf_plan, which nothing declares here: a
 *                   configuration that compiles it may read it through
 *                   them, as emberlint --fix keeps them)
 *   custom_ops      a kernel libeh has no op for, on one backend only
 *                   (made custom op app.fused_gelu, its fallback that
 *                   backend), one whose signature differs from its op's
 *                   (moved, never registered, its call listed with both
 *                   signatures), one held back by a file-local macro
 *                   (named) whose only call was rewritten (now unused)
 *   helpers_licence a partial move: static helpers moved or copied, and
 *                   the new file keeps the source's licence header
 *   crlf_sources    CRLF files: a frontend include rewritten, a partial
 *                   move into a new file (CRLF throughout), a whole file
 *                   appended to an existing LF file (LF throughout)
 *   compdb_multi    -p without PATH: a file the database lists twice
 *                   (-DUSE_BLAS and without) checked in both builds, the
 *                   legacy headers it includes moved, the database (in
 *                   the tree) updated in the same changeset
 *   signal_gate     -p without PATH, a database with absolute paths (as
 *                   CMake writes) listing every file in two builds
 *                   (USE_BLAS=1, USE_BLAS=0); a struct of function
 *                   pointers set per #if arm (designated, `&fn`); a macro
 *                   defined per arm that calls a different backend
 *                   function in each (one entry per symbol, and neither
 *                   is "now unused")
 *   skipped_define  one build configuration (define_sets); the arm it
 *                   skips defines a macro that calls a backend function:
 *                   listed, and the include it needs is kept (re-pathed);
 *                   the same for a name pasted with ## (eh_ref_ ## op)
 *   macro_keeps_use a legacy function that cannot move, one call of it
 *                   rewritten, another inside a macro: it is not listed
 *                   as "now unused, delete"; a call whose parenthesis a
 *                   macro supplies, or whose callee is in parentheses, is
 *                   listed as not written out, as is one whose name a
 *                   line continuation splits (not as "named inside
 *                   macro eh_ref_"), one through `*` as not a plain name
 *                   (none as "in backend code")
 *   macro_argument  calls written whole in a macro's argument: renamed
 *                   there when the macro puts the argument in once, as it
 *                   is (CHECK, a variadic TRY, a call over two lines);
 *                   listed with the reason when the macro makes a string
 *                   of it, puts it in twice or passes it on to another
 *                   macro, and as named inside a macro when its callee
 *                   comes from a macro's body within the argument */
CASE(three_backends)
CASE(dispatch_table)
CASE(wrapper_macros)
CASE(ifdef_configs)
CASE(ifdef_skipped)
CASE(custom_ops)
CASE(helpers_licence)
CASE(crlf_sources)
CASE(compdb_multi)
CASE(signal_gate)
CASE(skipped_define)
CASE(macro_keeps_use)
CASE(macro_argument)

/* Custom ops: backend functions with no libeh op (issue 15):
 *   custom_dispatch     a signal toolkit (--namespace=sig, src/ops/<b>/):
 *                       three ops -- a backend branch collapsed to the
 *                       wrapper, a table of function pointers and &f
 *                       renamed to it, a float parameter carried in the
 *                       params blob, a non-const tensor parameter, a
 *                       header with unnamed parameters, an op with a ref
 *                       kernel only; test_custom_run builds and runs it
 *   custom_refused      what cannot become a custom op, each listed with
 *                       its reason and left as it is: signatures that
 *                       differ between backends, a pointer to state, an
 *                       output parameter, an int result, a variable
 *                       argument list, a wrapper name the code has taken
 *   custom_in_backends  kernels already under backends/<b>/ (blas, ref
 *                       and lazy), called directly: nothing moves, an
 *                       if/else-if chain on the backend name collapses
 *   custom_ifdef        uses in #ifdef USE_BLAS / #else arms (both builds
 *                       checked): each arm renamed, the wrapper's header
 *                       included after the conditional that holds the
 *                       includes (inside a header guard), and after the
 *                       includes of a file that starts with an #ifndef
 *                       that is no guard */
CASE(custom_dispatch)
CASE(custom_refused)
CASE(custom_in_backends)
CASE(custom_ifdef)

/* Custom ops nothing rewrites a use of, each an unsafe change of its own:
 *   custom_unused          app.fused_gelu, called by nothing, and
 *                          app.soft_clip, called only through a macro
 *                          (listed for a person): without --unsafe-fixes
 *                          neither is made, each kernel is listed (exit 1),
 *                          soft_clip's kernels move, fused_gelu's stay
 *                          where they are ([EH104]: in backends/ and called
 *                          by nothing they would look migrated); then/: a
 *                          later run with --unsafe-fixes makes both
 *   custom_unused_applied  the same tree, one run with --unsafe-fixes: both
 *                          made, each kernel listed as applied */
CASE(custom_unused)
THEN(custom_unused)
CASE(custom_unused_applied)

/* A file that includes only a backend's header, which stays (the file
 * still needs what it declares: its own typedef of eh_tensor), and calls
 * two of its functions (--unsafe-fixes):
 *   rename_keeps_include  no include of the file can become <eh/eh.h>, so
 *                         nothing would declare eh_matmul and eh_add: the
 *                         calls are listed for a person (include
 *                         <eh/eh.h>, run again), not renamed into code
 *                         that does not compile */
CASE(rename_keeps_include)

/* A backend's header included beside a core header that brings it too
 * (GSL's linalg code: <gsl/gsl_cblas.h> beside <gsl/gsl_blas.h>, whose
 * types header includes it):
 *   include_elsewhere  the backend constant passed to the core API
 *                      (flip.c) and a call of the backend's function
 *                      (direct.c) stay for a person, but the includes
 *                      go, as emberlint --fix removes them: the core
 *                      header still declares both
 *                      (test_include_removal_agrees) */
CASE(include_elsewhere)

/* The manual-work list against emberlint (public-code surveys):
 *   backend_defined     a function a frontend header declares and a
 *                       backends/<b>/ file defines: its frontend call is
 *                       EH102 (settled across translation units), listed
 *   legacy_extern       a legacy directory's functions with external
 *                       linkage that use backend symbols: EH104, listed
 *                       with the tag whatever reason the moves give (one
 *                       that only calls a static helper is no finding)
 *   legacy_own_skipped  #if arms no build compiles: the legacy file's own
 *                       macro and static function are no backend names
 *                       (no entry); a library call there still is
 *   self_include        a template that includes itself through an
 *                       instantiating header (torch7's generic/ files):
 *                       its body, skipped on the first entry, compiled on
 *                       the others, is compiled code, and so is an #if arm
 *                       per element type that one entry compiles, though
 *                       the template parsed alone skips it all; the include of the
 *                       file that instantiates it stays; in an arm no
 *                       build compiles, a prototype is no call and a
 *                       macro or type is named as such
 *   self_include_main   a file that is its own template (primme's
 *                       linalg/ files: `#ifndef THIS_FILE`, then a header
 *                       that includes THIS_FILE once per element type):
 *                       the main entry skips the whole body the others
 *                       compile, and libclang gives the skipped ranges of
 *                       that entry only; an #if arm in it that no entry
 *                       compiles (SCALE_CHECKS, USE_GPU with its
 *                       <cublas_v2.h>) is skipped code, listed; an arm one
 *                       entry compiles (a #define over two lines) is not */
CASE(backend_defined)
CASE(legacy_extern)
CASE(legacy_own_skipped)
CASE(self_include)
CASE(self_include_main)

/* Public code that calls a library directly, with a project's call
 * templates (.emberlint.json "rewrites") onto helpers of its own:
 *   template_args10      cblas_sgemm's 14 arguments: $10..$14 are the
 *                        tenth to fourteenth (never $1 and a digit), the
 *                        layout and transposes dropped; a call with no
 *                        template keeps the include, and apply names its
 *                        line where it is after the rewrites; a template
 *                        naming $5 of a 4-argument call says so
 *   template_app_prefix  a template onto the project's own app_gain: a
 *                        name like a custom op's wrapper in namespace
 *                        "app", yet no proposal of one: rewritten, not
 *                        dropped as "no custom op"; also for a template
 *                        of eh_blas_gain, whose own wrapper would be
 *                        app_gain (bus.c)
 *   template_skipped     a templated call in an #ifdef arm no build
 *                        compiles: listed as such (a template rewrites
 *                        calls the compiler reads), not as a call "no
 *                        call template maps"; the compiled one rewritten
 *   template_keeps_names a template that passes cblas_sgemm's transposes
 *                        on (CblasTrans, CblasNoTrans twice in a call):
 *                        each a site of its own afterwards, listed where it
 *                        is in the call (plan) and in the rewrite (apply)
 *   template_drops_names a file whose only uses of <cblas.h> are a call and
 *                        the layout and transposes in the arguments its
 *                        template drops: the include goes in the same run
 *                        (a second run has nothing to do); a template that
 *                        passes a transpose on keeps its include, listed
 *   template_literal_names a template that drops the argument holding
 *                        CblasRowMajor and names CblasRowMajor in its own
 *                        text: the include stays (the rewrite uses it),
 *                        listed with that reason; plan's diff compiles
 *   template_repeats_arg a template that writes an argument twice
 *                        (proj_gemm($2, $2, ...)): a kept transpose is
 *                        listed once at its argument (plan) and at each
 *                        copy in the rewrite (apply), never at the call's
 *                        start; the file's own variable cblas_wt passed
 *                        the same way is not listed (emberlint does not
 *                        report it, whatever its prefix) */
CASE(template_args10)
CASE(template_app_prefix)
CASE(template_skipped)
CASE(template_keeps_names)
CASE(template_drops_names)
CASE(template_literal_names)
CASE(template_repeats_arg)

/*   template_own_wrapper a template onto the project's own wrapper of the
 *                        routine (PySCF's dgemm_wrapper: dgemm_'s
 *                        arguments by value): the caller's call is
 *                        rewritten, the wrapper's own call of dgemm_ is
 *                        listed, not made a call of the wrapper itself */
CASE(template_own_wrapper)

/*   project_replacement_advice a project's "replacements" entry naming its
 *                        own function (dgemv_ -> matvec_cols, host arrays
 *                        as dgemv_'s): the call is listed with advice to
 *                        rewrite it or give it a template, not to wrap
 *                        arrays in tensors around matvec_cols */
CASE(project_replacement_advice)

/*   template_many_calls  hundreds of templated calls in a file (an unrolled
 *                        network): every call drops the layout and the
 *                        transposes, and the include goes; in another
 *                        file the last call passes a transpose on, and the
 *                        include stays for it; a transpose chosen by a
 *                        templated call inside the dropped argument (the
 *                        names after that inner call are still in the
 *                        outer call, whose rewrite drops them), and a
 *                        templated call in a kept argument -- what EH101's
 *                        index of a file's calls by extent must find
 *                        (dropped(), lint/rules/backend_include.c) */
CASE(template_many_calls)

/*   template_literal_arg a template that writes arguments only inside a
 *                        string literal ("\"$1, $2, $3\"", a trace of how
 *                        the call was written): those arguments are text
 *                        there, not code -- the layout and transposes are
 *                        no longer used, so the include goes; a call whose
 *                        transpose comes from a function that counts its
 *                        calls would lose that call: unsafe, not applied,
 *                        and its include stays */
CASE(template_literal_arg)

/*   template_lexemes     templates read as C and C++, not as quotes: a
 *                        quote in a comment (n's), a digit separator
 *                        (1'000) and a raw string holding a quote
 *                        (R"(")") open no literal, so the sum put into
 *                        2 * $2 after them is code and gets parentheses;
 *                        an argument the template writes only in a
 *                        comment is text there (a call that picks it is
 *                        lost: unsafe, not applied); an argument holding
 *                        a comment's end is never put into a comment (no
 *                        rewrite, listed) */
CASE(template_lexemes)

/*   template_literal_guard  an argument put inside a template's literal:
 *                        plain text goes in as written ("by 0.5f"); text
 *                        holding the literal's quote, a newline or a
 *                        backslash (an escape there) is never put in: no
 *                        rewrite, listed; in a raw string a backslash
 *                        escapes nothing, so $2 after it is put in, and an
 *                        argument holding its end ')"' is listed */
CASE(template_literal_guard)

/*   fortran_lapack_names  a project that declares the Fortran LAPACK
 *                         routines it calls (dlacpy_, dgeqrt_, dstev_)
 *                         itself: every call listed, none missed for a
 *                         name the built-in backend_prefixes lacked */
CASE(fortran_lapack_names)

/* Public code surveys (R packages, igraph):
 *   f77_call_macro  R's style: F77_NAME(dgemm) declares dgemm_, F77_CALL(dgemm)(...)
 *                   calls it -- the macro pastes the name together, so no
 *                   rewrite reaches the call: listed as such (not "named
 *                   inside macro F77_CALL: rewrite the macro", which is
 *                   the platform's); a call written out as ddot_(...),
 *                   a name the project declares itself, gets its call
 *                   template (EH102 decides such a name across
 *                   translation units and attaches no fix: the scanner's
 *                   rewrite is used) */
CASE(f77_call_macro)

/*   fortran_hidden_length  R's FCONE (public-code survey: R's array.c and
 *                   Lapack.c end every call with a character argument
 *                   `... &ldc FCONE FCONE`): empty where FC_LEN_T is not
 *                   defined, a hidden string length elsewhere.  A template
 *                   that writes the argument holding it is refused (the
 *                   rewrite gemm_cols(..., *(&p FCONE FCONE)) was made, and
 *                   does not compile with -DUSE_FC_LEN_T); one that drops
 *                   it, and a call without it, are rewritten */
CASE(fortran_hidden_length)

/*   precision_paste  a solver's precision macros (cvxgrp/scs's BLAS(x)):
 *                    LA(axpy) pastes d ## axpy ## _ through a second
 *                    macro (the suffix may be a macro), LAI(amax) id ##
 *                    amax ## _, DLA(scal) d ## scal ## _ -- a prefix as
 *                    well as a suffix around the argument: listed as
 *                    pasted from the argument (not "daxpy_ is named
 *                    inside macro LA", a name the macro never spells) */
CASE(precision_paste)

/*   precision_paste_bare  the same macros for a library without the
 *                         Fortran underscore (scs's NOBLASSUFFIX: BLAS(x)
 *                         is d ## x): BLAS(axpy) calls the library's
 *                         daxpy, listed as pasted from its argument (not
 *                         "no libeh op does what this backend function
 *                         does"), in skipped code too; the solver's own
 *                         dscal, which it defines through the same macro,
 *                         is not listed, compiled or skipped */
CASE(precision_paste_bare)

/*   fortran_twin_advice  hypre's routines named by a macro that mangles
 *                        the Fortran twins (solver_dgemm for
 *                        F90_NAME_BLAS(dgemm, DGEMM), here DGEMM; the
 *                        same through name##_ for ddot_, compiled and
 *                        skipped): each is listed with the macro's
 *                        reason and the advice a plain call of the
 *                        routine gets (DGEMM as DGEMM_: eh_matmul's; no
 *                        op for DORMQR_) */
CASE(fortran_twin_advice)

/*   decorated_advice  calls of BLAS routines as ILP64 and wheel builds
 *                     decorate them (cblas_ddot64_ written and pasted
 *                     together by a suffix macro, MKL's cblas_dgemm_64
 *                     and dgesv_64, scipy_cblas_daxpy, and
 *                     LAPACKE_dgesv_work64_): each gets its plain
 *                     routine's advice (eh_dot, eh_matmul, eh_solve...),
 *                     not "no libeh op does what cblas_ddot64_ does" */
CASE(decorated_advice)

/*   alias_other_config  one call, two names: dgetrs_ with USE_LAPACK, and
 *                       MKL's dgetrs through `#define dgetrs_ dgetrs` with
 *                       USE_MKL (--define-sets "USE_MKL;USE_LAPACK"): each
 *                       name is listed with its own reason; the plain
 *                       call's is not the macro's (it was: "dgetrs is
 *                       named inside macro dgetrs_", the other
 *                       configuration's reason at the same place) */
CASE(alias_other_config)

/*   define_sets_once  three define sets (PLAIN;COMPLEX;WITH_LAPACK): a
 *                     call every set makes alike is listed once, as it
 *                     was (so are a macro use's two calls, two entries
 *                     as before); a call whose routine a macro names per set
 *                     (dgemm_, zgemm_ with COMPLEX) is one entry saying
 *                     what each set gives; a call only WITH_LAPACK
 *                     compiles says so (it was: one line per name, none
 *                     naming its set, and nothing said a site was one
 *                     set's); a template line WITH_LAPACK compiles once
 *                     more (saxpy_ beside daxpy_) names both, whichever
 *                     set is first (review: saxpy_ was named nowhere) */
CASE(define_sets_once)

/*   pp_branch_manual  an #ifdef on a backend macro the project names
 *                     (backend_macros): listed with why it has no fix (a
 *                     preprocessor conditional: which build to keep is a
 *                     person's decision), not "the branch cannot be
 *                     collapsed automatically", which said nothing */
CASE(pp_branch_manual)

/*   fortran_mangled_advice  the same under hypre's manglings 3 and 5
 *                           (solver_dscal for F90_TWO(dscal, DSCAL),
 *                           dscal__; solver_ddot for _ddot_) and a bare
 *                           FC_FUNC(dgemm, DGEMM) call: each is the
 *                           routine dscal_, ddot_, dgemm_ and gets its
 *                           advice (eh_multiply_scalar's, eh_dot's,
 *                           eh_matmul's), not "no libeh op does what
 *                           this backend function does"; DAXPY
 *                           (upper case) is looked up as daxpy_, whose
 *                           call template the project gives */
CASE(fortran_mangled_advice)

/*   skipped_member  hypre's device handles: fields named after the GPU
 *                   libraries (`data->cublas_handle`, `.cuda_device =`)
 *                   in code only a GPU build compiles are the project's
 *                   struct's members, not library names (EH102 does not
 *                   report them where the code is compiled): only the
 *                   library's calls and include there are listed; also
 *                   `c2.cuda_device` (a name before the `.`, no number
 *                   like `1.f`) and `to->` with a newline or a comment
 *                   before the name; in C++ (gpu_launch.cpp) a trailing
 *                   return type, `auto f() -> cudaError_t`, is listed */
CASE(skipped_member)

/*   macro_chain  LLNL/sundials' LAPACK names: `#define xgetrf dgetrf_f77`,
 *                `#define dgetrf_f77 LAPACK_NAME(dgetrf, DGETRF)`, which
 *                pastes dgetrf_: the macro at the call does not spell the
 *                name, one of its body makes it -- said so, with that
 *                macro (not "dgetrf_ is named inside macro xgetrf"); a
 *                macro whose body spells the name (dgetrs_f77) is named
 *                as before */
CASE(macro_chain)

/*   library_prefix_paste  NFFT/nfft's FFTW(name): GLUE(fftw_, name), a
 *                         library's prefix pasted before the argument --
 *                         FFTW(execute)(p) is listed as pasted from its
 *                         argument, like LA(axpy) and F77_CALL(dgemm);
 *                         the types it makes (FFTW(plan)) are backend
 *                         types, and fftw3.h stays */
CASE(library_prefix_paste)

/*   complex_fft_plan  an FFTW spectrum analyser (liquid-dsp's kind): a
 *                     complex DFT's plan (fftwf_plan_dft_1d) run by
 *                     fftwf_execute in another function -- the advice
 *                     says no op does that, not fftwf_execute's
 *                     "eh_rfft or eh_irfft", which is for real-input
 *                     and real-output plans; a file making an r2c plan
 *                     (dsp2/) keeps that advice */
CASE(complex_fft_plan)

/*   mixed_fft_plans  a file making plans of both kinds (ngspice's kind: one
 *                    plan variable made complex in one branch and r2c in
 *                    the other, each run right after it is made; a
 *                    member made complex in an init function): each
 *                    fftw_execute's advice follows the plan its argument
 *                    holds -- "no op" for a complex DFT's, eh_rfft or
 *                    eh_irfft for an r2c plan's -- not the file's mix;
 *                    not known (the file's advice): a plan made in an
 *                    if and its else and run after both (review), a
 *                    member one function fills from a helper (review) */
CASE(mixed_fft_plans)

/*   wrapped_calls  a solver library's style (PETSc's PetscCallBLAS around
 *                  BLASdot_, pasted to ddot_): every call in an argument of
 *                  a wrapper macro, the routine's name made by macros of
 *                  the library's mangling -- two calls in one wrapper's use
 *                  are two sites, and one on the line after the wrapper's
 *                  name is listed on its own line, each where emberlint
 *                  reports it, with the reason of its macros; and calls
 *                  part of whose text a wrapper's body supplies (the ')'
 *                  of GEMM(...) in CALL's argument, ROWWISE's first
 *                  argument): one site each, the library constants the
 *                  call's arguments */
CASE(wrapped_calls)

/*   skipped_paste  the same pasting macros in an #ifdef arm no build
 *                  compiles (cvxgrp/scs's BLAS(gesvd) under
 *                  USE_SPECTRAL_CONES): LA(gesvd)(...) and FNAME(dgetrf)(...)
 *                  are read by expanding the TU's macros over the skipped
 *                  text, and listed as pasted calls of dgesvd_ and
 *                  dgetrf_; a prototype there, and the solver's own
 *                  FNAME(rescale), are not */
CASE(skipped_paste)

/*   skipped_paste_tower  a tower of macros each using the next sixteen
 *                  times (M7(x): 16^7 tokens) in skipped code: each use is
 *                  given up past the expander's budget of tokens a site,
 *                  and the pasted FNAME(dgetrf)(...) after them is still
 *                  listed.  Run with the address space of ember-migrate
 *                  limited to 1.5 GiB (enough for libclang, nothing like
 *                  the gigabytes the whole expansion takes): without the
 *                  budget the run fails on memory, it does not hang */
#if defined(__SANITIZE_ADDRESS__)
#define TOWER_UNLIMITED 1 /* ASan (gcc) maps terabytes of shadow memory */
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TOWER_UNLIMITED 1 /* ASan (clang) */
#endif
#endif

static struct rlimit tower_limit(void)
{
    struct rlimit old;
    assert_int_equal(getrlimit(RLIMIT_AS, &old), 0);
#if !defined(TOWER_UNLIMITED)
    struct rlimit rl = old;
    rl.rlim_cur = (rlim_t)1536 << 20;
    if (old.rlim_max != RLIM_INFINITY && rl.rlim_cur > old.rlim_max)
        rl.rlim_cur = old.rlim_max;
    assert_int_equal(setrlimit(RLIMIT_AS, &rl), 0);
#endif
    return old;
}

static void test_plan_skipped_paste_tower(void **state)
{
    (void)state;
    struct rlimit old = tower_limit();
    check_plan("skipped_paste_tower");
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
}

static void test_apply_skipped_paste_tower(void **state)
{
    (void)state;
    struct rlimit old = tower_limit();
    check_apply("skipped_paste_tower");
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
}

/*   skipped_paste_nested  a pasting macro used inside its own argument,
 *                  GLUE(GLUE(d, gesv), _)(...), and inside another's,
 *                  FNAME(PREFIX(gemm))(...), in skipped code: the
 *                  argument is expanded before it is put in (with GLUE
 *                  not yet being replaced), as C does -- listed as the
 *                  pasted calls of dgesv_, dgemm_ and dpotrf_ (the use on
 *                  two lines said on one), not given up */
CASE(skipped_paste_nested)

/*   skipped_paste_recursion  macros where the expansion must stop, in
 *                  skipped code: `#define dsyrk_ dsyrk_` and dtrsm_ ->
 *                  TRSM -> dtrsm_ are calls of the functions (a name met
 *                  in its own expansion is left as it is, "painted blue");
 *                  TRSM(...) is TRSM(...) again, no library's; CALL(f) of
 *                  `#define CALL(f) CALL(f)` names dgemv_ (a use);
 *                  PING/PONG calls nothing.  # makes strings: STR(dgemm_)
 *                  and XSTR(dgeqrf_) are not listed, NAMED(dorgqr_) (#f,
 *                  f) is; ## pastes its operand as written: F77(F77(dgeev))
 *                  and CAT(d, CAT(ge, sv_)) make no library's name */
CASE(skipped_paste_recursion)

/*   skipped_alias  calls through an object-like alias of a routine
 *                  (`#define dgesv F77_GLOBAL(dgesv, DGESV)`, `#define
 *                  dpotrf_ F77_GLOBAL(dpotrf, DPOTRF)`, `#define xgemm
 *                  dgemm_`) in compiled code and in skipped code: the
 *                  skipped ones listed as calls of the routine the alias
 *                  reaches, with the reason compiled code gives (not "no
 *                  op replaces a backend macro", nor nothing at all);
 *                  solve_impl reaches the solver's own function: not
 *                  listed */
CASE(skipped_alias)

/*   skipped_macro_redefined  macros a skipped use may not see as the TU
 *                  has them: defined again differently (FN, ALIAS),
 *                  #undef'd (GONE, in the skipped code), defined otherwise
 *                  in a skipped arm (ARMS), defined after the use (LATE):
 *                  not followed, nothing listed rather than a routine the
 *                  code may not call; SAME, defined again alike, is */
CASE(skipped_macro_redefined)

/*   skipped_paste_deep  arguments nested 24 and 40 deep in skipped code,
 *                  BOTH(x) of SECOND(x, x) (2^24 expansions if each use
 *                  of an argument expanded it again) and WRAP(x): each
 *                  argument expanded once, the calls listed; TWICE(x) (x
 *                  x) 40 deep is given up at the budget (2^40 tokens), a
 *                  use 70 deep past the expander's depth.  Run under the
 *                  tower's limit on the address space */
static void test_plan_skipped_paste_deep(void **state)
{
    (void)state;
    struct rlimit old = tower_limit();
    check_plan("skipped_paste_deep");
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
}

static void test_apply_skipped_paste_deep(void **state)
{
    (void)state;
    struct rlimit old = tower_limit();
    check_apply("skipped_paste_deep");
    assert_int_equal(setrlimit(RLIMIT_AS, &old), 0);
}

/*   if0_skipped  xiaoyeli/superlu's EXAMPLE/ *itersol.c: a BLAS call kept
 *                under `#if 0` beside its replacement: listed (emberlint
 *                reports it) but not with "name one with --define-sets to
 *                have it checked", which no define set can do -- said to
 *                be under #if 0 (its include too); a call under
 *                #ifdef USE_VENDOR_NORM keeps the --define-sets advice */
CASE(if0_skipped)

/*   if0_branches  `#if 0` then `#elif defined(USE_BLAS)`: clang skips one
 *                 range from the `#if 0`, but the call under the #elif
 *                 keeps the --define-sets advice (USE_BLAS compiles it),
 *                 the one under `#if 0` is said to be under #if 0; an
 *                 `#if 0` inside `#ifdef CHECK_NORM` is under #if 0 in
 *                 every configuration (one range opens at the #ifdef,
 *                 the other at the #if 0): the same list whatever the
 *                 order of the define sets (then/: the sets reversed) */
CASE(if0_branches)

/*   if_constant  "never" written other ways than `#if 0`: `#if (0)`, 0L,
 *                0x0, !1, `#elif 1 - 1`, `#else` of `#if 1`, `#elif 0`
 *                after an #ifdef, `#if 0 + 0` around an include: each
 *                evaluated from its tokens (no macro in it), said to be
 *                false whatever is defined, with the directive and its
 *                line, not "name one with --define-sets"; a condition
 *                that names a macro -- one the file defines to 0, a
 *                `defined()`, `0 && NORM_OFF` -- keeps the advice */
CASE(if_constant)

/*   defined_and_zero  a BLAS path switched off after a feature test,
 *                     `#if defined(HAVE_CBLAS) && 0` (numpy's
 *                     matmul.c.src), around an include and a call, and
 *                     the #else of `#if defined HAVE_BLAS || 1`: false
 *                     (true) whatever is defined, since `defined` is 0 or
 *                     1 and regroups nothing; `defined(HAVE_BLAS) && 1`
 *                     and `FAST_NORM && 0` (a macro may be `1 || 1`) keep
 *                     the advice "name one with --define-sets" */
CASE(defined_and_zero)

/*   skipped_include_indented  vendor includes indented under their #if
 *                             (`    #include <mkl_cblas.h>`, `  #  include`,
 *                             PLASMA's core_lapack.h): listed at their
 *                             '#', as a compiled one is, not at column 1 */
CASE(skipped_include_indented)

/*   template_macro_call  call templates and the project's macros: a
 *                        template onto CHECKED_SCAL, a macro that calls
 *                        cblas_sscal itself, and one that writes
 *                        CHECKED(cblas_saxpy(...)): each such call is left
 *                        with the reason, its include stays, and the rest
 *                        of the tree migrates (before, the include went,
 *                        the pre-write compile failed and nothing was
 *                        written); library calls written in an argument of
 *                        a macro that puts it in once, as it is
 *                        (POSITIVE(cblas_sdot(...) - 1.0f), POSITIVE(d =
 *                        ...), LOG_CALL over two lines) are rewritten by
 *                        the template (before: "not written out as
 *                        cblas_sdot(arguments)"); SHOW (#x) and TWICE are
 *                        listed with why; a template naming cblas_scopy
 *                        only in a string (TRACED("cblas_scopy(...)", ...))
 *                        is applied (before: "writes a call of cblas_scopy
 *                        itself"), and NRM_ROWS, whose body names the type
 *                        CBLAS_INDEX but calls nothing of the library, is
 *                        left saying it "names the library's CBLAS_INDEX"
 *                        (before: "calls the library itself") */
CASE(template_macro_call)

/*   macro_forms  what a macro does with a BLAS name, read from its body:
 *                MY(axpy) of `#define MY(x) daxpy_` spells the name and
 *                ignores its argument (named inside MY, not pasted from
 *                axpy); CAT(d, axpy_) and VCALL(axpy, ...) paste it from
 *                their arguments; SCALE calls TRACE first, then DSCAL,
 *                which spells dscal_ (through DSCAL, not TRACE); xcopy
 *                through ycopy; NAMED(axpy) and PRE(rm2_) paste from
 *                their argument */
CASE(macro_forms)
THEN(if0_branches)

/*   macro_paste_other  CALL(foo, ...) pastes its argument into log_##f,
 *                      not into dscal_, which comes from DSCAL of its
 *                      body: through DSCAL, not pasted from the arguments
 *   macro_chain_paste  SCALE uses TRACE(scal), which pastes log_##s, then
 *                      DSCAL, which spells dscal_: through DSCAL (the
 *                      macro spelling the name before one that pastes,
 *                      and log_##s cannot make dscal_) */
CASE(macro_paste_other)
CASE(macro_chain_paste)

/*   macro_chain_long_body  SOLVER_GEMV uses la_gemv, whose body converts
 *                      and checks five sizes (twenty names) before it
 *                      calls LA_DGEMV, which spells dgemv_: through
 *                      la_gemv (SuiteSparse's UMFPACK BLAS_GEMM ->
 *                      SUITESPARSE_BLAS_dgemm -> SUITESPARSE_BLAS_DGEMM),
 *                      not "named inside SOLVER_GEMV" */
CASE(macro_chain_long_body)

/*   skipped_own_macro  include/spec.h (excluded from linting) defines the
 *                      project's FFTW_INIT: not listed in skipped code, as
 *                      not in compiled code (backend_symbols.c); FFTW's
 *                      FFTW_ESTIMATE beside it stays listed; FFTW_ALL,
 *                      whose body names only the project's FFTW_INIT, is
 *                      the project's too (its macros are looked through) */
CASE(skipped_own_macro)

/*   skipped_own_type   include/order.h (excluded from linting) declares
 *                      the project's own copy of CBLAS's enumerations (as
 *                      NumPy's npy_cblas.h does): their uses in an #ifdef
 *                      arm no build compiles are not listed, as EH102 does
 *                      not report them where compiled; an enumeration it
 *                      does not declare (CBLAS_SIDE, CblasLeft) and the
 *                      routine it only prototypes (cblas_dscal) stay */
CASE(skipped_own_type)

/*   skipped_own_variable  variables the project names with FFTW's prefix
 *                      (ImageMagick's fourier.c style: `fftw_plan` on one
 *                      line, the local `fftw_r2c_plan;` on the next) in an
 *                      #ifdef arm no build compiles: neither their
 *                      declarations nor their uses are listed, as EH102
 *                      does not report locals or the project's variables
 *                      where compiled (a later declarator of a list, one
 *                      after a directive's line, file-scope ones too); the
 *                      library's types, macros, calls and the address of
 *                      fftw_free stay, as does the call through the
 *                      variable it initializes (not its declarator), and
 *                      `sizeof(const fftw_complex[2])` names the type, not
 *                      a variable: the sites listed are the EH102 findings
 *                      of a build with WITH_FFTW, place for place */
CASE(skipped_own_variable)

/*   skipped_core       the same #ifdef arm no build compiles, in core code
 *                      (core_paths: dispatch/) and in application code:
 *                      only the application's include and call are listed,
 *                      as EH101 and EH102 report only there where compiled */
CASE(skipped_core)

/*   skipped_guarded_macro  an #ifdef USE_CUBLAS arm no build compiles
 *                       defines CUBLAS_SCALAR inside an include guard
 *                       (`#ifndef GAIN_PRIVATE` / `#define GAIN_PRIVATE`,
 *                       as primme's cublas_wrapper.c does) and uses it after
 *                       the guard, and in an #else nested in the arm: the
 *                       file's own macro (a guard is no condition, and a
 *                       use nested deeper is where the definition is), no
 *                       backend name; the cuBLAS include, type and call
 *                       are listed */
CASE(skipped_guarded_macro)

/*   guard_nested_mid_file  the same arm with code after it, outside every
 *                       conditional: a guard nested in an arm counts only
 *                       in a file that is one conditional to its end (as
 *                       primme's is); here nothing says GAIN_PRIVATE is
 *                       not defined before it (another header, -D), so
 *                       CUBLAS_SCALAR's uses are listed (d79cf18 took any
 *                       nested #ifndef X / #define X for a guard) */
CASE(guard_nested_mid_file)

/*   guard_nested_in_guarded_file  the same file wrapped in its own
 *                       include guard: that guard's #endif ends the file,
 *                       which says nothing of the arm around the nested
 *                       one; CUBLAS_SCALAR's uses are still listed (0894ea2
 *                       listed none: the guard counted as the outermost #if) */
CASE(guard_nested_in_guarded_file)

/*   guard_feature_default  `#ifndef HAVE_CBLAS` / `#define HAVE_CBLAS 0`
 *                       (a feature default, tested by #if HAVE_CBLAS) is
 *                       no include guard: built with HAVE_CBLAS=1, the
 *                       <cblas.h> include stays for the cblas_ddot under
 *                       #if HAVE_CBLAS && defined(USE_DOUBLE_CHECKS)
 *                       (51f6354 took it for a guard and removed the
 *                       include) */
CASE(guard_feature_default)

/*   self_include_sibling_macro  a file that includes itself once per element
 *                       type defines its own CBLAS_ELEM in sibling #if arms
 *                       the first entry skips and later ones compile: a
 *                       use in a newly read arm is the file's own macro,
 *                       no backend name (9260b67 listed it) */
CASE(self_include_sibling_macro)

/*   include_in_body     a header included three times, the last inside a
 *                       function body (the only entry compiling its
 *                       cblas_sasum arm): the call is compiled code,
 *                       rewritten by its template, not listed as skipped
 *                       (9260b67 found no cursor of the entry inside the
 *                       body: listed "in skipped code" the call it rewrote);
 *                       cblas_isamax keeps <cblas.h> */
CASE(include_in_body)

/*   self_include_else_arm  a generic header entered once per element type
 *                       (#if REAL_IS_FLOAT / #elif REAL_IS_DOUBLE / #else):
 *                       the first entry skips the rest of the chain as one
 *                       range; the #else arm no entry compiles is read as
 *                       skipped code (cblas_csscal listed, <cblas.h> kept),
 *                       not lost at the #else (9260b67 stopped there) */
CASE(self_include_else_arm)

/* Unsafe changes (docs/ember-migrate.md, "Safe and unsafe changes"):
 *   unsafe_left     a call template marked safe, one of whose calls holds
 *                   a call (next_stride(), counting the sends) in an
 *                   argument the template drops: that rewrite is unsafe,
 *                   so plan and apply without --unsafe-fixes leave it
 *                   out, and the include it would let go; both listed
 *                   with why ("unsafe, not applied", exit 1; the include:
 *                   "nothing uses it once its file's calls are
 *                   rewritten"); the safe call beside it is rewritten
 *   unsafe_applied  the same tree with --unsafe-fixes: every change
 *                   made, each unsafe one listed ("unsafe, applied",
 *                   exit 0) */
CASE(unsafe_left)

/*   template_sizeof  sizeof does not evaluate its operand: a template that
 *                   writes a pointer once as code and once under sizeof
 *                   evaluates it once, so a call there is safe (it was
 *                   "writes argument 1 2 times": unsafe); one that writes
 *                   it only under sizeof -- through a cast too: sizeof
 *                   *(const char *)$1, or as the first of all the
 *                   arguments: sizeof $* (was applied as safe) -- loses
 *                   the call (unsafe, listed) */
CASE(template_sizeof)

/*   template_generic  operands not evaluated beyond sizeof's: _Generic's
 *                   controlling expression (a template writing a pointer
 *                   there and in the selected call evaluates it once:
 *                   safe; one writing it only there loses a call:
 *                   unsafe, it was applied), a compound literal under
 *                   sizeof (was applied), __typeof__ in the template
 *                   (its message names __typeof__, not sizeof) and in an
 *                   argument the template drops (no call: safe, was "a
 *                   call") */
CASE(template_generic)

/*   template_conditional  what a template evaluates on some paths only
 *                   (after ?, && or ||, in one of _Generic's associations)
 *                   may not run: a call written only there is lost
 *                   (unsafe; both were applied as safe), one written
 *                   there and once more may run twice ("up to 2 times");
 *                   a call before the ? of another argument stays safe */
CASE(template_conditional)

/*   template_sizeof_cast  sizeof's operand through a cast under a prefix
 *                   operator: a cast of a compound literal
 *                   (*(T *)(T[]){$1}), of an address (*(T *)&$1), of
 *                   another cast (-(int)(long)$1) -- each was applied as
 *                   safe, dropping the call or ++ -- and, after a group
 *                   that may be an expression, -($2) - $1, a difference:
 *                   $1 evaluated, safe */
CASE(template_sizeof_cast)
CASE(unsafe_applied)

/* An include its file's skipped code needs (public-code survey: darknet):
 *   skipped_header_decl  src/dev.h declares cuda_make_array only under
 *                        #ifdef GPU, and pool.c calls it only there: no
 *                        configuration declares it, yet the include is
 *                        what brings it where GPU is defined, so it stays
 *                        even with --unsafe-fixes (listed, as emberlint
 *                        --fix keeps it); sync.c's skipped code calls
 *                        only cudaDeviceSynchronize, which nothing declares
 *                        here: where the code is compiled the include may
 *                        bring it (darknet's cuda.h includes
 *                        <cuda_runtime.h> under #ifdef GPU), so it stays
 *                        too, as emberlint --fix keeps it
 *   skipped_header_unprefixed
 *                        as skipped_header_decl, with names of no backend
 *                        prefix: blend.c's skipped code calls gpu_axpy and
 *                        hook.c's reads the variable gpu_hook, which only
 *                        gpu.h's own #ifdef WITH_GPU declares: both
 *                        includes stay; scale.c's skipped code names only
 *                        its parameters, which gpu.h writes as parameter
 *                        names, declaring nothing: its include goes
 *   skipped_digit_separator
 *                        as skipped_header_unprefixed in C++14: fill.cpp's
 *                        skipped call follows 1'000 on its line, whose
 *                        quote starts no character literal, so the call is
 *                        read and the include stays; clear.cpp's skipped
 *                        code names its own variables after 1'000: its
 *                        include goes, listed as unsafe (of a source file,
 *                        not a header) */
CASE(skipped_header_decl)
CASE(skipped_header_unprefixed)
CASE(skipped_digit_separator)

/* The include lines a unified diff removes, "FILE: -#include ...\n",
 * sorted. */
static char *removed_includes(const char *diff)
{
    char *out = calloc(1, 1), *file = NULL;
    size_t n = 0;
    for (const char *l = diff; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        if (!strncmp(l, "+++ b/", 6)) {
            free(file);
            file = strndup(l + 6, len - 6);
        } else if (file && !strncmp(l, "-#include", 9)) {
            char *row = tt_fmt("%s: %.*s\n", file, (int)len, l);
            out = realloc(out, n + strlen(row) + 1);
            memcpy(out + n, row, strlen(row) + 1);
            n += strlen(row);
            free(row);
        }
        l = e ? e + 1 : NULL;
    }
    free(file);
    char *sorted = sorted_unique(out);
    free(out);
    return sorted;
}

/* emberlint --diff --unsafe-fixes and ember-migrate plan --unsafe-fixes
 * remove the same includes from a tree whose skipped code may need them
 * (one function decides for both: skipped_include.h). */
static void test_include_removal_agrees(void **state)
{
    (void)state;
    static const char *const cases[] = {"skipped_header_decl", "skipped_header_unprefixed",
                                        "skipped_digit_separator", "include_elsewhere"};
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        char *before = fixture(cases[c], "before");
        char *dir = tt_tmpdir();
        tt_copytree(before, dir);
        const char *lint[] = {EMBERLINT, "--diff", "--unsafe-fixes", "--no-cache", ".", "--",
                              MT_INCLUDE, NULL};
        tt_run l = tt_exec(dir, lint, NULL);
        tt_run m = mt_migrate(dir, NULL, "plan", "--unsafe-fixes", ".", NULL);
        char *by_lint = removed_includes(l.out), *by_migrate = removed_includes(m.out);
        if (strcmp(by_lint, by_migrate))
            print_error("%s: emberlint removes:\n%sember-migrate removes:\n%s", cases[c],
                        by_lint, by_migrate);
        assert_string_equal(by_lint, by_migrate);
        free(by_lint);
        free(by_migrate);
        tt_free(&l);
        tt_free(&m);
        tt_rmtree(dir);
        free(dir);
        free(before);
    }
}

/* --backup keeps each modified or deleted file's original as FILE.orig;
 * the tree is otherwise after/. */
static void test_backup(void **state)
{
    (void)state;
    char *before = fixture("legacy_dir", "before");
    char *dir = tt_tmpdir();
    tt_copytree(before, dir);
    tt_run r = mt_migrate(dir, NULL, "apply", "--backup", "-q", ".", NULL);
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");     /* --quiet */
    char *was = tt_fmt("%s/main.c", before);
    char *b = tt_read(was, NULL);
    assert_non_null(b);
    tt_assert_file(dir, "main.c.orig", b);
    free(b);
    free(was);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
    free(before);
}

#define BOTH(name) cmocka_unit_test(test_plan_##name), cmocka_unit_test(test_apply_##name)

int main(void)
{
    const struct CMUnitTest tests[] = {
        BOTH(legacy_dir), BOTH(partial_op), BOTH(existing_dest), BOTH(manual), BOTH(table),
        BOTH(shared_static), BOTH(legacy_dir_cxx), BOTH(three_backends), BOTH(dispatch_table), BOTH(wrapper_macros),
        BOTH(ifdef_configs), BOTH(ifdef_skipped), BOTH(custom_ops), BOTH(helpers_licence),
        BOTH(crlf_sources), BOTH(compdb_multi), BOTH(signal_gate), BOTH(skipped_define), BOTH(macro_keeps_use),
        BOTH(macro_argument),
        BOTH(custom_dispatch), BOTH(custom_refused), BOTH(custom_in_backends),
        BOTH(custom_ifdef), BOTH(backend_defined), BOTH(legacy_extern), BOTH(legacy_own_skipped),
        BOTH(self_include), BOTH(self_include_main), BOTH(template_args10), BOTH(template_app_prefix),
        BOTH(template_skipped), BOTH(template_keeps_names), BOTH(template_drops_names),
        BOTH(template_literal_names), BOTH(template_repeats_arg), BOTH(template_own_wrapper), BOTH(project_replacement_advice), BOTH(template_many_calls),
        BOTH(template_literal_arg), BOTH(template_lexemes), BOTH(template_literal_guard),
        BOTH(fortran_lapack_names), BOTH(f77_call_macro), BOTH(fortran_hidden_length), BOTH(precision_paste), BOTH(precision_paste_bare), BOTH(fortran_twin_advice), BOTH(decorated_advice), BOTH(alias_other_config), BOTH(define_sets_once), BOTH(pp_branch_manual), BOTH(fortran_mangled_advice), BOTH(skipped_member), BOTH(macro_chain), BOTH(if0_skipped),
        BOTH(if0_branches), BOTH(if_constant), BOTH(defined_and_zero), BOTH(skipped_include_indented), BOTH(template_macro_call), cmocka_unit_test(test_then_if0_branches), BOTH(macro_forms),
        BOTH(library_prefix_paste), BOTH(complex_fft_plan), BOTH(mixed_fft_plans), BOTH(wrapped_calls), BOTH(skipped_paste), BOTH(skipped_paste_tower), BOTH(skipped_paste_nested), BOTH(skipped_paste_recursion),
        BOTH(skipped_alias), BOTH(skipped_macro_redefined), BOTH(skipped_paste_deep), BOTH(macro_paste_other), BOTH(macro_chain_paste), BOTH(macro_chain_long_body),
        BOTH(skipped_own_macro), BOTH(skipped_own_type), BOTH(skipped_own_variable), BOTH(skipped_core), BOTH(skipped_guarded_macro), BOTH(guard_nested_mid_file), BOTH(guard_nested_in_guarded_file), BOTH(guard_feature_default), BOTH(self_include_sibling_macro), BOTH(include_in_body), BOTH(self_include_else_arm),
        BOTH(unsafe_left), BOTH(template_sizeof), BOTH(template_generic), BOTH(template_conditional), BOTH(template_sizeof_cast), BOTH(unsafe_applied), BOTH(skipped_header_decl), BOTH(skipped_header_unprefixed),
        BOTH(skipped_digit_separator),
        cmocka_unit_test(test_include_removal_agrees),
        BOTH(custom_unused), cmocka_unit_test(test_then_custom_unused), BOTH(custom_unused_applied),
        BOTH(rename_keeps_include), BOTH(include_elsewhere),
        cmocka_unit_test(test_backup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
