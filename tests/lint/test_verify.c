/* tests/lint/test_verify.c -- a changeset is verified before it is
 * written (lint/change/verify.h), in every build configuration
 * (lint/change/buildcfg.h):
 *   - a change that breaks only the -UFAST build is found, named with its
 *     configuration, and the disk is untouched;
 *   - new contents are read from memory: a file moved into a directory
 *     that does not exist yet, including "../../util.h", compiles there;
 *     an include left pointing at a file that moves does not;
 *   - a call left to an undeclared function is an error here, although C
 *     only warns;
 *   - define sets: "A=1, !B" items, sets split by ';', bad items refused;
 *     a compile database listing a file twice gives two configurations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildcfg.h"
#include "changeset.h"
#include "compdb.h"
#include "config.h"
#include "lint_test.h"
#include "path.h"
#include "strbuf.h"
#include "verify.h"

static el_source source_at(char *path, el_config *cfg)
{
    el_source s;
    memset(&s, 0, sizeof s);
    s.path = path;
    s.display = path;
    s.cfg = cfg;
    return s;
}

static el_hash128 h(const char *s)
{
    return el_hash_bytes(s, strlen(s));
}

static const char KERNEL_H[] = "int fast_sum(int a, int b);\n";
static const char MAIN_C[] = "#include \"kernel.h\"\n"
                             "#ifdef FAST\n"
                             "int f(void) { return 1; }\n"
                             "#else\n"
                             "int f(void) { return fast_sum(1, 2); }\n"
                             "#endif\n";

static void test_every_configuration(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *hdr = tt_write(dir, "kernel.h", KERNEL_H);
    char *main_c = tt_write(dir, "main.c", MAIN_C);
    char *before = tt_snapshot(dir, true);
    el_config cfg;
    memset(&cfg, 0, sizeof cfg);
    el_source src = source_at(main_c, &cfg);
    el_sources s = {.v = &src, .n = 1, .cap = 1};
    el_buildcfgs b;
    char *err = NULL;
    assert_int_equal(el_buildcfgs_make(&b, NULL, &s, "FAST;!FAST", &err), 0);
    assert_int_equal(b.n, 2);

    /* the include goes: fine with FAST, broken without */
    el_changeset cs;
    el_changeset_init(&cs, dir);
    const char *no_include = MAIN_C + strlen("#include \"kernel.h\"\n");
    el_hash128 hm = h(MAIN_C);
    assert_int_equal(el_changeset_modify(&cs, main_c, &hm, no_include, strlen(no_include), &err),
                     0);
    el_verify_units u = {0};
    el_verify_units_add(&u, main_c, main_c, &src, "main.c");
    el_verify_result r;
    assert_int_equal(el_verify(&cs, &u, &b, NULL, 0, &r), 1);
    assert_string_equal(r.v[0].config, "define set \"!FAST\"");
    char *m = el_verify_message(&r.v[0]);
    assert_true(tt_contains(m, "main.c: does not compile after the change (define set \"!FAST\"): "));
    assert_true(tt_contains(m, "fast_sum"));
    free(m);
    el_verify_result_free(&r);
    char *now = tt_snapshot(dir, true);
    tt_assert_same(before, now, "verification writes nothing");
    free(now);

    /* with one configuration only, the broken arm is not seen */
    el_buildcfgs one;
    assert_int_equal(el_buildcfgs_make(&one, NULL, &s, "FAST", &err), 0);
    assert_int_equal(el_verify(&cs, &u, &one, NULL, 0, &r), 0);
    el_verify_result_free(&r);
    el_buildcfgs_free(&one);

    el_verify_units_free(&u);
    el_changeset_free(&cs);
    el_buildcfgs_free(&b);
    free(before);
    free(hdr);
    free(main_c);
    tt_rmtree(dir);
    free(dir);
}

static void test_new_places(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *util = tt_write(dir, "util.h", "#define TWO 2\n");
    char *old = tt_write(dir, "ops/k.c", "#include \"../util.h\"\nint k(void) { return TWO; }\n");
    char *user = tt_write(dir, "user.c", "#include \"ops/k.c\"\nint u(void) { return k(); }\n");
    char *err = NULL;
    el_source so = source_at(old, NULL), su = source_at(user, NULL);

    /* moved two levels down, into directories that do not exist yet,
     * its include re-spelled: compiles */
    char *to = tt_path(dir, "backends/x/k.c");
    static const char moved[] = "#include \"../../util.h\"\nint k(void) { return TWO; }\n";
    el_changeset cs;
    el_changeset_init(&cs, dir);
    el_hash128 ho = h("#include \"../util.h\"\nint k(void) { return TWO; }\n");
    assert_int_equal(el_changeset_move(&cs, old, to, moved, strlen(moved), &ho, &err), 0);
    el_verify_units u = {0};
    el_verify_units_add(&u, to, old, &so, "backends/x/k.c");
    el_verify_result r;
    assert_int_equal(el_verify(&cs, &u, NULL, NULL, 0, &r), 0);
    el_verify_result_free(&r);

    /* but user.c still includes the old place: it is deleted */
    el_verify_units_add(&u, user, user, &su, "user.c");
    assert_int_equal(el_verify(&cs, &u, NULL, NULL, 0, &r), 1);
    assert_string_equal(r.v[0].display, "user.c");
    assert_true(tt_contains(r.v[0].error, "is deleted by this change"));
    el_verify_result_free(&r);
    el_verify_units_free(&u);
    el_changeset_free(&cs);

    /* a call left to a function no longer declared: C warns, this fails */
    el_changeset_init(&cs, dir);
    el_hash128 hu = h("#include \"ops/k.c\"\nint u(void) { return k(); }\n");
    static const char lost[] = "int u(void) { return k(); }\n";
    assert_int_equal(el_changeset_modify(&cs, user, &hu, lost, strlen(lost), &err), 0);
    el_verify_units_add(&u, user, user, &su, "user.c");
    assert_int_equal(el_verify(&cs, &u, NULL, NULL, 0, &r), 1);
    assert_true(tt_contains(r.v[0].error, "implicit declaration of function 'k'"));
    /* an error only because a warning is one for a change: it says so */
    assert_true(tt_contains(r.v[0].error, "(-Wimplicit-function-declaration: a warning that a "
                                          "change may not introduce)"));
    el_verify_result_free(&r);
    el_verify_units_free(&u);
    el_changeset_free(&cs);

    free(to);
    free(util);
    free(old);
    free(user);
    tt_rmtree(dir);
    free(dir);
}

static void test_define_sets(void **state)
{
    (void)state;
    char **sets = NULL, *err = NULL;
    size_t n = 0;
    assert_int_equal(el_define_sets_split("A=1, !B;C;", &sets, &n, &err), 0);
    assert_int_equal(n, 3);
    assert_string_equal(sets[0], "A=1, !B");
    assert_string_equal(sets[2], "");
    el_args_free(sets, n);
    assert_int_equal(el_define_sets_split("A;1B", &sets, &n, &err), -1);
    assert_true(tt_contains(err, "\"1B\" is not NAME, NAME=VALUE or !NAME"));
    free(err);
    err = NULL;
    assert_int_equal(el_define_sets_split("!A=1", &sets, &n, &err), -1);
    free(err);

    /* a compile database listing a file twice: two configurations */
    char *dir = tt_tmpdir();
    char *main_c = tt_write(dir, "main.c", "int x;\n");
    char *json = tt_fmt("[{\"directory\": \"%s\", \"file\": \"main.c\", \"command\": \"cc -DONE -c "
                        "main.c\"},\n {\"directory\": \"%s\", \"file\": \"main.c\", \"command\": "
                        "\"cc -DTWO -c main.c\"},\n {\"directory\": \"%s\", \"file\": \"main.c\", "
                        "\"command\": \"cc -DONE -c main.c -o again.o\"}]\n", dir, dir, dir);
    free(tt_write(dir, "compile_commands.json", json));
    el_compdb *db = el_compdb_load(dir, &err);
    assert_non_null(db);
    assert_int_equal(el_compdb_args_count(db, main_c), 2); /* the third repeats the first */
    el_config cfg;
    memset(&cfg, 0, sizeof cfg);
    el_source src = source_at(main_c, &cfg);
    el_sources s = {.v = &src, .n = 1, .cap = 1};
    el_buildcfgs b;
    assert_int_equal(el_buildcfgs_make(&b, db, &s, NULL, &err), 0);
    assert_int_equal(b.n, 2);
    size_t na = 0;
    char **a = el_compdb_args(b.db[1], main_c, &na);
    bool two = false;
    for (size_t i = 0; i < na; i++)
        two |= !strcmp(a[i], "-DTWO");
    assert_true(two);
    el_args_free(a, na);
    char *name = el_buildcfg_name(&b, 1, &src);
    assert_string_equal(name, "compile_commands.json entry 2");
    free(name);
    el_buildcfgs_free(&b);
    el_compdb_free(db);
    free(json);
    free(main_c);
    tt_rmtree(dir);
    free(dir);
}

static bool anywhere(const char *path, void *ud)
{
    (void)path, (void)ud;
    return true;
}

/* el_compdb_tree_headers reads each listed file's entry once (a hash, not
 * a walk of the database per file) and a directory's borrowed entry once
 * for all its unlisted headers: the -p C++-header check stays linear. */
static void test_tree_headers_reads(void **state)
{
    (void)state;
    char *dir = tt_tmpdir();
    char *files[3];
    el_buf json = {0};
    el_buf_puts(&json, "[");
    for (int i = 0; i < 3; i++) {
        char *name = tt_fmt("f%d.cpp", i);
        char *text = tt_fmt("#include \"h%d.h\"\n", i);
        files[i] = tt_write(dir, name, text);
        el_buf_printf(&json, "%s{\"directory\": \"%s\", \"file\": \"%s\", \"command\": "
                      "\"c++ -Iinc -c %s\"}", i ? ",\n" : "", dir, name, name);
        free(name);
        free(text);
        name = tt_fmt("inc/h%d.h", i);
        text = tt_fmt("#include \"g%d.h\"\n", i);
        free(tt_write(dir, name, text));
        free(name);
        free(text);
        name = tt_fmt("inc/g%d.h", i);
        free(tt_write(dir, name, "int g;\n"));
        free(name);
    }
    el_buf_puts(&json, "]\n");
    free(tt_write(dir, "compile_commands.json", json.s));
    el_buf_free(&json);
    char *err = NULL;
    el_compdb *db = el_compdb_load(dir, &err);
    assert_non_null(db);
    size_t n = 0;
    char **h = el_compdb_tree_headers(db, files, 3, anywhere, NULL, &n);
    assert_int_equal(n, 6); /* h0..h2, g0..g2 (g%d.h found beside h%d.h) */
    /* 3 own entries + 1 for inc/ (not one per header: 6) */
    assert_int_equal(el_compdb_tree_reads, 4);
    for (size_t i = 0; i < n; i++)
        free(h[i]);
    free(h);
    for (int i = 0; i < 3; i++)
        free(files[i]);
    el_compdb_free(db);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    el_path_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_configuration),
        cmocka_unit_test(test_new_places),
        cmocka_unit_test(test_define_sets),
        cmocka_unit_test(test_tree_headers_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
