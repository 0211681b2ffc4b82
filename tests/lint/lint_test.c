/* tests/lint/lint_test.c -- helpers for emberlint's tests (lint_test.h). */
#include "lint_test.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
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

lt_run lt_emberlintv(const char *cwd, const char *const *argv, const char *const *env)
{
    int out[2], err[2];
    assert_int_equal(pipe(out), 0);
    assert_int_equal(pipe(err), 0);
    size_t argc = 0;
    while (argv[argc])
        argc++;
    const char **full = calloc(argc + 2, sizeof *full);
    assert_non_null(full);
    full[0] = EMBERLINT;
    for (size_t i = 0; i < argc; i++)
        full[i + 1] = argv[i];
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(err[1], 2);
        close(out[0]);
        close(out[1]);
        close(err[0]);
        close(err[1]);
        if (chdir(cwd ? cwd : LINT_SRCDIR) != 0)
            _exit(126);
        for (const char *const *e = env; e && *e; e++)
            putenv((char *)*e);
        execv(EMBERLINT, (char *const *)full);
        _exit(127);
    }
    free(full);
    close(out[1]);
    close(err[1]);
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
    lt_run r = {0, ob.s, eb.s};
    if (WIFSIGNALED(st)) {
        r.status = 128 + WTERMSIG(st);
        print_error("emberlint was killed by signal %d\nstderr:\n%s\n", WTERMSIG(st), r.err);
        fail();
    } else {
        r.status = WEXITSTATUS(st);
    }
    if (r.status == 126 || r.status == 127) {
        print_error("could not run %s (status %d)\n", EMBERLINT, r.status);
        fail();
    }
    return r;
}

lt_run lt_emberlint(const char *cwd, const char *arg, ...)
{
    const char *argv[128];
    size_t n = 0;
    va_list ap;
    va_start(ap, arg);
    for (const char *a = arg; a && n < 127; a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    return lt_emberlintv(cwd, argv, NULL);
}

lt_run lt_lint(const char *cwd, const char *arg, ...)
{
    const char *argv[128] = {"--select", LT_RULES};
    size_t n = 2;
    va_list ap;
    va_start(ap, arg);
    for (const char *a = arg; a && n < 127; a = va_arg(ap, const char *))
        argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    return lt_emberlintv(cwd, argv, NULL);
}

void lt_free(lt_run *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

char *lt_fmt(const char *fmt, ...)
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

char *lt_tmpdir(void)
{
    const char *base = getenv("TMPDIR");
    char *tmpl = lt_fmt("%s/emberlint-test-XXXXXX", base && base[0] ? base : "/tmp");
    assert_non_null(mkdtemp(tmpl));
    /* realpath: /tmp may be a symlink, and emberlint shows real paths */
    char *real = realpath(tmpl, NULL);
    assert_non_null(real);
    free(tmpl);
    return real;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP || flag == FTW_D)
        rmdir(path);
    else
        unlink(path);
    return 0;
}

void lt_rmtree(const char *dir)
{
    /* restore permissions a test may have removed */
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

char *lt_path(const char *dir, const char *rel)
{
    return lt_fmt("%s/%s", dir, rel);
}

char *lt_write(const char *dir, const char *rel, const char *content)
{
    char *p = lt_path(dir, rel);
    for (char *s = p + strlen(dir) + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0777);
            *s = '/';
        }
    }
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fputs(content, f);
    assert_int_equal(fclose(f), 0);
    return p;
}

json_object *lt_json(const char *text)
{
    json_object *o = json_tokener_parse(text);
    if (!o) {
        print_error("not valid JSON:\n%s\n", text);
        fail();
    }
    return o;
}

json_object *lt_get(json_object *obj, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(obj, key, &v)) {
        print_error("no key \"%s\" in %s\n", key, json_object_to_json_string(obj));
        fail();
    }
    return v;
}

size_t lt_count_rule(json_object *report, const char *rule)
{
    json_object *f = lt_get(report, "findings");
    size_t n = 0;
    for (size_t i = 0; i < json_object_array_length(f); i++) {
        json_object *x = json_object_array_get_idx(f, i);
        if (!rule || strcmp(json_object_get_string(lt_get(x, "rule")), rule) == 0)
            n++;
    }
    return n;
}

bool lt_contains(const char *text, const char *needle)
{
    return text && strstr(text, needle) != NULL;
}
