/* build/bin/ehinfo: its output agrees with the library, every format is
 * well formed, usage errors exit 2, and docs/support-matrix.md is exactly
 * what `ehinfo --format markdown` prints now (make docs regenerates it).
 *
 * The binary is found next to this test's build directory
 * ($BUILD/tests/test_ehinfo -> $BUILD/bin/ehinfo) or through $EHINFO. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "eh_test.h"
#include <eh/backend_api.h> // emberlint-ignore EH101 (checks ehinfo against the tables)

static char ehinfo_path[4096];
static char matrix_path[4096];
static char plugin_path[4096]; /* $BUILD/tests/plugins/libeh-tplug.so */

typedef struct result {
    int status; /* exit status; -1 if it did not exit normally */
    char *out;
    char *err;
} result;

static char *slurp_fd(int fd)
{
    size_t cap = 65536, len = 0;
    char *buf = malloc(cap + 1);
    assert_non_null(buf);
    lseek(fd, 0, SEEK_SET);
    for (;;) {
        if (len == cap) {
            cap *= 2;
            buf = realloc(buf, cap + 1);
            assert_non_null(buf);
        }
        ssize_t r = read(fd, buf + len, cap - len);
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    buf[len] = '\0';
    return buf;
}

/* Run ehinfo with args (NULL-terminated); stdout goes to `stdout_path`
 * when given (then out is empty). */
static result run_to(const char *stdout_path, const char *const *args)
{
    char out_tmpl[] = "/tmp/ehinfo-out-XXXXXX", err_tmpl[] = "/tmp/ehinfo-err-XXXXXX";
    int fo = mkstemp(out_tmpl), fe = mkstemp(err_tmpl);
    assert_true(fo >= 0 && fe >= 0);
    unlink(out_tmpl);
    unlink(err_tmpl);
    const char *argv[16];
    int n = 0;
    argv[n++] = ehinfo_path;
    for (int k = 0; args[k] && n < 15; k++)
        argv[n++] = args[k];
    argv[n] = NULL;
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int o = stdout_path ? open(stdout_path, O_WRONLY) : fo;
        dup2(o, 1);
        dup2(fe, 2);
        execv(ehinfo_path, (char *const *)argv);
        _exit(127);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    result r = {WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp_fd(fo), slurp_fd(fe)};
    close(fo);
    close(fe);
    if (r.status == 127)
        fail_msg("could not run %s (build it with make; or set EHINFO)", ehinfo_path);
    return r;
}

static result run(const char *const *args) { return run_to(NULL, args); }

static void result_free(result *r)
{
    free(r->out);
    free(r->err);
}

#define ARGS(...) ((const char *const[]){__VA_ARGS__, NULL})
#define NO_ARGS ((const char *const[]){NULL})

/* ---- a small JSON validator (RFC 8259 grammar; no semantic checks) ---- */

static const char *ws(const char *p)
{
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')
        p++;
    return p;
}

static const char *json_value(const char *p, int depth);

static const char *json_string(const char *p)
{
    if (*p++ != '"')
        return NULL;
    while (*p != '"') {
        if ((unsigned char)*p < 0x20)
            return NULL;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int k = 1; k <= 4; k++)
                    if (!strchr("0123456789abcdefABCDEF", p[k]) || !p[k])
                        return NULL;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return NULL;
            }
        }
        p++;
    }
    return p + 1;
}

static const char *json_number(const char *p)
{
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return NULL;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return NULL;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return p;
}

static const char *json_value(const char *p, int depth)
{
    if (depth > 64)
        return NULL;
    p = ws(p);
    if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        int object = *p == '{';
        p = ws(p + 1);
        if (*p == close)
            return p + 1;
        for (;;) {
            if (object) {
                p = json_string(ws(p));
                if (!p)
                    return NULL;
                p = ws(p);
                if (*p++ != ':')
                    return NULL;
            }
            p = json_value(p, depth + 1);
            if (!p)
                return NULL;
            p = ws(p);
            if (*p == close)
                return p + 1;
            if (*p++ != ',')
                return NULL;
        }
    }
    if (*p == '"')
        return json_string(p);
    if (strncmp(p, "true", 4) == 0)
        return p + 4;
    if (strncmp(p, "false", 5) == 0)
        return p + 5;
    if (strncmp(p, "null", 4) == 0)
        return p + 4;
    return json_number(p);
}

static int json_valid(const char *s)
{
    const char *end = json_value(s, 0);
    return end && *ws(end) == '\0';
}

static void test_json_validator_rejects(void **state)
{
    (void)state; /* the validator itself must be able to fail */
    assert_true(json_valid("{\"a\": [1, -2.5e3, true, null, \"x\\n\"]}"));
    assert_false(json_valid("{\"a\": [1, 2,]}"));
    assert_false(json_valid("{\"a\" 1}"));
    assert_false(json_valid("{\"a\": 01}"));
    assert_false(json_valid("[1] x"));
    assert_false(json_valid("\"tab\there\""));
}

/* ---- helpers over the library ---- */

static int n_backends(const char **names, int cap)
{
    int n = eh_list_backends(names, cap);
    assert_true(n >= 1 && n <= cap);
    return n;
}

static int count_substr(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* ---- tests ---- */

static void test_text_is_default_and_lists_everything(void **state)
{
    (void)state;
    result r = run(NO_ARGS);
    result t = run(ARGS("--format", "text"));
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_string_equal(r.out, t.out);
    const char *names[16];
    int nb = n_backends(names, 16);
    for (int b = 0; b < nb; b++) {
        const eh_backend *be = eh_find_backend(names[b]);
        assert_non_null(be);
        assert_non_null(strstr(r.out, names[b]));
        assert_non_null(strstr(r.out, be->description));
    }
    /* one line per op, starting with its name, in ops.def order */
    const char *p = r.out;
    for (int op = 0; op < eh_op_count(); op++) {
        char needle[64];
        snprintf(needle, sizeof needle, "\n%s ", eh_op_name(op));
        const char *q = strstr(p, needle);
        if (!q)
            fail_msg("text output has no row for op '%s' after the previous one", eh_op_name(op));
        p = q + 1;
    }
    result_free(&r);
    result_free(&t);
}

/* Split a markdown table row "| a | b |" into trimmed cells. */
static int md_cells(char *line, char **cells, int cap)
{
    int n = 0;
    if (line[0] != '|')
        return 0;
    char *p = line + 1;
    while (*p && n < cap) {
        char *bar = strchr(p, '|');
        if (!bar)
            break;
        *bar = '\0';
        while (*p == ' ')
            p++;
        char *e = bar;
        while (e > p && e[-1] == ' ')
            *--e = '\0';
        cells[n++] = p;
        p = bar + 1;
    }
    return n;
}

static void test_markdown_matrix_agrees_with_library(void **state)
{
    (void)state;
    result r = run(ARGS("--format", "markdown"));
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    assert_non_null(strstr(r.out, "GENERATED"));
    const char *names[16];
    int nb = n_backends(names, 16);
    const eh_backend *ref = eh_find_backend("ref");
    assert_non_null(ref);

    char *matrix = strstr(r.out, "\n## Matrix\n");
    assert_non_null(matrix);
    char *save = NULL;
    char *line = strtok_r(matrix, "\n", &save);
    int row = -2; /* header, separator, then ops */
    while (line) {
        if (line[0] == '|') {
            char *cells[32];
            int nc = md_cells(line, cells, 32);
            assert_int_equal(nc, 2 + nb);
            if (row == -2) {
                assert_string_equal(cells[0], "op");
                for (int b = 0; b < nb; b++) {
                    char want[64];
                    snprintf(want, sizeof want, "`%s`", names[b]);
                    assert_string_equal(cells[2 + b], want);
                }
            } else if (row >= 0) {
                assert_true(row < eh_op_count());
                char want[64];
                snprintf(want, sizeof want, "`%s`", eh_op_name(row));
                assert_string_equal(cells[0], want);
                int meta = eh_op_kind_of((eh_op)row) == EH_KIND_META;
                for (int b = 0; b < nb; b++) {
                    const char *c = cells[2 + b];
                    const eh_backend *be = eh_find_backend(names[b]);
                    int sup = eh_backend_supports(names[b], row);
                    if (sup == 0) {
                        assert_string_equal(c, "—");
                    } else if (meta) {
                        assert_string_equal(c, "frontend");
                    } else if (be == ref) {
                        assert_string_equal(c, "own");
                    } else if (be->kernels[row] == ref->kernels[row]) {
                        if (!strstr(c, "ref kernel"))
                            fail_msg("%s/%s shares ref's kernel but the cell says '%s'",
                                     eh_op_name(row), names[b], c);
                    } else {
                        assert_null(strstr(c, "ref kernel"));
                    }
                    /* fused exactly for the elementwise ops of a deferring backend */
                    assert_int_equal(strstr(c, "fused") != NULL,
                                     sup == 1 && !meta && be->defer != NULL &&
                                         eh_op_is_elementwise((eh_op)row));
                }
            }
            row++;
        }
        line = strtok_r(NULL, "\n", &save);
    }
    assert_int_equal(row, eh_op_count());
    result_free(&r);
}

static void test_json_is_valid_and_complete(void **state)
{
    (void)state;
    result r = run(ARGS("--format", "json"));
    assert_int_equal(r.status, 0);
    assert_string_equal(r.err, "");
    if (!json_valid(r.out))
        fail_msg("ehinfo --format json is not valid JSON:\n%s", r.out);
    const char *names[16];
    int nb = n_backends(names, 16);
    int unsupported = 0;
    for (int b = 0; b < nb; b++) {
        char needle[96];
        snprintf(needle, sizeof needle, "{\"name\": \"%s\", \"description\"", names[b]);
        assert_int_equal(count_substr(r.out, needle), 1);
        for (int op = 0; op < eh_op_count(); op++)
            unsupported += eh_backend_supports(names[b], op) == 0;
    }
    for (int op = 0; op < eh_op_count(); op++) {
        char needle[96];
        snprintf(needle, sizeof needle, "{\"name\": \"%s\", \"kind\"", eh_op_name(op));
        assert_int_equal(count_substr(r.out, needle), 1);
    }
    assert_int_equal(count_substr(r.out, "\"supported\": false"), unsupported);
    assert_int_equal(count_substr(r.out, "\"supported\": "), nb * eh_op_count());
    char ver[64];
    snprintf(ver, sizeof ver, "\"libeh_version\": \"%s\"", eh_version());
    assert_non_null(strstr(r.out, ver));
    /* --format=json is the same */
    result e = run(ARGS("--format=json"));
    assert_int_equal(e.status, 0);
    assert_string_equal(e.out, r.out);
    result_free(&e);
    result_free(&r);
}

static void test_support_matrix_doc_is_up_to_date(void **state)
{
    (void)state;
    if (!matrix_path[0])
        fail_msg("docs/support-matrix.md not found (run the tests from the repository root)");
    FILE *f = fopen(matrix_path, "r");
    assert_non_null(f);
    char *doc = slurp_fd(fileno(f));
    fclose(f);
    result r = run(ARGS("--format", "markdown"));
    assert_int_equal(r.status, 0);
    if (strcmp(doc, r.out) != 0) {
        const char *a = doc, *b = r.out;
        int line = 1;
        while (*a && *a == *b) {
            line += *a == '\n';
            a++;
            b++;
        }
        fail_msg("%s is stale: it differs from `ehinfo --format markdown` at line %d; "
                 "run `make docs` and commit the result",
                 matrix_path, line);
    }
    free(doc);
    result_free(&r);
}

/* --plugin: the plugin's backend is a column, its custom ops a section. */
static void test_plugin_and_custom_ops(void **state)
{
    (void)state;
    result t = run(ARGS("--plugin", plugin_path));
    assert_int_equal(t.status, 0);
    assert_string_equal(t.err, "");
    assert_non_null(strstr(t.out, "  tplug  "));
    assert_non_null(strstr(t.out, "test plugin: own negative, the rest from ref"));
    assert_non_null(strstr(t.out, "\ncustom ops (2)\n"));
    /* the rows: name, kind, then one cell per backend in list order */
    const char *names[16];
    int nb = n_backends(names, 16);
    const char *row = strstr(t.out, "\ntplug.marker ");
    assert_non_null(row);
    const char *end = strchr(row + 1, '\n');
    char line[512];
    snprintf(line, sizeof line, "%.*s", (int)(end - row - 1), row + 1);
    assert_non_null(strstr(line, "custom same-as-input"));
    assert_int_equal(count_substr(line, " own"), 1); /* tplug only */
    assert_int_equal(count_substr(line, " -"), nb);  /* every built-in backend */
    row = strstr(t.out, "\ntplug.twice ");
    assert_non_null(row);
    end = strchr(row + 1, '\n');
    snprintf(line, sizeof line, "%.*s", (int)(end - row - 1), row + 1);
    assert_non_null(strstr(line, "custom elementwise, per-element"));
    assert_int_equal(count_substr(line, "per-element"), nb + 2); /* kind + every backend */
    for (int b = 0; b < nb; b++)
        if (eh_find_backend(names[b])->defer) /* lazy fuses it */
            assert_non_null(strstr(line, "fused, per-element"));
    /* the same in markdown (its own section) and json */
    result m = run(ARGS("--format", "markdown", "--plugin", plugin_path));
    assert_int_equal(m.status, 0);
    assert_non_null(strstr(m.out, "\n## Custom ops\n"));
    assert_non_null(strstr(m.out, "| `tplug.marker` | custom same-as-input |"));
    assert_non_null(strstr(m.out, " `tplug` |"));
    result j = run(ARGS("--plugin="));
    assert_int_equal(j.status, 2);
    assert_string_equal(j.err, "ehinfo: backend_load: the path is empty\n");
    result_free(&j);
    char opt[4200];
    snprintf(opt, sizeof opt, "--plugin=%s", plugin_path);
    j = run(ARGS("--format=json", opt));
    assert_int_equal(j.status, 0);
    if (!json_valid(j.out))
        fail_msg("ehinfo --format json --plugin is not valid JSON:\n%s", j.out);
    assert_non_null(strstr(j.out, "\"custom_ops\": [\n    {\"name\": \"tplug.marker\""));
    assert_non_null(strstr(j.out, "\"implementation\": \"per_element\""));
    /* without plugins: no section, an empty json list */
    result plain = run(ARGS("--format", "json"));
    assert_non_null(strstr(plain.out, "\"custom_ops\": [\n  ]"));
    result_free(&plain);
    plain = run(ARGS("--format", "markdown"));
    assert_null(strstr(plain.out, "Custom ops"));
    result_free(&plain);
    result_free(&t);
    result_free(&m);
    result_free(&j);
}

static void test_plugin_errors_exit_2(void **state)
{
    (void)state;
    result r = run(ARGS("--plugin", "/nonexistent/libeh-x.so"));
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    assert_string_equal(r.err,
                        "ehinfo: backend_load: '/nonexistent/libeh-x.so': No such file or directory\n");
    result_free(&r);
    r = run(ARGS("--plugin"));
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "ehinfo: --plugin needs a path"));
    result_free(&r);
}

static void test_help_and_version(void **state)
{
    (void)state;
    result h = run(ARGS("--help"));
    assert_int_equal(h.status, 0);
    assert_non_null(strstr(h.out, "usage: ehinfo"));
    assert_non_null(strstr(h.out, "--format"));
    assert_string_equal(h.err, "");
    result h2 = run(ARGS("-h"));
    assert_int_equal(h2.status, 0);
    assert_string_equal(h2.out, h.out);
    result v = run(ARGS("--version"));
    assert_int_equal(v.status, 0);
    char want[64];
    snprintf(want, sizeof want, "ehinfo (libeh) %s\n", eh_version());
    assert_string_equal(v.out, want);
    result_free(&h);
    result_free(&h2);
    result_free(&v);
}

static void expect_usage_error(const char *const *args, const char *needle)
{
    result r = run(args);
    assert_int_equal(r.status, 2);
    assert_string_equal(r.out, "");
    if (strncmp(r.err, "ehinfo: ", 8) != 0 || !strstr(r.err, needle))
        fail_msg("stderr '%s' should start with 'ehinfo: ' and mention '%s'", r.err, needle);
    assert_int_equal(count_substr(r.err, "\n"), 1); /* one line */
    result_free(&r);
}

static void test_bad_usage_exits_2(void **state)
{
    (void)state;
    expect_usage_error(ARGS("--bogus"), "unknown option '--bogus'");
    expect_usage_error(ARGS("-x"), "unknown option '-x'");
    expect_usage_error(ARGS("--format", "xml"), "unknown format 'xml'");
    expect_usage_error(ARGS("--format=yaml"), "unknown format 'yaml'");
    expect_usage_error(ARGS("--format"), "--format needs a value");
    expect_usage_error(ARGS("matrix"), "unexpected argument 'matrix'");
    expect_usage_error(ARGS("--format", "json", "--nope"), "unknown option '--nope'");
}

static void test_write_error_exits_1(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0)
        skip();
    result r = run_to("/dev/full", ARGS("--format", "json"));
    assert_int_equal(r.status, 1);
    assert_non_null(strstr(r.err, "ehinfo: cannot write"));
    result_free(&r);
    /* --help and --version too: exit 1 with the message, not silently */
    const char *const *const opts[] = {ARGS("--help"), ARGS("--version")};
    for (size_t i = 0; i < sizeof opts / sizeof *opts; i++) {
        r = run_to("/dev/full", opts[i]);
        assert_int_equal(r.status, 1);
        if (strncmp(r.err, "ehinfo: cannot write the output: ", 33) != 0)
            fail_msg("%s: stderr '%s'", opts[i][0], r.err);
        result_free(&r);
    }
}

/* ---- locating the binary and the doc ---- */

static void find_paths(const char *argv0)
{
    const char *env = getenv("EHINFO");
    if (env && *env) {
        snprintf(ehinfo_path, sizeof ehinfo_path, "%s", env);
    } else {
        char dir[2048];
        snprintf(dir, sizeof dir, "%s", argv0);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(dir, sizeof dir, ".");
        snprintf(ehinfo_path, sizeof ehinfo_path, "%s/../bin/ehinfo", dir);
    }
    {
        char dir[2048];
        snprintf(dir, sizeof dir, "%s", argv0);
        char *slash = strrchr(dir, '/');
        snprintf(plugin_path, sizeof plugin_path, "%s/plugins/libeh-tplug.so",
                 slash ? (*slash = '\0', dir) : ".");
    }
    /* the repository's docs: the working directory (make runs tests from
     * the root), else upward from the binary */
    const char *cands[] = {"docs/support-matrix.md", NULL};
    if (access(cands[0], R_OK) == 0) {
        snprintf(matrix_path, sizeof matrix_path, "%s", cands[0]);
        return;
    }
    char up[2048];
    snprintf(up, sizeof up, "%s", argv0);
    for (int k = 0; k < 6; k++) {
        char *slash = strrchr(up, '/');
        if (!slash)
            break;
        *slash = '\0';
        char cand[2100];
        snprintf(cand, sizeof cand, "%s/docs/support-matrix.md", up);
        if (access(cand, R_OK) == 0) {
            snprintf(matrix_path, sizeof matrix_path, "%s", cand);
            return;
        }
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    find_paths(argv[0]);
    const struct CMUnitTest tests[] = {
        EH_TEST(test_json_validator_rejects),
        EH_TEST(test_text_is_default_and_lists_everything),
        EH_TEST(test_markdown_matrix_agrees_with_library),
        EH_TEST(test_json_is_valid_and_complete),
        EH_TEST(test_support_matrix_doc_is_up_to_date),
        EH_TEST(test_plugin_and_custom_ops),
        EH_TEST(test_plugin_errors_exit_2),
        EH_TEST(test_help_and_version),
        EH_TEST(test_bad_usage_exits_2),
        EH_TEST(test_write_error_exits_1),
    };
    return EH_RUN_TESTS(tests);
}
