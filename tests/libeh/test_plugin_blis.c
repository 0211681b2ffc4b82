/* examples/plugin/: the BLIS backend, loaded as a plugin.
 *
 * It loads $BUILD/examples/plugin/libeh-blis.so, checks which ops the
 * plugin implements itself (the lookup API: matmul) and that everything
 * else runs on ref's kernels, compares its matmul with ref's on shapes
 * that exercise every path (batches, broadcasting, vectors, empty sums,
 * the dtypes it hands to ref), then runs the conformance binaries with the
 * plugin loaded through EH_BACKEND_PATH for exactly the ops it implements
 * (CF_OPS), and the application examples/plugin/demo.c.
 *
 * This binary iterates the backends itself (make test runs it once). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define EH_TEST_SHORTHAND
#include "conformance.h"
#include <eh/backend_api.h> // emberlint-ignore EH101 (inspects the plugin's table)

static char build_dir[4096];
static char plugin_path[4200];

static void load(void)
{
    if (eh_backend_load(plugin_path) != EH_OK)
        fail_msg("%s", eh_error_message());
}

/* The ops whose kernel on "blis" is the plugin's own, comma-separated. */
static void own_ops(char *buf, size_t cap)
{
    const eh_backend *b = eh_find_backend("blis");
    assert_non_null(b);
    size_t len = 0;
    buf[0] = '\0';
    for (int op = 0; op < eh_op_count(); op++) {
        const char *whose = NULL;
        if (eh_backend_kernel_whose(b, op, &whose) && whose && strcmp(whose, "blis") == 0)
            len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? "," : "", eh_op_name(op));
    }
}

static void test_table(void **state)
{
    (void)state;
    load();
    char ops[1024];
    own_ops(ops, sizeof ops);
    assert_string_equal(ops, "matmul");
    /* everything else (but META ops) runs on ref's kernel */
    const eh_backend *b = eh_find_backend("blis"), *ref = eh_find_backend("ref");
    for (int op = 0; op < eh_op_count(); op++) {
        if (op == eh_op_lookup("matmul") || eh_op_kind_of((eh_op)op) == EH_KIND_META)
            continue;
        assert_true(eh_backend_kernel(b, op) == ref->kernels[op]);
        assert_int_equal(eh_backend_supports("blis", op), 1);
    }
}

/* matmul on blis against ref: random inputs, the same on both. */
static void compare(eh_dtype dt, cf_shape sa, cf_shape sb)
{
    cf_rng r;
    cf_rng_seed_str(&r, cf_shape_str(sa));
    eh_tensor *a = cf_random(&r, dt, sa.nd, sa.d, CF_V_DEFAULT);
    eh_tensor *b = cf_random(&r, dt, sb.nd, sb.d, CF_V_DEFAULT);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    eh_tensor *want = eh_matmul(a, b);
    assert_int_equal(eh_set_backend("blis"), EH_OK);
    eh_tensor *got = eh_matmul(a, b);
    assert_non_null(want);
    assert_non_null(got);
    const cf_tol *tol = cf_tolerance("matmul");
    assert_non_null(tol);
    /* sums of k products: scale the absolute tolerance by k */
    double k = sa.d[sa.nd - 1] > 0 ? (double)sa.d[sa.nd - 1] : 1.0;
    char msg[512];
    if (!cf_compare(want, got, tol, 16.0 * k, msg, sizeof msg))
        fail_msg("matmul %s %s x %s on blis: %s", eh_dtype_name(dt), cf_shape_str(sa),
                 cf_shape_str(sb), msg);
    int is_float = dt == EH_F32 || dt == EH_F64;
    if (!is_float) /* handed to ref's kernel: the same values exactly */
        assert_true(cf_compare(want, got, &(cf_tol){.op = "matmul", .exact = 1}, 1, msg, sizeof msg));
    eh_release(a);
    eh_release(b);
    eh_release(want);
    eh_release(got);
}

static void test_matches_ref(void **state)
{
    (void)state;
    load();
    const cf_shape pairs[][2] = {
        {CF_SH(5, 7), CF_SH(7, 3)},          {CF_SH(2, 3, 4, 5), CF_SH(2, 3, 5, 6)},
        {CF_SH(3, 1, 4, 5), CF_SH(2, 5, 6)}, {CF_SH(4, 5), CF_SH(3, 5, 2)},
        {CF_SH(7), CF_SH(7, 3)},             {CF_SH(2, 4, 7), CF_SH(7)},
        {CF_SH(9), CF_SH(9)},                {CF_SH(3, 0), CF_SH(0, 4)},
        {CF_SH(0, 3), CF_SH(3, 4)},          {CF_SH(130, 257), CF_SH(257, 129)},
    };
    const eh_dtype dts[] = {EH_F32, EH_F64, EH_F16, EH_I32, EH_I64, EH_BOOL};
    for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
        for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
            compare(dts[d], pairs[p][0], pairs[p][1]);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
}

/* Run a program (one argument or none) with the plugin in
 * EH_BACKEND_PATH and CF_OPS set when cf_ops is; its exit status, its
 * output in out. */
static int run(const char *prog, const char *arg, const char *cf_ops, char *out, size_t cap)
{
    const char *env[] = {"EH_BACKEND_PATH", plugin_path, "CF_OPS", cf_ops, NULL};
    return t_run((const char *const[]){prog, arg, NULL}, cf_ops ? env : NULL, out, cap);
}

static void test_conformance_with_plugin(void **state)
{
    (void)state;
    load();
    char ops[1024], prog[4200], want[96];
    own_ops(ops, sizeof ops);
    int n_backends = eh_list_backends(NULL, 0); /* the built-in ones and blis */
    static char out[1 << 20];
    /* matmul's cases are in the numeric binary: it must run some of them;
     * the other binary must agree with the op filter too */
    const char *bins[] = {"test_conformance_numeric", "test_conformance"};
    const char *summary[] = {"conformance (numeric): ", "conformance: "};
    for (int k = 0; k < 2; k++) {
        snprintf(prog, sizeof prog, "%s/tests/%s", build_dir, bins[k]);
        int st = run(prog, NULL, ops, out, sizeof out);
        if (st != 0)
            fail_msg("%s with the plugin (CF_OPS=%s) failed (%d):\n%s", bins[k], ops, st, out);
        snprintf(want, sizeof want, "cases on %d backends, 0 disagreements", n_backends);
        const char *line = strstr(out, summary[k]);
        if (!line || !strstr(line, want))
            fail_msg("%s: no '%s' in:\n%s", bins[k], want, out);
        if (k == 0)
            assert_true(strtol(line + strlen(summary[k]), NULL, 10) >= 10);
    }
}

static void test_demo(void **state)
{
    (void)state;
    char prog[4200];
    static char out[65536];
    snprintf(prog, sizeof prog, "%s/examples/plugin/plugin-demo", build_dir);
    int st = run(prog, plugin_path, NULL, out, sizeof out);
    if (st != 0 || !strstr(out, "same result on both backends") || !strstr(out, " blis"))
        fail_msg("plugin-demo (%d):\n%s", st, out);
    st = run(prog, "/nonexistent/libeh-blis.so", NULL, out, sizeof out);
    assert_int_equal(st, 2);
    assert_non_null(strstr(out, "plugin-demo: backend_load: '/nonexistent/libeh-blis.so': No such "
                                "file or directory"));
}

int main(void)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return 1;
    self[len] = '\0';
    /* $BUILD/tests/test_plugin_blis -> $BUILD */
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(self, '/');
        if (slash)
            *slash = '\0';
    }
    snprintf(build_dir, sizeof build_dir, "%s", self);
    snprintf(plugin_path, sizeof plugin_path, "%s/examples/plugin/libeh-blis.so", build_dir);
    if (access(plugin_path, R_OK) != 0) {
        fprintf(stderr, "test_plugin_blis: no %s (build it with make)\n", plugin_path);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        EH_TEST(test_table),
        EH_TEST(test_matches_ref),
        EH_TEST(test_conformance_with_plugin),
        EH_TEST(test_demo),
    };
    return EH_RUN_TESTS(tests);
}
