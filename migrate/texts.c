/* migrate/texts.c -- file contents read once and checked against the
 * scan (texts.h). */
#include "texts.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mem.h"
#include "path.h"
#include "strbuf.h"

const em_text *em_texts_get(em_texts *ts, const char *path, const el_hash128 *expected,
                            char **err)
{
    em_text *t = NULL;
    for (size_t i = 0; i < ts->n && !t; i++)
        if (!strcmp(ts->v[i].path, path))
            t = &ts->v[i];
    if (!t) {
        FILE *f = fopen(path, "rb");
        struct stat st;
        if (!f || fstat(fileno(f), &st)) {
            int e = errno;
            if (f)
                fclose(f);
            char *d = el_path_display(path);
            *err = el_xasprintf("%s: cannot read: %s", d, strerror(e));
            free(d);
            return NULL;
        }
        el_buf b = {0};
        bool bad = !el_buf_read(&b, f);
        fclose(f);
        if (bad) {
            el_buf_free(&b);
            char *d = el_path_display(path);
            *err = el_xasprintf("%s: cannot read", d);
            free(d);
            return NULL;
        }
        el_grow(&ts->v, &ts->cap, ts->n + 1, sizeof *ts->v);
        t = &ts->v[ts->n++];
        t->path = el_xstrdup(path);
        t->len = b.n;
        t->data = b.s ? el_buf_take(&b) : el_xstrdup("");
        t->mode = st.st_mode & 07777;
        t->hash = el_hash_bytes(t->data, t->len);
        size_t cap = 0;
        t->lines = NULL;
        t->n_lines = 0;
        el_grow(&t->lines, &cap, 1, sizeof *t->lines);
        t->lines[t->n_lines++] = 0;
        for (size_t i = 0; i < t->len; i++) {
            if (t->data[i] == '\n') {
                el_grow(&t->lines, &cap, t->n_lines + 1, sizeof *t->lines);
                t->lines[t->n_lines++] = i + 1;
            }
        }
    }
    if (expected && !el_hash_eq(t->hash, *expected)) {
        char *d = el_path_display(path);
        *err = el_xasprintf("%s: changed since it was read; nothing was changed, run again", d);
        free(d);
        return NULL;
    }
    return t;
}

size_t em_text_offset(const em_text *t, unsigned line, unsigned col)
{
    size_t off = line == 0 ? 0 : line <= t->n_lines ? t->lines[line - 1] : t->len;
    off += col ? col - 1 : 0;
    return off > t->len ? t->len : off;
}

unsigned em_text_line(const em_text *t, size_t off)
{
    if (off > t->len)
        off = t->len;
    size_t lo = 0, hi = t->n_lines; /* the last line starting at or before off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return (unsigned)lo + 1;
}

void em_texts_free(em_texts *ts)
{
    for (size_t i = 0; i < ts->n; i++) {
        free(ts->v[i].path);
        free(ts->v[i].data);
        free(ts->v[i].lines);
    }
    free(ts->v);
    memset(ts, 0, sizeof *ts);
}
