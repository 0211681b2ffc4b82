/* tests/migrate/test_generated.c -- sites in a header CMake generates
 * into its build directory (configure_file, as SUNDIALS makes
 * sundials_lapack_defs.h from sundials_lapack_defs.h.in): the build
 * directory inside the tree, a call template for the LAPACK call.
 * Before, the site was listed at the build directory's copy and the
 * template's rewrite was made there, in a file the next configure
 * overwrites.  Now the generated file is never changed; its site is
 * listed at the template (the same line, or the line that names the
 * call when configure_file moved it), saying that the file is generated
 * and from what; with no template to be found, at the generated file,
 * saying so; a template named after the file's stem elsewhere in the
 * source tree (SUNDIALS' sundials_config.in) is found too.  The rest of
 * the tree migrates. */
#include "migrate_test.h"

#include "generated.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char TEMPLATE[] =
    "/* The LAPACK routine the solver calls (configured by CMake). */\n"
    "#ifndef LAPACK_DEFS_H\n"
    "#define LAPACK_DEFS_H\n"
    "\n"
    "#cmakedefine LAPACK_SUFFIX \"@LAPACK_SUFFIX@\"\n"
    "\n"
    "int lu_rows(const int *n, double *a, int *ipiv, int *info);\n"
    "void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);\n"
    "\n"
    "static inline int lu_factor(int n, double *a, int *ipiv)\n"
    "{\n"
    "    int info = 0;\n"
    "    dgetrf_(&n, &n, a, &n, ipiv, &info);\n"
    "    return info;\n"
    "}\n"
    "\n"
    "#endif\n";

static const char SOLVE_C[] = "#include \"lapack_defs.h\"\n\n"
                              "int solve(int n, double *a, int *ipiv)\n{\n"
                              "    int info = 0;\n"
                              "    dgetrf_(&n, &n, a, &n, ipiv, &info);\n"
                              "    return info + lu_factor(n, a, ipiv);\n}\n";

static const char RULES[] =
    "{\"rewrites\": [{\"function\": \"dgetrf_\", \"replacement\": \"lu_rows($1, $3, $5, $6)\",\n"
    "  \"safety\": \"safe\", \"note\": \"square\"}]}\n";

/* The tree, with the header as configure_file writes it into _b/include
 * (generated: the template's text, #cmakedefine resolved; extra: a line
 * the generation adds before the call). */
static char *make_tree(const char *tmpl, const char *extra)
{
    char *dir = tt_tmpdir();
    free(tt_write(dir, ".emberlint.json", RULES));
    free(tt_write(dir, "src/solve.c", SOLVE_C));
    if (tmpl)
        free(tt_write(dir, tmpl, TEMPLATE));
    char *gen = tt_replace_all(TEMPLATE, "#cmakedefine LAPACK_SUFFIX \"@LAPACK_SUFFIX@\"\n",
                               extra ? extra : "#define LAPACK_SUFFIX \"_\"\n");
    free(tt_write(dir, "_b/include/lapack_defs.h", gen));
    free(gen);
    char *cache = tt_fmt("# This is the CMakeCache file.\nCMAKE_HOME_DIRECTORY:INTERNAL=%s\n", dir);
    free(tt_write(dir, "_b/CMakeCache.txt", cache));
    free(cache);
    char *db = tt_fmt("[{\"directory\": \"%s/_b\", \"file\": \"%s/src/solve.c\",\n"
                      "  \"command\": \"cc -I%s/_b/include %s -c %s/src/solve.c\"}]\n",
                      dir, dir, dir, MT_INCLUDE, dir);
    free(tt_write(dir, "_b/compile_commands.json", db));
    free(db);
    return dir;
}

static void check(const char *tmpl, const char *extra, const char *where, const char *says)
{
    char *dir = make_tree(tmpl, extra);
    char *gen_path = tt_fmt("%s/_b/include/lapack_defs.h", dir);
    char *gen_before = tt_read(gen_path, NULL);
    tt_run r = mt_migrate_args(dir, "plan", "-p", "_b", ".", NULL);
    if (r.status != 1 || !tt_contains(r.err, where) || !tt_contains(r.err, says) ||
        tt_contains(r.out, "_b/include") || !tt_contains(r.out, "+    lu_rows(&n, a, ipiv, &info);"))
        fail_msg("plan: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    tt_free(&r);
    r = mt_migrate_args(dir, "apply", "-p", "_b", ".", NULL);
    char *gen_after = tt_read(gen_path, NULL);
    char *solve = tt_fmt("%s/src/solve.c", dir);
    char *solved = tt_read(solve, NULL);
    if (r.status != 1 || strcmp(gen_before, gen_after) != 0 ||
        !tt_contains(solved, "    lu_rows(&n, a, ipiv, &info);") || !tt_contains(r.err, where))
        fail_msg("apply: status %d\nstderr:\n%s\ngenerated now:\n%s", r.status, r.err, gen_after);
    tt_free(&r);
    free(solve);
    free(solved);
    free(gen_after);
    free(gen_before);
    free(gen_path);
    tt_rmtree(dir);
    free(dir);
}

static void test_site_at_template(void **state)
{
    (void)state;
    check("include/lapack_defs.h.in", NULL,
          "include/lapack_defs.h.in:13:5: manual: [EH102] call to backend function 'dgetrf_': "
          "replace the call of dgetrf_ with lu_rows(&n, a, ipiv, &info): by hand, in the "
          "template (at _b/include/lapack_defs.h:13:5, a file CMake generates from "
          "include/lapack_defs.h.in into the build directory _b: change "
          "include/lapack_defs.h.in, never the generated file, then configure again)",
          "never the generated file");
}

static void test_line_moved_by_generation(void **state)
{
    (void)state;
    /* configure_file wrote two lines for one: the site is one line lower
     * in the generated file; the template's line naming the call is it */
    check("include/lapack_defs.h.in", "#define LAPACK_SUFFIX \"_\"\n#define LAPACK_UPPER 0\n",
          "include/lapack_defs.h.in:13:5: manual: [EH102]",
          "(at _b/include/lapack_defs.h:14:5, a file CMake generates from");
}

static void test_no_template(void **state)
{
    (void)state;
    check(NULL, NULL,
          "_b/include/lapack_defs.h:13:5: manual: [EH102]",
          "(_b/include/lapack_defs.h is in the CMake build directory _b, so the build generates "
          "it: not changed; no template of it (lapack_defs.h.in) was found under ");
}

static void test_stem_template_elsewhere(void **state)
{
    (void)state;
    /* SUNDIALS' way: include/sundials/sundials_config.in makes
     * <build>/include/sundials/sundials_config.h; here config/lapack_defs.in */
    check("config/lapack_defs.in", NULL,
          "config/lapack_defs.in:13:5: manual: [EH102]",
          "a file CMake generates from config/lapack_defs.in into the build directory _b");
}

/* A tree whose sources sit in the build directory's view: root is the
 * folder the project is in, build the CMake build directory's path
 * relative to dir (the cache's place), home the cache's
 * CMAKE_HOME_DIRECTORY and cachedir its CMAKE_CACHEFILE_DIR (NULL:
 * build's own path).  The header include/lapack_defs.h and src/solve.c
 * are the project's own: both migrate, nothing is called generated. */
static void put(const char *dir, const char *sub, const char *rel, const char *text)
{
    char *r = tt_fmt("%s/%s", sub, rel);
    free(tt_write(dir, r, text));
    free(r);
}

static void check_not_generated(const char *root, const char *build, const char *home,
                                const char *cachedir)
{
    char *dir = tt_tmpdir();
    char *proj = tt_fmt("%s/%s", dir, root);
    put(dir, root, ".emberlint.json", RULES);
    put(dir, root, "src/solve.c", SOLVE_C);
    char *hdr = tt_replace_all(TEMPLATE, "#cmakedefine LAPACK_SUFFIX \"@LAPACK_SUFFIX@\"\n",
                               "#define LAPACK_SUFFIX \"_\"\n");
    put(dir, root, "include/lapack_defs.h", hdr);
    free(hdr);
    char *b = tt_fmt("%s/%s", dir, build);
    char *h = tt_fmt("%s/%s", dir, home);
    char *cd = cachedir ? tt_fmt("%s/%s", dir, cachedir) : tt_fmt("%s", b);
    char *cache = tt_fmt("# This is the CMakeCache file.\nCMAKE_CACHEFILE_DIR:INTERNAL=%s\n"
                         "CMAKE_HOME_DIRECTORY:INTERNAL=%s\n", cd, h);
    put(dir, build, "CMakeCache.txt", cache);
    char *db = tt_fmt("[{\"directory\": \"%s\", \"file\": \"%s/src/solve.c\",\n"
                      "  \"command\": \"cc -I%s/include %s -c %s/src/solve.c\"}]\n",
                      proj, proj, proj, MT_INCLUDE, proj);
    put(dir, root, "compile_commands.json", db);
    tt_run r = mt_migrate_args(proj, "plan", "-p", ".", ".", NULL);
    if (tt_contains(r.err, "build directory") || !tt_contains(r.out, "+    lu_rows(&n, a, ipiv, &info);") ||
        !tt_contains(r.out, "include/lapack_defs.h") || !tt_contains(r.out, "src/solve.c"))
        fail_msg("plan in %s (build %s, home %s): status %d\nstdout:\n%s\nstderr:\n%s", root,
                 build, home, r.status, r.out, r.err);
    tt_free(&r);
    free(db);
    free(cache);
    free(cd);
    free(h);
    free(b);
    free(proj);
    tt_rmtree(dir);
    free(dir);
}

static void test_in_source_build(void **state)
{
    (void)state;
    /* `cd proj && cmake .`: the cache in the source root itself */
    check_not_generated("proj", "proj", "proj", NULL);
}

static void test_fetchcontent_source(void **state)
{
    (void)state;
    /* the project as FetchContent put it into another's build directory */
    check_not_generated("app/_b/_deps/lapackdefs-src", "app/_b", "app", NULL);
}

static void test_stale_cache_above(void **state)
{
    (void)state;
    /* a CMakeCache.txt copied (or left) in a folder above, written for
     * another folder: not a build directory */
    check_not_generated("work/proj", "work", "elsewhere", "old/build");
    /* a parent project's in-source build: the project is its source */
    check_not_generated("work/proj", "work", "work", NULL);
}

/* The tree of make_tree with no template, and the file at rel holding
 * text (the generated header's own text: a copy of it). */
static void check_copy(const char *rel, const char *text, const char *where, const char *says,
                       const char *not_says)
{
    char *dir = make_tree(NULL, NULL);
    free(tt_write(dir, rel, text));
    tt_run r = mt_migrate_args(dir, "plan", "-p", "_b", ".", NULL);
    if (r.status != 1 || !tt_contains(r.err, where) || !tt_contains(r.err, says) ||
        (not_says && tt_contains(r.err, not_says)) ||
        !tt_contains(r.out, "+    lu_rows(&n, a, ipiv, &info);"))
        fail_msg("plan: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

/* Without PATH (-p _b) as with it: the site of the copy the TU reads is
 * listed at the tree's header, for a person (emberlint's run without PATH
 * lints the tree's header instead of the copy: test_cli). */
static void check_copy_without_path(const char *text, const char *where, const char *not_says)
{
    char *dir = make_tree(NULL, NULL);
    free(tt_write(dir, "include/lapack_defs.h", text));
    tt_run r = mt_migrate_args(dir, "plan", "-p", "_b", NULL);
    if (r.status != 1 || !tt_contains(r.err, where) || tt_contains(r.err, not_says) ||
        !tt_contains(r.out, "+    lu_rows(&n, a, ipiv, &info);"))
        fail_msg("plan -p _b: status %d\nstdout:\n%s\nstderr:\n%s", r.status, r.out, r.err);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_copy_of_source_header(void **state)
{
    (void)state;
    /* SCS's way: configure_file(include/cones.h <build>/include/cones.h
     * COPYONLY) -- no .in, the build directory's header is a copy of the
     * tree's own.  Before, "no template of it (lapack_defs.h.in) was
     * found": the site is listed at the header the copy is made from */
    char *gen = tt_replace_all(TEMPLATE, "#cmakedefine LAPACK_SUFFIX \"@LAPACK_SUFFIX@\"\n",
                               "#define LAPACK_SUFFIX \"_\"\n");
    check_copy("include/lapack_defs.h", gen,
               "include/lapack_defs.h:13:5: manual: [EH102] call to backend function 'dgetrf_'",
               "(at _b/include/lapack_defs.h:13:5, a file CMake generates from "
               "include/lapack_defs.h into the build directory _b: change include/lapack_defs.h, "
               "never the generated file, then configure again)", "no template of it");
    /* a header of the same name with other text is no copy of it */
    char *other = tt_replace_all(gen, "#define LAPACK_SUFFIX \"_\"\n", "");
    check_copy("include/lapack_defs.h", other, "_b/include/lapack_defs.h:13:5: manual: [EH102]",
               "no template of it (lapack_defs.h.in) was found under ", NULL);
    check_copy_without_path(gen, "include/lapack_defs.h:13:5: manual: [EH102] call to backend "
                                 "function 'dgetrf_': replace the call of dgetrf_ with lu_rows(&n, a, "
                                 "ipiv, &info): by hand, in the template (at _b/include/lapack_defs.h:13:5",
                            "_b/include/lapack_defs.h:13:5: manual");
    check_copy_without_path(other, "_b/include/lapack_defs.h:13:5: manual: [EH102]",
                            "\ninclude/lapack_defs.h:13:5: manual");
    free(other);
    free(gen);
}

static void test_several_templates(void **state)
{
    (void)state;
    /* two vendored copies of the template: neither is taken for it (the
     * alphabetically first was); the site stays at the generated file,
     * and both are listed */
    char *dir = make_tree("vendor/a/lapack_defs.h.in", NULL);
    free(tt_write(dir, "vendor/b/lapack_defs.h.in", TEMPLATE));
    tt_run r = mt_migrate_args(dir, "plan", "-p", "_b", ".", NULL);
    if (r.status != 1 || !tt_contains(r.err, "_b/include/lapack_defs.h:13:5: manual: [EH102]") ||
        !tt_contains(r.err, "more than one file could be its template (vendor/a/lapack_defs.h.in, "
                            "vendor/b/lapack_defs.h.in)") ||
        tt_contains(r.err, "vendor/a/lapack_defs.h.in:13"))
        fail_msg("plan: status %d\nstderr:\n%s", r.status, r.err);
    tt_free(&r);
    tt_rmtree(dir);
    free(dir);
}

static void test_one_walk_per_tree(void **state)
{
    (void)state;
    /* 150 sites of a generated header whose template is elsewhere in the
     * source tree: the tree is walked once, not twice per site (a tree of
     * 20 000 files took 18-22 s) */
    char *dir = make_tree("config/lapack_defs.in", NULL);
    for (int i = 0; i < 50; i++) {
        char *rel = tt_fmt("src/more/m%d.c", i);
        free(tt_write(dir, rel, "int x;\n"));
        free(rel);
    }
    char *gen = tt_fmt("%s/_b/include/lapack_defs.h", dir);
    unsigned before = em_generated_walks();
    for (unsigned i = 0; i < 150; i++) {
        em_generated g;
        assert_true(em_generated_file(gen, 13, 5, i % 2 ? "dgetrf_" : NULL, &g));
        if (!g.tmpl || !tt_contains(g.tmpl, "config/lapack_defs.in") || g.line != 13)
            fail_msg("site %u: template %s line %u", i, g.tmpl ? g.tmpl : "(none)", g.line);
        em_generated_free(&g);
    }
    assert_int_equal(em_generated_walks() - before, 1);
    free(gen);
    tt_rmtree(dir);
    free(dir);
}

/* Many sites with no fix in a generated header (SUNDIALS'
 * sundials_lapack_defs.h: its fallback `#define dgetrf_f77 dgetrf_`
 * lines, and calls no op replaces).  Each was recorded twice in the
 * plan's list of sites that stay (once as having no fix, once as
 * generated), a list sized one entry per finding: a heap overflow that
 * aborted `plan -p build` on the whole tree ("double free or
 * corruption").  Now each is listed once, at the template. */
static void test_many_unfixable_sites(void **state)
{
    (void)state;
    enum { SITES = 64 };
    char *dir = tt_tmpdir();
    char *tmpl = tt_fmt("%s", "#ifndef EIG_DEFS_H\n#define EIG_DEFS_H\n"
                              "#cmakedefine EIG_SUFFIX \"@EIG_SUFFIX@\"\n"
                              "void dgeev_(const char *jl, const char *jr, const int *n, "
                              "double *a, const int *lda, double *wr, double *wi, double *vl, "
                              "const int *ldvl, double *vr, const int *ldvr, double *work, "
                              "const int *lwork, int *info);\n");
    for (int i = 0; i < SITES; i++) {
        char *more = tt_fmt("%sstatic inline int eig%d(int n, double *a, double *w, int lw)\n"
                            "{\n    int info = 0;\n"
                            "    dgeev_(\"N\", \"N\", &n, a, &n, w, w, 0, &n, 0, &n, w, &lw, "
                            "&info);\n    return info;\n}\n",
                            tmpl, i);
        free(tmpl);
        tmpl = more;
    }
    char *all = tt_fmt("%s#endif\n", tmpl);
    free(tt_write(dir, "include/eig_defs.h.in", all));
    char *gen = tt_replace_all(all, "#cmakedefine EIG_SUFFIX \"@EIG_SUFFIX@\"\n",
                               "#define EIG_SUFFIX \"_\"\n");
    free(tt_write(dir, "_b/include/eig_defs.h", gen));
    free(tt_write(dir, "src/eig.c", "#include \"eig_defs.h\"\n\nint first(int n, double *a, "
                                    "double *w, int lw)\n{\n    return eig0(n, a, w, lw);\n}\n"));
    char *cache = tt_fmt("# This is the CMakeCache file.\nCMAKE_HOME_DIRECTORY:INTERNAL=%s\n", dir);
    free(tt_write(dir, "_b/CMakeCache.txt", cache));
    char *db = tt_fmt("[{\"directory\": \"%s/_b\", \"file\": \"%s/src/eig.c\",\n"
                      "  \"command\": \"cc -I%s/_b/include %s -c %s/src/eig.c\"}]\n",
                      dir, dir, dir, MT_INCLUDE, dir);
    free(tt_write(dir, "_b/compile_commands.json", db));
    tt_run r = mt_migrate_args(dir, "plan", "-p", "_b", ".", NULL);
    size_t listed = 0;
    for (const char *line = r.err; line && *line;) {
        const char *end = strchr(line, '\n');
        char *one = end ? tt_fmt("%.*s", (int)(end - line), line) : tt_fmt("%s", line);
        listed += !strncmp(one, "include/eig_defs.h.in:", 22) &&
                  tt_contains(one, ": manual: [EH102] call to backend function 'dgeev_'");
        free(one);
        line = end ? end + 1 : NULL;
    }
    if (r.status != 1 || listed != SITES || r.out[0] != '\0')
        fail_msg("plan: status %d, %zu sites listed at the template (want %d)\nstdout:\n%s\n"
                 "stderr:\n%s", r.status, listed, SITES, r.out, r.err);
    tt_free(&r);
    free(db);
    free(cache);
    free(gen);
    free(all);
    free(tmpl);
    tt_rmtree(dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_site_at_template),
        cmocka_unit_test(test_line_moved_by_generation),
        cmocka_unit_test(test_no_template),
        cmocka_unit_test(test_stem_template_elsewhere),
        cmocka_unit_test(test_in_source_build),
        cmocka_unit_test(test_fetchcontent_source),
        cmocka_unit_test(test_stale_cache_above),
        cmocka_unit_test(test_one_walk_per_tree),
        cmocka_unit_test(test_several_templates),
        cmocka_unit_test(test_many_unfixable_sites),
        cmocka_unit_test(test_copy_of_source_header),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
