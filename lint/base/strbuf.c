/* lint/base/strbuf.c -- growable strings. */
#include "strbuf.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

void el_buf_putn(el_buf *b, const char *s, size_t n)
{
    el_grow(&b->s, &b->cap, b->n + n + 1, 1);
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

void el_buf_puts(el_buf *b, const char *s)
{
    el_buf_putn(b, s, strlen(s));
}

void el_buf_putc(el_buf *b, char c)
{
    el_buf_putn(b, &c, 1);
}

void el_buf_printf(el_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    el_grow(&b->s, &b->cap, b->n + (size_t)n + 1, 1);
    va_start(ap, fmt);
    vsnprintf(b->s + b->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->n += (size_t)n;
}

const char *el_buf_str(el_buf *b)
{
    return b->s ? b->s : "";
}

char *el_buf_take(el_buf *b)
{
    char *s = b->s ? b->s : el_xstrdup("");
    b->s = NULL;
    b->n = b->cap = 0;
    return s;
}

void el_buf_free(el_buf *b)
{
    free(b->s);
    b->s = NULL;
    b->n = b->cap = 0;
}

bool el_buf_read(el_buf *b, FILE *f)
{
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
        el_buf_putn(b, chunk, got);
    return !ferror(f);
}

bool el_buf_read_path(el_buf *b, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    bool ok = el_buf_read(b, f);
    fclose(f);
    if (!ok)
        errno = EIO;
    return ok;
}
