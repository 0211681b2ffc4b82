/* lint/base/path.c -- path arithmetic. */
#include "path.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem.h"
#include "strbuf.h"

static char *cwd_path;

void el_path_init(void)
{
    if (cwd_path)
        return;
    char *buf = NULL;
    for (size_t n = 256;; n *= 2) {
        buf = el_xrealloc(buf, n);
        if (getcwd(buf, n)) {
            break;
        }
        if (errno != ERANGE) {
            strcpy(buf, "/");
            break;
        }
    }
    cwd_path = buf;
}

const char *el_cwd(void)
{
    return cwd_path ? cwd_path : "/";
}

static char *normalize(const char *p)
{
    /* p is absolute.  Collect components, resolving "." and "..". */
    size_t n = strlen(p);
    char **comp = el_xmalloc((n / 2 + 2) * sizeof *comp);
    size_t nc = 0;
    char *copy = el_xstrdup(p);
    char *save = NULL;
    for (char *t = strtok_r(copy, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
        if (strcmp(t, ".") == 0)
            continue;
        if (strcmp(t, "..") == 0) {
            if (nc)
                nc--;
            continue;
        }
        comp[nc++] = t;
    }
    el_buf b = {0};
    if (!nc)
        el_buf_putc(&b, '/');
    for (size_t i = 0; i < nc; i++) {
        el_buf_putc(&b, '/');
        el_buf_puts(&b, comp[i]);
    }
    free(comp);
    free(copy);
    return el_buf_take(&b);
}

char *el_path_abs(const char *path)
{
    if (path[0] == '/')
        return normalize(path);
    char *j = el_path_join(el_cwd(), path);
    char *r = normalize(j);
    free(j);
    return r;
}

char *el_path_real(const char *path)
{
    char *r = realpath(path, NULL);
    if (!r && errno == ENOMEM)
        el_oom();
    return r;
}

char *el_path_join(const char *a, const char *b)
{
    size_t la = strlen(a);
    if (la && a[la - 1] == '/')
        return el_xasprintf("%s%s", a, b);
    return el_xasprintf("%s/%s", a, b);
}

char *el_path_dirname(const char *path)
{
    const char *s = strrchr(path, '/');
    if (!s)
        return el_xstrdup(".");
    if (s == path)
        return el_xstrdup("/");
    return el_xstrndup(path, (size_t)(s - path));
}

const char *el_path_base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

bool el_path_has_ext(const char *path, const char *ext)
{
    size_t lp = strlen(path), le = strlen(ext);
    return lp > le && strcmp(path + lp - le, ext) == 0;
}

char *el_path_under(const char *abs, const char *base)
{
    size_t lb = strlen(base);
    if (lb == 1 && base[0] == '/')
        return el_xstrdup(abs[1] ? abs + 1 : ".");
    if (strncmp(abs, base, lb) != 0)
        return NULL;
    if (abs[lb] == '\0')
        return el_xstrdup(".");
    if (abs[lb] != '/')
        return NULL;
    return el_xstrdup(abs + lb + 1);
}

char *el_path_display(const char *abs)
{
    const char *cwd = el_cwd();
    char *rel = el_path_under(abs, cwd);
    if (rel)
        return rel;
    /* Up to two levels of "../" read better than an absolute path. */
    char *up = el_path_dirname(cwd);
    for (int level = 1; level <= 2 && strcmp(up, "/") != 0; level++) {
        char *r = el_path_under(abs, up);
        if (r) {
            /* the directory itself is "..", not "../." */
            char *s = strcmp(r, ".") == 0 ? el_xstrdup(level == 1 ? ".." : "../..")
                                           : el_xasprintf("%s%s", level == 1 ? "../" : "../../", r);
            free(r);
            free(up);
            return s;
        }
        char *next = el_path_dirname(up);
        free(up);
        up = next;
    }
    free(up);
    return el_xstrdup(abs);
}

char *el_path_upward(const char *dir, const char *rel)
{
    char *d = el_xstrdup(dir);
    for (;;) {
        char *probe = el_path_join(d, rel);
        bool found = access(probe, F_OK) == 0;
        free(probe);
        if (found)
            return d;
        if (strcmp(d, "/") == 0)
            break;
        char *up = el_path_dirname(d);
        free(d);
        d = up;
    }
    free(d);
    return NULL;
}

char *el_path_repo_root(void)
{
    char *root = el_path_upward(el_cwd(), ".git");
    return root ? root : el_xstrdup(el_cwd());
}
