/* Out-of-tree backends: eh_backend_load, EH_BACKEND_PATH and
 * eh_backend_register, with the plugins of tests/plugins/tplug.c (built
 * by the Makefile into $BUILD/tests/plugins/, next to this binary).
 *
 * Loading works (the backend is listed, selected and runs its own kernel
 * and its delegate's; its custom op runs), and every way a load can fail
 * gives EH_ERR_BACKEND with a message naming the file and why: missing
 * file, a directory, not a shared object, not a plugin, another ABI
 * version, another op set, a name already taken (built in, or by another
 * plugin), a delegate that does not exist, an init that fails silently,
 * an undefined libeh symbol.  EH_BACKEND_PATH is tested in child processes
 * (it is read once per process).
 *
 * This binary iterates the backends itself (make test runs it once). */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#define EH_TEST_SHORTHAND
#include "conformance.h"
#include <eh/backend_api.h> // emberlint-ignore EH101 (registers backend tables)

static char plugin_dir[PATH_MAX];
static char self_path[PATH_MAX];

static const char *plugin(const char *name)
{
    static char buf[4][PATH_MAX + 64];
    static int next;
    char *b = buf[next++ % 4];
    snprintf(b, sizeof buf[0], "%s/libeh-%s.so", plugin_dir, name);
    return b;
}

static int listed(const char *name)
{
    const char *names[64];
    int n = eh_list_backends(names, 64);
    int found = 0;
    for (int k = 0; k < n && k < 64; k++)
        found += strcmp(names[k], name) == 0;
    return found;
}

/* Load path, expect it to fail with EH_ERR_BACKEND and a message that has
 * the path and `needle`. */
static void expect_load_fails(const char *path, const char *needle)
{
    eh_clear_error();
    assert_int_equal(eh_backend_load(path), EH_ERR_BACKEND);
    const char *msg = eh_error_message();
    if (!strstr(msg, path) || !strstr(msg, needle))
        fail_msg("message '%s' lacks '%s' or '%s'", msg, path, needle);
    assert_int_equal(strncmp(msg, "backend_load: ", 14), 0);
    eh_clear_error();
}

static void test_load_and_use(void **state)
{
    (void)state;
    assert_int_equal(eh_backend_load(plugin("tplug")), EH_OK);
    assert_int_equal(listed("tplug"), 1);
    assert_int_equal(eh_backend_load(plugin("tplug")), EH_OK); /* again: a no-op */
    assert_int_equal(listed("tplug"), 1);
    const eh_backend *t = eh_find_backend("tplug");
    assert_non_null(t);

    /* its own kernel, and the lookup API for the rest */
    const char *whose = NULL;
    assert_non_null(eh_backend_kernel_whose(t, eh_op_lookup("negative"), &whose));
    assert_string_equal(whose, "tplug");
    assert_true(eh_backend_kernel_whose(t, eh_op_lookup("matmul"), &whose) ==
                eh_find_backend("ref")->kernels[eh_op_lookup("matmul")]);
    assert_string_equal(whose, "ref");
    assert_int_equal(eh_backend_supports("tplug", eh_op_lookup("stft")), 1);

    assert_int_equal(eh_set_backend("tplug"), EH_OK);
    assert_string_equal(eh_get_backend(), "tplug");
    BEGIN();
    eh_tensor *x = T(EH_F32, SHAPE(2, 2), 1, -2, 3, 4);
    EXPECT(eh_negative(x), EH_F32, SHAPE(2, 2), -1, 2, -3, -4);
    EXPECT(eh_matmul(x, x), EH_F32, SHAPE(2, 2), -5, -10, 15, 10);
    /* the plugin's custom op: its kernel runs on its backend only */
    EXPECT(eh_custom_call("tplug.marker", EH_INPUTS(x), NULL), EH_F32, SHAPE(2, 2), 42, 42, 42,
           42);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
    assert_failed(eh_custom_call("tplug.marker", EH_INPUTS(x), NULL), EH_ERR_UNSUPPORTED,
                  "tplug.marker: no kernel for backend 'ref' (kernels registered for: tplug)");
    END();
}

/* The plugin's own kernel agrees with ref on every dtype and shape the
 * conformance harness tries (cf_check runs every listed backend). */
static eh_status run_negative(const cf_case *c, eh_tensor **out, int *n)
{
    return cf_one(eh_negative(c->in[0]), out, n);
}

static void test_conformance(void **state)
{
    (void)state;
    assert_int_equal(eh_backend_load(plugin("tplug")), EH_OK);
    cf_begin_test();
    const cf_shape shapes[] = {CF_SH0, CF_SH(0, 3), CF_SH(3, 5), CF_SH(7000)};
    for (int d = 0; d < 6; d++)
        for (int s = 0; s < 4; s++) {
            cf_case c;
            CF_CASE(c, "negative", "negative %s %s", eh_dtype_name(cf_dtypes[d]),
                    cf_shape_str(shapes[s]));
            c.run = run_negative;
            c.allow_error = cf_dtypes[d] == EH_BOOL;
            cf_add_rnd(&c, cf_dtypes[d], shapes[s], CF_V_SPECIAL);
            cf_check(&c);
        }
    cf_end_test();
}

static void test_load_errors(void **state)
{
    (void)state;
    expect_load_fails("/nonexistent/libeh-x.so", "No such file or directory");
    expect_load_fails(plugin_dir, "is a directory");
    expect_load_fails(self_path, "cannot load it");
    char text[PATH_MAX + 32];
    snprintf(text, sizeof text, "%s/not-elf.so", plugin_dir);
    FILE *f = fopen(text, "w");
    assert_non_null(f);
    fputs("not a shared object\n", f);
    fclose(f);
    expect_load_fails(text, "cannot load it:");
    unlink(text);
    expect_load_fails(plugin("tplug_noinit"),
                      "not a libeh backend plugin (it exports no eh_backend_plugin_init)");
    char abi_msg[128];
    snprintf(abi_msg, sizeof abi_msg,
             "backend_register: the table was built for backend ABI 99, this libeh has ABI %u; "
             "rebuild", (unsigned)EH_BACKEND_ABI_VERSION);
    expect_load_fails(plugin("tplug_abi"), abi_msg);
    expect_load_fails(plugin("tplug_size"), "the table was built against another op set");
    expect_load_fails(plugin("tplug_delegate"), "its delegate 'nope' is not a backend");
    expect_load_fails(plugin("tplug_silent"),
                      "its init function failed with EH_ERR_INTERNAL");
    expect_load_fails(plugin("tplug_undefined"), "undefined symbol: eh_no_such_function");
    expect_load_fails(plugin("tplug_undefined"), "link the program with libeh.so");
    /* names already taken */
    expect_load_fails(plugin("tplug_ref"),
                      "a backend named 'ref' is already registered (built into libeh)");
    assert_int_equal(eh_backend_load(plugin("tplug")), EH_OK);
    char needle[PATH_MAX + 128];
    snprintf(needle, sizeof needle,
             "a backend named 'tplug' is already registered (registered by %s)", plugin("tplug"));
    expect_load_fails(plugin("tplug_again"), needle);
    /* a failed load gives the same answer again, without running init twice */
    expect_load_fails(plugin("tplug_abi"), "ABI 99");
    /* none of the refused tables was registered */
    assert_int_equal(listed("tplug_abi") + listed("tplug_size") + listed("tplug_delegate"), 0);
    assert_int_equal(listed("tplug"), 1);
    assert_int_equal(listed("ref"), 1);
    assert_int_equal(eh_set_backend("tplug_abi"), EH_ERR_BACKEND);
    eh_clear_error();

    assert_int_equal(eh_backend_load(NULL), EH_ERR_NULL_ARG);
    assert_int_equal(eh_backend_load(""), EH_ERR_BACKEND);
    eh_clear_error();
}

/* In-process tables go through the same checks. */
static eh_status identity_kernel(const eh_op_call *call)
{
    (void)call;
    return EH_OK;
}

static const eh_backend inproc = {EH_BACKEND_ABI, .name = "inproc", .delegate = "ref",
                                  .kernels = {[EH_OP_abs] = identity_kernel}};
static const eh_backend bad_name = {EH_BACKEND_ABI, .name = "Bad-Name"};
static const eh_backend no_name = {EH_BACKEND_ABI};
static const eh_backend self_delegate = {EH_BACKEND_ABI, .name = "selfish", .delegate = "selfish"};
static const eh_backend old_abi = {.abi_version = 0, .size = sizeof(eh_backend), .name = "old"};

static void test_register_in_process(void **state)
{
    (void)state;
    assert_int_equal(eh_backend_register(NULL), EH_ERR_NULL_ARG);
    assert_int_equal(eh_backend_register(&bad_name), EH_ERR_INVALID_ARG);
    assert_non_null(strstr(eh_error_message(), "'Bad-Name' is not a backend name"));
    assert_int_equal(eh_backend_register(&no_name), EH_ERR_INVALID_ARG);
    assert_int_equal(eh_backend_register(&self_delegate), EH_ERR_INVALID_ARG);
    assert_non_null(strstr(eh_error_message(), "it is this one"));
    assert_int_equal(eh_backend_register(&old_abi), EH_ERR_BACKEND);
    assert_non_null(strstr(eh_error_message(), "backend ABI 0"));
    eh_clear_error();
    assert_int_equal(eh_backend_register(&inproc), EH_OK);
    assert_int_equal(eh_backend_register(&inproc), EH_ERR_BACKEND);
    assert_non_null(strstr(eh_error_message(), "'inproc' is already registered (registered)"));
    eh_clear_error();
    assert_int_equal(eh_set_backend("inproc"), EH_OK);
    eh_tensor *x = T(EH_F64, SHAPE(2), -1, 2);
    eh_tensor *y = eh_abs(x); /* its kernel does nothing: the output stays as allocated */
    assert_non_null(y);
    eh_release(y);
    y = eh_negative(x); /* ref's, through the delegate */
    EXPECT(y, EH_F64, SHAPE(2), 1, -2);
    eh_release(y);
    eh_release(x);
    assert_int_equal(eh_set_backend("ref"), EH_OK);
}

/* Several threads load the same plugin at once: one registration. */
static void *loader(void *arg)
{
    (void)arg;
    return (void *)(intptr_t)eh_backend_load(plugin("tplug"));
}

static void test_concurrent_loads(void **state)
{
    (void)state;
    pthread_t th[6];
    for (int k = 0; k < 6; k++)
        assert_int_equal(pthread_create(&th[k], NULL, loader, NULL), 0);
    for (int k = 0; k < 6; k++) {
        void *st;
        pthread_join(th[k], &st);
        assert_int_equal((int)(intptr_t)st, EH_OK);
    }
    assert_int_equal(listed("tplug"), 1);
}

/* ---- EH_BACKEND_PATH, in child processes ---- */

/* The child's side: report what it sees on stdout. */
static int child(const char *mode)
{
    const char *b = eh_get_backend();
    printf("backend=%s\n", b ? b : "(none)");
    if (!b)
        printf("error=%s: %s\n", eh_status_name(eh_last_error()), eh_error_message());
    if (strcmp(mode, "recover") == 0) {
        eh_clear_error();
        printf("set_ref=%s\n", eh_status_name(eh_set_backend("ref")));
    }
    printf("listed_tplug=%d\n", listed("tplug"));
    eh_tensor *x = eh_scalar(3, EH_F64);
    eh_tensor *y = eh_negative(x);
    printf("negative=%g\n", y ? eh_item(y) : 0.0);
    eh_release(x);
    eh_release(y);
    return 0;
}

static void run_child(const char *mode, const char *path_env, const char *backend_env, char *out,
                      size_t cap)
{
    const char *env[] = {"EH_BACKEND_PATH", path_env, "EH_BACKEND", backend_env, NULL};
    int st = t_run((const char *const[]){self_path, "--child", mode, NULL}, env, out, cap);
    if (st != 0)
        fail_msg("the child (%s) exited with %d:\n%s", mode, st, out);
}

static void expect_line(const char *out, const char *line)
{
    if (!strstr(out, line))
        fail_msg("child output lacks '%s':\n%s", line, out);
}

static void test_env_path(void **state)
{
    (void)state;
    char out[4096];
    /* a file, selected with EH_BACKEND */
    run_child("plain", plugin("tplug"), "tplug", out, sizeof out);
    expect_line(out, "backend=tplug\n");
    expect_line(out, "negative=-3\n");
    /* a directory: its libeh-*.so files */
    char dir[] = "/tmp/eh-plugin-dir-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char link[PATH_MAX + 64];
    snprintf(link, sizeof link, "%s/libeh-tplug.so", dir);
    assert_int_equal(symlink(plugin("tplug"), link), 0);
    char list[2 * PATH_MAX], want[128];
    snprintf(list, sizeof list, "::%s:", dir); /* empty entries are skipped */
    run_child("plain", list, NULL, out, sizeof out);
    expect_line(out, "listed_tplug=1\n");
    const char *first = NULL;
    eh_list_backends(&first, 1);
    snprintf(want, sizeof want, "backend=%s\n", first); /* loaded, but not the default */
    expect_line(out, want);
    /* a failing entry: every op fails until eh_set_backend */
    snprintf(list, sizeof list, "%s:%s", dir, plugin("tplug_abi"));
    run_child("recover", list, NULL, out, sizeof out);
    expect_line(out, "backend=(none)\n");
    expect_line(out, "error=EH_ERR_BACKEND: EH_BACKEND_PATH: backend_load: '");
    expect_line(out, "libeh-tplug_abi.so': backend_register: the table was built for backend ABI 99");
    expect_line(out, "call eh_set_backend() or fix the variable\n");
    expect_line(out, "set_ref=EH_OK\n");
    expect_line(out, "listed_tplug=1\n");
    expect_line(out, "negative=-3\n");
    run_child("plain", "/nonexistent/libeh-x.so", "ref", out, sizeof out);
    expect_line(out, "error=EH_ERR_BACKEND: EH_BACKEND_PATH: backend_load: "
                     "'/nonexistent/libeh-x.so': No such file or directory");
    expect_line(out, "negative=0\n"); /* the op failed */
    /* EH_BACKEND naming a plugin nobody loaded */
    run_child("plain", NULL, "tplug", out, sizeof out);
    expect_line(out, "error=EH_ERR_BACKEND: EH_BACKEND='tplug' is not a backend of this libeh");
    unlink(link);
    rmdir(dir);
}

int main(int argc, char **argv)
{
    ssize_t len = readlink("/proc/self/exe", self_path, sizeof self_path - 1);
    if (len <= 0)
        return 1;
    self_path[len] = '\0';
    if (argc == 3 && strcmp(argv[1], "--child") == 0)
        return child(argv[2]);
    snprintf(plugin_dir, sizeof plugin_dir, "%s", self_path);
    char *slash = strrchr(plugin_dir, '/');
    snprintf(slash, sizeof plugin_dir - (size_t)(slash - plugin_dir), "/plugins");
    struct stat sb;
    if (stat(plugin_dir, &sb) != 0) {
        fprintf(stderr, "test_plugin: no %s (build the test plugins with make)\n", plugin_dir);
        return 1;
    }
    const struct CMUnitTest tests[] = {
        EH_TEST(test_load_and_use),
        EH_TEST(test_conformance),
        EH_TEST(test_load_errors),
        EH_TEST(test_register_in_process),
        EH_TEST(test_concurrent_loads),
        EH_TEST(test_env_path),
    };
    return EH_RUN_TESTS(tests);
}
