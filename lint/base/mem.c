/* lint/base/mem.c -- allocation that never returns NULL (see mem.h). */
#include "mem.h"
#include "progname.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void el_oom(void)
{
    static const char msg[] = ": out of memory\n";
    ssize_t r = write(2, el_progname, strlen(el_progname));
    r = write(2, msg, sizeof msg - 1);
    (void)r;
    _exit(2);
}

void *el_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        el_oom();
    return p;
}

void *el_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        el_oom();
    return p;
}

void *el_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        el_oom();
    return q;
}

char *el_xstrdup(const char *s)
{
    return el_xstrndup(s, strlen(s));
}

char *el_xstrndup(const char *s, size_t n)
{
    char *p = el_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *el_xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        el_oom();
    char *s = el_xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

void el_grow(void *v, size_t *cap, size_t need, size_t size)
{
    void **pv = v;
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 8;
    while (c < need) {
        if (c > ((size_t)-1) / 2 / size)
            el_oom();
        c *= 2;
    }
    *pv = el_xrealloc(*pv, c * size);
    *cap = c;
}
