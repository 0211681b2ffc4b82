/* tests/lint/test_cache_property.c -- the cache never changes an answer.
 *
 * Random edit sequences on a small tree (edit, add, remove and rename
 * sources and headers, headers that come to shadow others on the include
 * path, missing headers that appear, files that stop parsing, the
 * configuration), some of them made while a cached run is under way:
 * after each step, a run with the cache reports exactly what a run with
 * --no-cache reports.  The sequences are reproducible (fixed seeds); a
 * failure prints the step. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lint_test.h"

#define STEPS 36

extern char **environ;

static char *dir;

static unsigned rnd(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

static const char *const files[] = {
    "src/a.c", "src/b.c", "src/c.c", "src/h1.h", "src/h2.h", "inc/h2.h", "inc/h3.h", "inc2/h3.h",
    "inc2/h4.h", "src/sub/d.c",
};
#define N_FILES (sizeof files / sizeof files[0])

static const char *const includes[] = {
    "#include \"h2.h\"\n", "#include \"h2.h\"\n", "#include <h3.h>\n", "#include <h3.h>\n",
    "#include \"h1.h\"\n", "#include <h4.h>\n", "#include <cblas.h>\n",
};

/* Sources include headers that exist in several places on the include
 * path (h2.h next to them and in inc/, h3.h in inc/ and inc2/) and use a
 * macro only some headers define, so which header is found shows in the
 * findings (EH000 when MAYBE is undefined). */
static char *content(unsigned *s, bool header)
{
    char buf[1024] = "";
    int n = 1 + (int)(rnd(s) % 2);
    for (int i = 0; i < n; i++)
        strcat(buf, includes[rnd(s) % (sizeof includes / sizeof includes[0])]);
    unsigned v = rnd(s) % 100;
    char line[256];
    switch (rnd(s) % 8) {
    case 0: /* does not parse */
        snprintf(line, sizeof line, "int broken_%u(void) { return %u +; }\n", v, v);
        break;
    case 1: /* a backend call */
        snprintf(line, sizeof line,
                 "void cblas_sscal(int, float, float *, int);\n"
                 "static void use_%u(float *x) { cblas_sscal(1, 2.0f, x, 1); }\n", v);
        break;
    case 2:
    case 3:
    case 4: /* a macro some headers define */
        snprintf(line, sizeof line, "%s\n",
                 header ? "#define MAYBE 1" : "int maybe(void) { return MAYBE; }");
        break;
    default:
        snprintf(line, sizeof line, header ? "#define H_%u %u\n" : "int f_%u(void) { return %u; }\n",
                 v, v);
        break;
    }
    strcat(buf, line);
    return strdup(buf);
}

static bool exists(const char *rel)
{
    char *p = tt_path(dir, rel);
    struct stat st;
    bool e = stat(p, &st) == 0;
    free(p);
    return e;
}

/* One random change to the tree; what it did, for messages. */
static void mutate(unsigned *s, char *what, size_t n)
{
    const char *f = files[rnd(s) % N_FILES];
    bool header = f[strlen(f) - 1] == 'h';
    switch (rnd(s) % 7) {
    case 0:
    case 1:
    case 2: { /* write (add or edit) */
        char *c = content(s, header);
        free(tt_write(dir, f, c));
        free(c);
        snprintf(what, n, "write %s", f);
        break;
    }
    case 3: { /* remove */
        char *p = tt_path(dir, f);
        unlink(p);
        free(p);
        snprintf(what, n, "remove %s", f);
        break;
    }
    case 4: { /* rename onto another name of the same kind */
        const char *g = files[rnd(s) % N_FILES];
        bool gh = g[strlen(g) - 1] == 'h';
        if (gh != header || !exists(f) || strcmp(f, g) == 0) {
            snprintf(what, n, "nothing");
            break;
        }
        char *pf = tt_path(dir, f), *pg = tt_path(dir, g);
        char *pd = strdup(pg);
        *strrchr(pd, '/') = '\0';
        mkdir(pd, 0755);
        rename(pf, pg);
        snprintf(what, n, "rename %s %s", f, g);
        free(pd);
        free(pf);
        free(pg);
        break;
    }
    case 5: { /* the configuration */
        static const char *const cfgs[] = {
            "{}\n", "{\"rules\": {\"EH101\": \"note\"}}\n", "{\"exclude\": [\"sub/\"]}\n",
            "{\"rules\": {\"EH102\": \"off\"}}\n", "{\"backend_dirs\": [\"inc2/\"]}\n",
        };
        free(tt_write(dir, ".emberlint.json", cfgs[rnd(s) % (sizeof cfgs / sizeof cfgs[0])]));
        snprintf(what, n, "configuration");
        break;
    }
    default: { /* touch: same content, new time */
        char *p = tt_path(dir, f);
        utimensat(AT_FDCWD, p, NULL, 0);
        free(p);
        snprintf(what, n, "touch %s", f);
        break;
    }
    }
}

static const char *const common[] = {"--select", "EH0,EH101,EH102", "--format", "json", "src",
                                     "--", "-Iinc", "-Iinc2"};

static tt_run lint(bool cached)
{
    const char *argv[16];
    size_t n = 0;
    argv[n++] = cached ? "--cache-dir" : "--no-cache";
    if (cached)
        argv[n++] = "cache";
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
        argv[n++] = common[i];
    argv[n] = NULL;
    return lt_emberlintv(dir, argv, NULL);
}

/* A cached run in the background (its answer is not checked: the tree
 * changes under it); the pid. */
static pid_t lint_in_background(void)
{
    const char *argv[16] = {EMBERLINT, "--cache-dir", "cache"};
    size_t n = 3;
    for (size_t i = 0; i < sizeof common / sizeof common[0]; i++)
        argv[n++] = common[i];
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    char *cwd = getcwd(NULL, 0);
    assert_int_equal(chdir(dir), 0);
    pid_t pid;
    int rc = posix_spawn(&pid, EMBERLINT, &fa, NULL, (char *const *)argv, environ);
    assert_int_equal(chdir(cwd), 0);
    free(cwd);
    posix_spawn_file_actions_destroy(&fa);
    assert_int_equal(rc, 0);
    return pid;
}

static void run_sequence(unsigned seed)
{
    dir = tt_tmpdir();
    unsigned s = seed;
    for (size_t i = 0; i < N_FILES; i++) { /* about half of them: room to appear */
        char *c = content(&s, files[i][strlen(files[i]) - 1] == 'h');
        if (i == 0 || rnd(&s) % 2)
            free(tt_write(dir, files[i], c));
        free(c);
    }
    for (int step = 0; step < STEPS; step++) {
        char what[256];
        if (rnd(&s) % 4 == 0) {
            /* during a run: change the tree a few ms into it */
            pid_t pid = lint_in_background();
            struct timespec ts = {0, (long)(rnd(&s) % 60) * 1000000L};
            nanosleep(&ts, NULL);
            mutate(&s, what, sizeof what);
            int status;
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            assert_true(WIFEXITED(status) && WEXITSTATUS(status) <= 2);
        } else {
            mutate(&s, what, sizeof what);
        }
        tt_run c = lint(true), u = lint(false);
        if (strcmp(c.out, u.out) != 0 || c.status != u.status) {
            print_error("seed %u, step %d (%s): the cached run (status %d) says\n%s\n"
                        "--no-cache (status %d) says\n%s\n",
                        seed, step, what, c.status, c.out, u.status, u.out);
            fail();
        }
        tt_free(&c);
        tt_free(&u);
    }
    tt_rmtree(dir);
    free(dir);
}

/* Seeds: CACHE_PROPERTY_SEEDS="1 2 3" runs others (longer searches). */
static void test_random_edits(void **state)
{
    (void)state;
    const char *env = getenv("CACHE_PROPERTY_SEEDS");
    if (!env || !*env) {
        run_sequence(1);
        run_sequence(2024);
        return;
    }
    for (const char *p = env; *p;) {
        char *end;
        unsigned long seed = strtoul(p, &end, 10);
        if (end == p)
            break;
        run_sequence((unsigned)seed);
        p = end;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_edits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
