/* tests/lint/tool_test.c -- helpers shared by the tools' tests
 * (tool_test.h). */
#include "tool_test.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct sbuf {
    char *s;
    size_t n, cap;
} sbuf;

static void sbuf_add(sbuf *b, const char *p, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    memcpy(b->s + b->n, p, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void sbuf_str(sbuf *b, const char *s)
{
    sbuf_add(b, s, strlen(s));
}

/* ---- running programs ---- */

tt_run tt_exec(const char *cwd, const char *const *argv, const char *const *env)
{
    int out[2], err[2];
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(err), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(out[0]);
        close(out[1]);
        close(err[0]);
        close(err[1]);
        if (cwd && chdir(cwd) != 0)
            _exit(126);
        for (const char *const *e = env; e && *e; e++)
            putenv((char *)*e);
        execvp(argv[0], (char *const *)argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    /* both pipes at once: a child filling one while we wait on the other
     * would block forever */
    sbuf ob = {0}, eb = {0};
    sbuf_add(&ob, "", 0);
    sbuf_add(&eb, "", 0);
    struct pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    int open_fds = 2;
    while (open_fds > 0) {
        if (poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int k = 0; k < 2; k++) {
            if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR)))
                continue;
            char buf[65536];
            ssize_t got = read(fds[k].fd, buf, sizeof buf);
            if (got > 0) {
                sbuf_add(k == 0 ? &ob : &eb, buf, (size_t)got);
            } else {
                close(fds[k].fd);
                fds[k].fd = -1;
                open_fds--;
            }
        }
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    tt_run r = {0, ob.s, eb.s};
    if (WIFSIGNALED(st)) {
        r.status = 128 + WTERMSIG(st);
        print_error("%s was killed by signal %d\nstderr:\n%s\n", argv[0], WTERMSIG(st), r.err);
        fail();
    }
    r.status = WEXITSTATUS(st);
    if (r.status == 126 || r.status == 127) {
        print_error("could not run %s (status %d)\n%s", argv[0], r.status, r.err);
        fail();
    }
    return r;
}

void tt_free(tt_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

size_t tt_vargs(const char **argv, size_t n, size_t max, const char *first, va_list ap)
{
    for (const char *a = first; a; a = va_arg(ap, const char *)) {
        assert_true(n + 1 < max);
        argv[n++] = a;
    }
    argv[n] = NULL;
    return n;
}

/* ---- strings ---- */

char *tt_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    assert_true(n >= 0);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

char *tt_path(const char *dir, const char *rel)
{
    return tt_fmt("%s/%s", dir, rel);
}

bool tt_contains(const char *text, const char *needle)
{
    return text && strstr(text, needle) != NULL;
}

/* ---- scratch trees ---- */

/* Is there a .emberlint.json in dir (absolute, real) or a directory above?
 * Configurations cascade upward, so one there (a user's
 * /tmp/.emberlint.json) would reach every scratch tree below. */
static bool tt_config_above(const char *dir)
{
    char *d = tt_fmt("%s", dir);
    bool found = false;
    for (;;) {
        char *cand = tt_fmt("%s/.emberlint.json", strcmp(d, "/") ? d : "");
        struct stat st;
        found = stat(cand, &st) == 0 && !S_ISDIR(st.st_mode);
        free(cand);
        char *slash = strrchr(d, '/');
        if (found || !slash || !strcmp(d, "/"))
            break;
        if (slash == d)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
    free(d);
    return found;
}

/* Where scratch trees go: TMPDIR (else /tmp), unless a configuration sits
 * in it or above, then the first of /tmp, /var/tmp, /dev/shm with none
 * (the tests expect the built-in above their trees, and no project root
 * other than their own). */
static char *tt_scratch_base(void)
{
    const char *env = getenv("TMPDIR");
    const char *cands[] = {env && *env ? env : "/tmp", "/tmp", "/var/tmp", "/dev/shm"};
    for (size_t i = 0; i < sizeof cands / sizeof *cands; i++) {
        char *real = realpath(cands[i], NULL);
        if (real && !tt_config_above(real))
            return real;
        free(real);
    }
    print_error("tt_tmpdir: every temporary directory (TMPDIR, /tmp, /var/tmp, /dev/shm) "
                "has a .emberlint.json in it or above, which would reach the tests' trees\n");
    fail();
    return NULL;
}

char *tt_tmpdir(void)
{
    char *base = tt_scratch_base();
    char *tmpl = tt_fmt("%s/ember-tool-test-XXXXXX", base);
    free(base);
    assert_non_null(mkdtemp(tmpl));
    /* realpath: /tmp may be a symlink */
    char *real = realpath(tmpl, NULL);
    assert_non_null(real);
    free(tmpl);
    return real;
}

char *tt_dir;

int tt_scratch_setup(void **state)
{
    (void)state;
    tt_dir = tt_tmpdir();
    return 0;
}

int tt_scratch_teardown(void **state)
{
    (void)state;
    tt_rmtree(tt_dir);
    free(tt_dir);
    tt_dir = NULL;
    return 0;
}

void tt_w(const char *rel, const char *content)
{
    free(tt_write(tt_dir, rel, content));
}

void tt_rmtree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (!S_ISDIR(st.st_mode)) {
        unlink(path);
        return;
    }
    /* a test may have made it read-only (or unreadable) */
    chmod(path, 0700);
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *child = tt_path(path, e->d_name);
            tt_rmtree(child);
            free(child);
        }
        closedir(d);
    }
    rmdir(path);
}

char *tt_write_n(const char *dir, const char *rel, const char *content, size_t len)
{
    char *path = tt_path(dir, rel);
    for (char *p = path + strlen(dir) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0755);
            *p = '/';
        }
    FILE *f = fopen(path, "wb");
    if (!f)
        fail_msg("cannot write %s: %s", path, strerror(errno));
    assert_int_equal(fwrite(content, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    return path;
}

char *tt_write(const char *dir, const char *rel, const char *content)
{
    return tt_write_n(dir, rel, content, strlen(content));
}

char *tt_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno != ENOENT)
            fail_msg("cannot read %s: %s", path, strerror(errno));
        return NULL;
    }
    sbuf b = {0};
    sbuf_add(&b, "", 0);
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        sbuf_add(&b, buf, got);
    assert_false(ferror(f));
    fclose(f);
    if (len)
        *len = b.n;
    return b.s;
}

void tt_assert_file(const char *dir, const char *rel, const char *want)
{
    char *path = tt_path(dir, rel);
    char *got = tt_read(path, NULL);
    if (!got)
        fail_msg("%s does not exist", path);
    assert_string_equal(got, want);
    free(got);
    free(path);
}

bool tt_file_contains(const char *dir, const char *rel, const char *needle)
{
    char *path = tt_path(dir, rel);
    char *got = tt_read(path, NULL);
    if (!got)
        fail_msg("%s does not exist", path);
    bool r = strstr(got, needle) != NULL;
    free(got);
    free(path);
    return r;
}

bool tt_write_refused(const char *dir)
{
    char *probe = tt_path(dir, ".tt-probe");
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
        close(fd);
        unlink(probe);
    }
    free(probe);
    return fd < 0;
}

char *tt_replace_all(const char *s, const char *a, const char *b)
{
    size_t al = strlen(a), bl = strlen(b), n = 0;
    for (const char *p = strstr(s, a); p; p = strstr(p + al, a))
        n++;
    char *o = malloc(strlen(s) + n * bl + 1), *w = o;
    assert_non_null(o);
    for (const char *p = s;;) {
        const char *q = strstr(p, a);
        if (!q) {
            strcpy(w, p);
            break;
        }
        memcpy(w, p, (size_t)(q - p));
        w += q - p;
        memcpy(w, b, bl);
        w += bl;
        p = q + al;
    }
    return o;
}

void tt_copytree(const char *src, const char *dst)
{
    char *from = tt_fmt("%s/.", src);
    const char *argv[] = {"cp", "-R", from, dst, NULL};
    tt_run r = tt_exec(NULL, argv, NULL);
    if (r.status != 0)
        print_error("cp -R %s %s: %s\n", from, dst, r.err);
    assert_int_equal(r.status, 0);
    tt_free(&r);
    free(from);
}

/* ---- snapshots ---- */

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void snap(sbuf *b, const char *root, const char *rel, bool modes)
{
    char *dir = rel[0] ? tt_path(root, rel) : tt_fmt("%s", root);
    DIR *d = opendir(dir);
    if (!d) {
        sbuf_str(b, "?unreadable ");
        sbuf_str(b, rel);
        sbuf_str(b, "\n");
        free(dir);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            names = realloc(names, cap * sizeof *names);
            assert_non_null(names);
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (n) /* an empty directory: no array to sort */
        qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char *r = rel[0] ? tt_path(rel, names[i]) : tt_fmt("%s", names[i]);
        char *full = tt_path(root, r);
        struct stat st;
        assert_int_equal(lstat(full, &st), 0);
        char mode[16] = "";
        if (modes)
            snprintf(mode, sizeof mode, " %04o", (unsigned)(st.st_mode & 07777));
        if (S_ISDIR(st.st_mode)) {
            char *line = tt_fmt("dir  %s%s\n", r, mode);
            sbuf_str(b, line);
            free(line);
            snap(b, root, r, modes);
        } else if (S_ISREG(st.st_mode)) {
            size_t len = 0;
            char *content = tt_read(full, &len);
            assert_non_null(content);
            char *line = tt_fmt("file %s%s (%zu bytes)\n", r, mode, len);
            sbuf_str(b, line);
            sbuf_add(b, content, len);
            sbuf_str(b, "\n<<end of file>>\n");
            free(line);
            free(content);
        } else {
            char target[4096];
            ssize_t tl = readlink(full, target, sizeof target - 1);
            target[tl > 0 ? tl : 0] = '\0';
            char *line = tt_fmt("link %s -> %s\n", r, target);
            sbuf_str(b, line);
            free(line);
        }
        free(full);
        free(r);
        free(names[i]);
    }
    free(names);
    free(dir);
}

char *tt_snapshot(const char *dir, bool modes)
{
    sbuf b = {0};
    sbuf_add(&b, "", 0);
    snap(&b, dir, "", modes);
    return b.s;
}

void tt_assert_same(const char *expected, const char *actual, const char *what)
{
    if (!strcmp(expected, actual))
        return;
    size_t i = 0;
    while (expected[i] && expected[i] == actual[i])
        i++;
    size_t from = i;
    while (from > 0 && expected[from - 1] != '\n')
        from--;
    print_error("%s: trees differ\n--- expected, from the first difference:\n%.600s\n"
                "--- actual:\n%.600s\n",
                what, expected + from, actual + from);
    fail();
}

/* ---- diffs ---- */

void tt_git_apply(const char *dir, const char *patch, bool apply)
{
    /* the patch file outside the tree, so it is no part of it */
    char *pdir = tt_tmpdir();
    char *pfile = tt_write(pdir, "patch", patch);
    char *ceiling = tt_fmt("GIT_CEILING_DIRECTORIES=%s/..", dir);
    const char *env[] = {ceiling, NULL};
    const char *check[] = {"git", "apply", "--whitespace=nowarn", "--check", pfile, NULL};
    const char *doit[] = {"git", "apply", "--whitespace=nowarn", pfile, NULL};
    for (int pass = 0; pass < (apply ? 2 : 1); pass++) {
        tt_run r = tt_exec(dir, pass ? doit : check, env);
        if (r.status != 0)
            fail_msg("git apply%s refuses the diff in %s: %s\n%s", pass ? "" : " --check", dir, r.err,
                     patch);
        tt_free(&r);
    }
    free(ceiling);
    free(pfile);
    tt_rmtree(pdir);
    free(pdir);
}

/* ---- JSON ---- */

json_object *tt_json(const char *text)
{
    json_object *o = json_tokener_parse(text);
    if (!o) {
        print_error("not valid JSON:\n%s\n", text);
        fail();
    }
    return o;
}

json_object *tt_get(json_object *obj, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(obj, key, &v)) {
        print_error("no key \"%s\" in %s\n", key, json_object_to_json_string(obj));
        fail();
    }
    return v;
}

void tt_assert_json_equal(json_object *got, json_object *want)
{
    if (!json_object_equal(got, want))
        fail_msg("JSON differs\n got: %s\nwant: %s",
                 json_object_to_json_string_ext(got, JSON_C_TO_STRING_PLAIN),
                 json_object_to_json_string_ext(want, JSON_C_TO_STRING_PLAIN));
}
