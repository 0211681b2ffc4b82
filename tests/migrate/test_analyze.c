/* tests/migrate/test_analyze.c -- `ember-migrate analyze` and the scan
 * under it (em_scan).
 *
 * The fixture trees are tests/migrate/analyze_fixtures/<case>/:
 *   basic   backends/blas (kernels.def + kernels), backends/fast (an
 *           eh_backend table), legacy ops/ref/ (a kernel, a non-kernel
 *           op, a static helper, a header), a frontend src/app.c
 *   broken  a legacy op and a file that does not parse
 * The binary (EMBER_MIGRATE) runs in the fixture directory, so paths are
 * shown relative to it; the JSON output is compared whole.  The last
 * tests analyze the repository itself (libeh + backends) and check it
 * against docs/support-matrix.md, which ehinfo generates from the built
 * library. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "migrate_test.h"
#include "knowledge.h"
#include "metadata.h"
#include "options.h"
#include "path.h"
#include "registry.h"
#include "rule.h"
#include "scan.h"

#define FIXTURES MIGRATE_SRCDIR "/tests/migrate/analyze_fixtures"
#define INCLUDE MT_INCLUDE

static bool is_meta(size_t op)
{
    return strcmp(el_op_kind(op), "META") == 0;
}

/* text contains every one of the needles (NULL-terminated). */
static void assert_has_all(const char *text, const char *const *needles)
{
    for (size_t i = 0; needles[i]; i++)
        if (!tt_contains(text, needles[i]))
            fail_msg("missing:\n%s\nin:\n%s", needles[i], text);
}

/* ---- analyze: the basic tree ---------------------------------------------------- */

static void test_json_basic(void **state)
{
    (void)state;
    tt_run r = mt_migrate(FIXTURES "/basic", NULL, "analyze", "--format", "json", ".", NULL);
    assert_int_equal(r.status, 0);
    /* a summary line ends the run (on stderr: stdout is the JSON) */
    assert_string_equal(r.err, "ember-migrate: 3 backends, 4 ops shown; 3 definitions to move "
                               "into backends/ (2 ops, 1 helper)\n");
    json_object *got = tt_json(r.out);
    json_object *want = tt_json(
        "{\"tool\":\"ember-migrate\",\"version\":\"" EL_VERSION "\","
        "\"backends\":[\"blas\",\"fast\",\"ref\"],"
        "\"tables\":["
        " {\"backend\":\"blas\",\"kind\":\"kernels.def\",\"file\":\"backends/blas/kernels.def\",\"line\":2,\"var\":null},"
        " {\"backend\":\"fast\",\"kind\":\"eh_backend\",\"file\":\"backends/fast/backend.c\",\"line\":10,"
        "  \"var\":\"eh_fast_backend\"}],"
        "\"ops\":["
        " {\"op\":\"exp\",\"backends\":{\"blas\":\"missing\",\"fast\":\"table\",\"ref\":\"missing\"}},"
        " {\"op\":\"add\",\"backends\":{\"blas\":\"table\",\"fast\":\"missing\",\"ref\":\"missing\"}},"
        " {\"op\":\"sum\",\"backends\":{\"blas\":\"missing\",\"fast\":\"missing\",\"ref\":\"legacy\"}},"
        " {\"op\":\"matmul\",\"backends\":{\"blas\":\"table\",\"fast\":\"missing\",\"ref\":\"legacy\"}}],"
        "\"missing\":{\"blas\":[\"exp\",\"sum\"],\"fast\":[\"add\",\"sum\",\"matmul\"],\"ref\":[\"exp\",\"add\"]},"
        "\"to_move\":["
        " {\"file\":\"ops/ref/matmul.c\",\"line\":5,\"name\":\"pack\",\"backend\":\"ref\",\"op\":\"helper\","
        "  \"destination\":\"backends/ref/matmul.c\"},"
        " {\"file\":\"ops/ref/matmul.c\",\"line\":10,\"name\":\"eh_ref_matmul\",\"backend\":\"ref\",\"op\":\"matmul\","
        "  \"destination\":\"backends/ref/matmul.c\"},"
        " {\"file\":\"ops/ref/matmul.c\",\"line\":15,\"name\":\"eh_ref_sum\",\"backend\":\"ref\",\"op\":\"sum\","
        "  \"destination\":\"backends/ref/matmul.c\"}],"
        "\"custom_ops\":[],\"not_custom_ops\":[],"
        "\"parse_errors\":[]}");
    tt_assert_json_equal(got, want);
    json_object_put(got);
    json_object_put(want);
    tt_free(&r);
}

static void test_text_and_markdown(void **state)
{
    (void)state;
    tt_run r = mt_migrate(FIXTURES "/basic", NULL, "analyze", ".", NULL);
    assert_int_equal(r.status, 0);
    assert_has_all(r.out, (const char *const[]){
        "\nop      blas     fast     ref\n",
        "\nexp     -        table    -\n",
        "\nmatmul  table    -        legacy\n",
        "\nsum     -        -        legacy\n",
        "  fast: backends/fast/backend.c:10 (eh_backend eh_fast_backend)\n",
        "  blas: backends/blas/kernels.def:2 (kernels.def)\n",
        "  fast: 3 ops:\n    add sum matmul\n",
        "  ops/ref/matmul.c:10: eh_ref_matmul (ref, matmul) -> backends/ref/matmul.c\n",
        "  ops/ref/matmul.c:5: pack (ref, helper) -> backends/ref/matmul.c\n",
        NULL});
    assert_null(strstr(r.out, "\nlog ")); /* a NULL entry implements nothing */
    assert_null(strstr(r.out, " \n"));    /* no trailing blanks */
    tt_free(&r);

    r = mt_migrate(FIXTURES "/basic", NULL, "analyze", "--format=markdown", ".", NULL);
    assert_int_equal(r.status, 0);
    assert_has_all(r.out, (const char *const[]){
        "| op | blas | fast | ref |\n|---|---|---|---|\n",
        "| `matmul` | table | - | legacy |\n",
        "| `exp` | - | table | - |\n",
        "| `eh_ref_matmul` | ops/ref/matmul.c:10 | ref | matmul | backends/ref/matmul.c |\n",
        "- **fast** (3): `add`, `sum`, `matmul`\n",
        NULL});
    tt_free(&r);

    /* no backend: a sentence, not a table of one column and no row */
    char *none = tt_tmpdir();
    free(tt_write(none, "src/a.c", "int f(void) { return 0; }\n"));
    r = mt_migrate(none, NULL, "analyze", "--format=markdown", "src", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "\nno backend found (no backends/<name>/"));
    assert_null(strstr(r.out, "| op |"));
    tt_free(&r);
    tt_rmtree(none);
    free(none);

    /* --all-ops: a row for every non-META op */
    r = mt_migrate(FIXTURES "/basic", NULL, "analyze", "--all-ops", "--format", "json", ".", NULL);
    assert_int_equal(r.status, 0);
    json_object *got = tt_json(r.out), *ops = NULL;
    json_object_object_get_ex(got, "ops", &ops);
    size_t non_meta = 0;
    for (size_t k = 0; k < el_op_count(); k++)
        non_meta += !is_meta(k);
    assert_int_equal(json_object_array_length(ops), non_meta);
    json_object_put(got);
    tt_free(&r);
}

static void test_filters(void **state)
{
    (void)state;
    tt_run r = mt_migrate(FIXTURES "/basic", NULL, "analyze", "--format", "json", "--backend", "ref", "--op",
                          "eh_matmul", ".", NULL);
    assert_int_equal(r.status, 0);
    json_object *got = tt_json(r.out);
    json_object *want = tt_json(
        "{\"tool\":\"ember-migrate\",\"version\":\"" EL_VERSION "\",\"backends\":[\"ref\"],\"tables\":[],"
        "\"ops\":[{\"op\":\"matmul\",\"backends\":{\"ref\":\"legacy\"}}],"
        "\"missing\":{\"ref\":[]},"
        /* what plan moves for --op matmul: the op and the helper it needs */
        "\"to_move\":[{\"file\":\"ops/ref/matmul.c\",\"line\":5,\"name\":\"pack\",\"backend\":\"ref\","
        "\"op\":\"helper\",\"destination\":\"backends/ref/matmul.c\"},"
        "{\"file\":\"ops/ref/matmul.c\",\"line\":10,\"name\":\"eh_ref_matmul\",\"backend\":\"ref\","
        "\"op\":\"matmul\",\"destination\":\"backends/ref/matmul.c\"}],\"custom_ops\":[],"
        "\"not_custom_ops\":[],\"parse_errors\":[]}");
    tt_assert_json_equal(got, want);
    json_object_put(got);
    json_object_put(want);
    tt_free(&r);

    /* two --op, one --backend: rows for exactly those ops */
    r = mt_migrate_args(FIXTURES "/basic", "analyze", "--backend", "blas", "--op", "add", "--op",
                        "fft_not_an_op", ".", NULL);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.err, "ember-migrate: --op: 'fft_not_an_op' is not an op of libeh/ops.def "
                               "(see ember-migrate --help)\n");
    assert_string_equal(r.out, "");
    tt_free(&r);

    r = mt_migrate(FIXTURES "/basic", NULL, "analyze", "--backend", "blas", "--op", "add", "--op", "log", ".",
                   NULL);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "op x backend (2 of 2 ops shown)\n\nop   blas\n---  -------\nlog  -\n"
                                  "add  table\n"));
    assert_non_null(strstr(r.out, "  blas: 1 op:\n    log\n"));
    assert_non_null(strstr(r.out, "to move (backend code outside backends/):\n  none\n"));
    tt_free(&r);
}

/* Usage errors exit 2 with a message on stderr (and nothing on stdout);
 * --help and --version exit 0. */
static void test_usage(void **state)
{
    (void)state;
    static const struct {
        const char *argv[6];
        int status;
        const char *err;        /* stderr exactly, or NULL */
        const char *err_has;    /* stderr contains, or NULL */
        const char *out_start;  /* stdout starts with, or NULL */
    } cases[] = {
        {{"analyze", "--format", "yaml", ".", NULL}, 2,
         "ember-migrate: --format: expected text, markdown or json, got 'yaml' "
         "(see ember-migrate --help)\n", NULL, NULL},
        {{"migrate", ".", NULL}, 2, NULL, "ember-migrate: unknown command 'migrate'", NULL},
        {{"analyze", NULL}, 2, NULL, "ember-migrate: no PATH given", NULL},
        {{"plan", "--format", "json", ".", NULL}, 2,
         "ember-migrate: --format and --all-ops are options of analyze and merge "
         "(see ember-migrate --help)\n", NULL, NULL},
        {{NULL}, 2,
         "ember-migrate: no command given: expected analyze, plan, apply or merge "
         "(see ember-migrate --help)\n", NULL, NULL},
        {{"analyze", "does-not-exist", NULL}, 2, NULL, "does-not-exist", NULL},
        {{"plan", "--namespace", "9lives", ".", NULL}, 2,
         "ember-migrate: --namespace: '9lives' is not a C identifier of at most 40 characters "
         "(see ember-migrate --help)\n", NULL, NULL},
        {{"plan", "--namespace=geo.ops", ".", NULL}, 2, NULL, "'geo.ops' is not a C identifier",
         NULL},
        {{"plan", "--namespace", NULL}, 2, NULL, "--namespace", NULL},
        {{"--help", NULL}, 0, "", NULL, "usage: ember-migrate analyze"},
        {{"--version", NULL}, 0, "", NULL, "ember-migrate " EL_VERSION " ("},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tt_run r = mt_migratev(FIXTURES, NULL, cases[i].argv, false);
        assert_int_equal(r.status, cases[i].status);
        if (cases[i].err)
            assert_string_equal(r.err, cases[i].err);
        if (cases[i].err_has)
            assert_true(tt_contains(r.err, cases[i].err_has));
        if (cases[i].out_start)
            assert_true(strncmp(r.out, cases[i].out_start, strlen(cases[i].out_start)) == 0);
        else
            assert_string_equal(r.out, "");
        tt_free(&r);
    }
    /* the help says what takes --format and --all-ops as the usage error does */
    static const char *const help[] = {"--help", NULL};
    tt_run r = mt_migratev(FIXTURES, NULL, help, false);
    assert_true(tt_contains(r.out, "--format FORMAT       analyze, merge: text"));
    assert_true(tt_contains(r.out, "--all-ops             analyze, merge: a row"));
    tt_free(&r);
}

/* A file that does not parse is reported; the others are analyzed. */
static void test_parse_error(void **state)
{
    (void)state;
    tt_run r = mt_migrate_args(FIXTURES "/broken", "analyze", "--format", "json", ".", NULL);
    assert_int_equal(r.status, 1);
    assert_string_equal(r.err, "ember-migrate: 1 backend, 1 op shown; 1 definition to move into "
                               "backends/ (1 op, 0 helpers); 1 file did not parse, the matrix may "
                               "be incomplete\n");
    json_object *got = tt_json(r.out), *v = NULL, *e = NULL;
    json_object_object_get_ex(got, "parse_errors", &v);
    assert_int_equal(json_object_array_length(v), 1);
    e = json_object_array_get_idx(v, 0);
    json_object *f = NULL, *line = NULL;
    json_object_object_get_ex(e, "file", &f);
    json_object_object_get_ex(e, "line", &line);
    assert_string_equal(json_object_get_string(f), "src/broken.c");
    assert_int_equal(json_object_get_int(line), 4);
    json_object_object_get_ex(got, "ops", &v);
    assert_int_equal(json_object_array_length(v), 1);
    assert_string_equal(json_object_to_json_string_ext(json_object_array_get_idx(v, 0), JSON_C_TO_STRING_PLAIN),
                        "{\"op\":\"sum\",\"backends\":{\"ref\":\"legacy\"}}");
    json_object_put(got);
    tt_free(&r);

    r = mt_migrate_args(FIXTURES "/broken", "analyze", ".", NULL);
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.out, "parse errors (these files were read only as far as libclang could):\n"
                                  "  src/broken.c:4:"));
    tt_free(&r);
}

/* ---- the scan model --------------------------------------------------------------- */

/* A file that must exist. */
static char *read_file(const char *path)
{
    char *s = tt_read(path, NULL);
    if (!s)
        fail_msg("%s does not exist", path);
    return s;
}

static const em_def *def_named(const em_tree *t, const char *name)
{
    for (size_t i = 0; i < t->n_defs; i++)
        if (strcmp(t->defs[i].name, name) == 0)
            return &t->defs[i];
    fail_msg("no definition %s", name);
    return NULL;
}

static long op_of(const char *name)
{
    for (size_t k = 0; k < el_op_count(); k++)
        if (strcmp(el_op_name(k), name) == 0)
            return (long)k;
    return -1;
}

static bool has(char **v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strstr(v[i], s))
            return true;
    return false;
}

/* em_tree_reaches over a chain of include diamonds (h<i> includes a<i>
 * and b<i>, both include h<i+1>): a walk of every path looked at 2^levels
 * paths (darknet's headers made a plan spend most of its time there);
 * each include is looked at once.  Reached up to 33 includes deep, as
 * before; a cycle ends. */
static void test_reach_diamonds(void **state)
{
    (void)state;
    enum { LEVELS = 40 };
    em_tree t;
    memset(&t, 0, sizeof t);
    t.incs = calloc(4 * LEVELS + 1, sizeof *t.incs);
    char name[LEVELS + 1][3][16];
    for (int i = 0; i <= LEVELS; i++) {
        snprintf(name[i][0], sizeof name[i][0], "/h%d.h", i);
        snprintf(name[i][1], sizeof name[i][1], "/a%d.h", i);
        snprintf(name[i][2], sizeof name[i][2], "/b%d.h", i);
    }
    for (int i = 0; i < LEVELS; i++) {
        const char *edges[4][2] = {{name[i][0], name[i][1]}, {name[i][0], name[i][2]},
                                   {name[i][1], name[i + 1][0]}, {name[i][2], name[i + 1][0]}};
        for (int k = 0; k < 4; k++) {
            t.incs[t.n_incs].path = (char *)edges[k][0];
            t.incs[t.n_incs++].resolved = (char *)edges[k][1];
        }
    }
    em_reach_steps = 0;
    assert_false(em_tree_reaches(&t, name[0][0], "/elsewhere.h"));
    /* 2 includes of each h, 1 of each a and b, each looked at once */
    assert_true(em_reach_steps <= 4 * (size_t)LEVELS);
    assert_true(em_tree_reaches(&t, name[0][0], name[0][0]));
    assert_true(em_tree_reaches(&t, name[0][0], name[16][0]));  /* 32 includes deep */
    assert_true(em_tree_reaches(&t, name[0][0], name[16][2]));  /* 33 */
    assert_false(em_tree_reaches(&t, name[0][0], name[17][0])); /* 34 */
    assert_true(em_tree_reaches(&t, name[3][1], name[20][0]));
    assert_false(em_tree_reaches(&t, name[3][1], name[2][0]));
    /* a cycle: h40 includes h0 */
    t.incs[t.n_incs].path = name[LEVELS][0];
    t.incs[t.n_incs++].resolved = name[0][0];
    em_reach_steps = 0;
    assert_false(em_tree_reaches(&t, name[LEVELS][0], "/elsewhere.h"));
    assert_true(em_reach_steps <= 4 * (size_t)LEVELS + 1);
    free(t.incs);
}

static void test_scan_model(void **state)
{
    (void)state;
    /* absolute paths: el_path_init fixed the current directory */
    char *paths[] = {FIXTURES "/basic"};
    char *extra[] = {INCLUDE};
    em_scan_opts o = {.paths = paths, .n_paths = 1, .extra_args = extra, .n_extra = 1, .jobs = 2};
    em_tree t;
    char *err = NULL;
    assert_int_equal(em_scan(&o, &t, &err), 0);

    char *matmul_c = realpath(FIXTURES "/basic/ops/ref/matmul.c", NULL);
    char *ref_ops_h = realpath(FIXTURES "/basic/ops/ref/ref_ops.h", NULL);
    char *text = read_file(matmul_c);

    /* files: backend and legacy directories */
    const em_file *f = em_tree_file(&t, matmul_c);
    assert_non_null(f);
    assert_non_null(strstr(f->display, "ops/ref/matmul.c"));
    assert_string_equal(f->legacy_backend, "ref");
    assert_string_equal(f->backend, "");
    assert_false(f->parse_error);
    for (size_t i = 1; i < t.n_files; i++)
        assert_true(strcmp(t.files[i - 1].path, t.files[i].path) < 0);

    /* a static helper, with its comment, to the end of its last line */
    const em_def *pack = def_named(&t, "pack");
    assert_true(pack->is_static && pack->is_function && !pack->is_kernel && !pack->in_macro);
    assert_string_equal(pack->backend, "ref");
    assert_string_equal(pack->op, "");
    assert_int_equal(pack->line, 5);
    char *want = "/* Packs a panel; a helper of eh_ref_matmul. */\nstatic int pack(int n)\n{\n    return n * 2;\n}\n";
    assert_int_equal(pack->end - pack->begin, strlen(want));
    assert_memory_equal(text + pack->begin, want, strlen(want));
    assert_non_null(strstr(pack->dest, "/basic/backends/ref/matmul.c"));

    /* a kernel: uses the helper, needs libeh's headers */
    const em_def *mm = def_named(&t, "eh_ref_matmul");
    assert_true(mm->is_kernel && !mm->is_static && !mm->in_backends && !mm->local_deps);
    assert_string_equal(mm->backend, "ref");
    assert_string_equal(mm->op, "matmul");
    assert_int_equal(mm->n_uses, 1);
    assert_string_equal(mm->uses[0], "pack");
    assert_true(has(mm->needs, mm->n_needs, "/libeh/include/eh/backend_api.h"));
    assert_memory_equal(text + mm->begin, "eh_status eh_ref_matmul(", 24);
    assert_int_equal(text[mm->end - 1], '\n');
    const em_def *sum = def_named(&t, "eh_ref_sum");
    assert_false(sum->is_kernel);
    assert_string_equal(sum->op, "sum");
    assert_int_equal(sum->end, strlen(text));

    /* backend code inside backends/ does not move */
    const em_def *add = def_named(&t, "eh_blas_add");
    assert_true(add->in_backends && add->is_kernel);
    assert_null(add->dest);
    const em_def *table = def_named(&t, "eh_fast_backend");
    assert_false(table->is_function);

    /* includes: a header included by two files is recorded once */
    size_t in_header = 0;
    bool quoted = false;
    for (size_t i = 0; i < t.n_incs; i++) {
        const em_include *in = &t.incs[i];
        if (strcmp(in->path, ref_ops_h) == 0) {
            in_header++;
            assert_string_equal(in->spelled, "eh/backend_api.h");
            assert_true(in->angled);
            assert_non_null(in->resolved);
            assert_int_equal(in->line, 5);
        }
        if (strcmp(in->path, matmul_c) == 0) {
            quoted = true;
            assert_string_equal(in->spelled, "ref_ops.h");
            assert_false(in->angled);
            assert_string_equal(in->resolved, ref_ops_h);
            assert_int_equal(in->line, 2);
            assert_memory_equal(text + in->begin, "#include \"ref_ops.h\"\n", in->end - in->begin);
        }
    }
    assert_int_equal(in_header, 1);
    assert_true(quoted);

    /* tables: kernels.def and an eh_backend initializer (NULL = nothing) */
    assert_int_equal(t.n_tables, 2);
    assert_int_equal(t.tables[0].kind, EM_TABLE_KERNELS_DEF);
    assert_string_equal(t.tables[0].backend, "blas");
    assert_null(t.tables[0].var);
    assert_string_equal(t.tables[0].functions[op_of("matmul")], "eh_blas_matmul");
    assert_false(t.tables[0].implemented[op_of("sum")]);
    assert_int_equal(t.tables[1].kind, EM_TABLE_EH_BACKEND);
    assert_string_equal(t.tables[1].var, "eh_fast_backend");
    assert_string_equal(t.tables[1].functions[op_of("exp")], "eh_fast_exp");
    assert_false(t.tables[1].implemented[op_of("log")]);
    assert_null(t.tables[1].functions[op_of("log")]);

    /* the rules' findings come along: the frontend calls eh_ref_sum */
    bool eh102 = false;
    for (size_t i = 0; i < t.findings.n; i++)
        eh102 |= strcmp(t.findings.v[i].rule, "EH102") == 0 && strstr(t.findings.v[i].file, "/src/app.c");
    assert_true(eh102);
    assert_int_equal(t.n_backends, 3);

    free(text);
    free(matmul_c);
    free(ref_ops_h);
    em_tree_free(&t);
}

/* ---- the repository itself ------------------------------------------------------- */

/* backend -> "own" and "missing" of docs/support-matrix.md's backends table. */
static bool matrix_counts(const char *doc, const char *backend, int *own, int *missing)
{
    char key[96];
    snprintf(key, sizeof key, "| `%s` | ", backend);
    const char *p = strstr(doc, key);
    if (!p)
        return false;
    const char *eol = strchr(p, '\n');
    /* the last four cells: own | shared | frontend | missing | */
    int cells[4], n = 0;
    const char *q = eol;
    for (int k = 0; k < 5 && q > p; k++) {
        q--;
        while (q > p && *q != '|')
            q--;
        if (k > 0 && n < 4)
            cells[n++] = atoi(q + 1);
    }
    if (n < 4)
        return false;
    *missing = cells[0];
    *own = cells[3];
    return true;
}

static void test_repository(void **state)
{
    (void)state;
    tt_run r = mt_migrate_args(MIGRATE_SRCDIR, "analyze", "--format", "json", "-j", "4", "libeh", "backends",
                               "--", INCLUDE, "-D_POSIX_C_SOURCE=200809L", "-DEH_HAVE_BLAS", "-DEH_HAVE_LAZY",
                               NULL);
    assert_int_equal(r.status, 0);
    json_object *got = tt_json(r.out), *v = NULL;
    json_object_object_get_ex(got, "backends", &v);
    assert_string_equal(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN), "[\"blas\",\"lazy\",\"ref\"]");
    json_object_object_get_ex(got, "missing", &v);
    assert_string_equal(json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN),
                        "{\"blas\":[],\"lazy\":[],\"ref\":[]}");
    json_object_object_get_ex(got, "to_move", &v);
    assert_int_equal(json_object_array_length(v), 0);
    json_object_object_get_ex(got, "ops", &v);
    size_t non_meta = 0;
    for (size_t k = 0; k < el_op_count(); k++)
        non_meta += !is_meta(k);
    assert_int_equal(json_object_array_length(v), non_meta);
    for (size_t i = 0; i < json_object_array_length(v); i++) {
        json_object *b = NULL;
        json_object_object_get_ex(json_object_array_get_idx(v, i), "backends", &b);
        assert_string_equal(json_object_to_json_string_ext(b, JSON_C_TO_STRING_PLAIN),
                            "{\"blas\":\"table\",\"lazy\":\"table\",\"ref\":\"table\"}");
    }
    json_object_put(got);
    tt_free(&r);

    /* the kernels registered, against what ehinfo reports from the
     * library: "own" = the backend's own eh_<b>_* kernels */
    char *paths[] = {MIGRATE_SRCDIR "/backends"};
    char *extra[] = {INCLUDE, "-D_POSIX_C_SOURCE=200809L", "-DEH_HAVE_BLAS", "-DEH_HAVE_LAZY"};
    em_scan_opts o = {.paths = paths, .n_paths = 1, .extra_args = extra, .n_extra = 4, .jobs = 4};
    em_tree t;
    char *err = NULL;
    assert_int_equal(em_scan(&o, &t, &err), 0);
    char *doc = read_file(MIGRATE_SRCDIR "/docs/support-matrix.md");
    assert_int_equal(t.n_tables, 3);
    for (size_t i = 0; i < t.n_tables; i++) {
        const em_table *tb = &t.tables[i];
        int own = -1, missing = -1, n_own = 0, n_missing = 0;
        assert_true(matrix_counts(doc, tb->backend, &own, &missing));
        char prefix[80];
        snprintf(prefix, sizeof prefix, "eh_%s_", tb->backend);
        for (size_t k = 0; k < el_op_count(); k++) {
            if (is_meta(k))
                continue;
            n_missing += !tb->implemented[k];
            n_own += tb->functions[k] && strncmp(tb->functions[k], prefix, strlen(prefix)) == 0;
        }
        assert_int_equal(n_own, own);
        assert_int_equal(n_missing, missing);
    }
    free(doc);
    em_tree_free(&t);
}

static int setup(void **state)
{
    (void)state;
    char *err = NULL;
    el_path_init();
    if (el_meta_init(el_rule_registry, &err) < 0 || el_knowledge_init(&err) < 0) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    el_knowledge_free();
    el_meta_free();
    return 0;
}

/* The custom ops a plan would make, and the names that cannot become one
 * (the golden case custom_refused): JSON, text and markdown. */
static void test_custom_ops(void **state)
{
    (void)state;
    const char *tree = MIGRATE_SRCDIR "/tests/migrate/fixtures/custom_refused/before";
    tt_run r = mt_migrate(tree, NULL, "analyze", "--format", "json", ".", NULL);
    assert_int_equal(r.status, 0);
    json_object *got = tt_json(r.out);
    json_object *want = tt_json(
        "[{\"op\":\"app.unit_clamp\",\"wrapper\":\"app_unit_clamp\","
        "  \"kernels\":{\"ref\":\"ops/ref/kern.c:29\"},\"fallback\":\"ref\"}]");
    tt_assert_json_equal(tt_get(got, "custom_ops"), want);
    json_object_put(want);
    json_object *no = tt_get(got, "not_custom_ops");
    static const char *const names[] = {"count_nonzero", "halves", "l2norm", "scale", "spectrum",
                                        "stack_n"};
    assert_int_equal(json_object_array_length(no), 6);
    for (size_t i = 0; i < 6; i++) {
        json_object *o = json_object_array_get_idx(no, i);
        bool found = false;
        for (size_t k = 0; k < 6 && !found; k++)
            found = !strcmp(json_object_get_string(tt_get(o, "name")), names[k]);
        assert_true(found);
        assert_true(strlen(json_object_get_string(tt_get(o, "why"))) > 10);
    }
    /* in "to move", a kernel's role is its op */
    json_object *moves = tt_get(got, "to_move");
    assert_int_equal(json_object_array_length(moves), 1);
    assert_string_equal(json_object_get_string(tt_get(json_object_array_get_idx(moves, 0), "op")),
                        "app.unit_clamp");
    json_object_put(got);
    tt_free(&r);

    r = mt_migrate(tree, NULL, "analyze", ".", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "custom ops (backend functions with no libeh op, made ops of the "
                                   "application):\n  app.unit_clamp (called through "
                                   "app_unit_clamp): kernels for ref; fallback ref\n"));
    assert_true(tt_contains(r.out, "  l2norm: not a custom op: its signature differs between "
                                   "backends: 'eh_tensor *(const eh_tensor *)' (eh_blas_l2norm) and "
                                   "'eh_tensor *(const eh_tensor *, int)' (eh_ref_l2norm)\n"));
    tt_free(&r);
    /* in another namespace the wrapper of eh_ref_scale is free */
    r = mt_migrate(tree, NULL, "analyze", "--format", "markdown", "--namespace=kit", ".", NULL);
    assert_int_equal(r.status, 0);
    assert_true(tt_contains(r.out, "## Custom ops\n\n- `kit.scale`, called through `kit_scale`: "
                                   "kernels for ref; fallback ref\n- `kit.unit_clamp`, called "
                                   "through `kit_unit_clamp`: kernels for ref; fallback ref\n"));
    tt_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_basic),
        cmocka_unit_test(test_text_and_markdown),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_usage),
        cmocka_unit_test(test_parse_error),
        cmocka_unit_test(test_reach_diamonds),
        cmocka_unit_test(test_scan_model),
        cmocka_unit_test(test_repository),
        cmocka_unit_test(test_custom_ops),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
