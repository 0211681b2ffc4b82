/* lint/base/text_pos.c -- line and column of a byte offset (text_pos.h). */
#include "text_pos.h"

#include <stdlib.h>

#include "mem.h"

void el_text_line_col(const char *t, size_t n, size_t off, unsigned *line, unsigned *col)
{
    if (off > n)
        off = n;
    unsigned l = 1;
    size_t ls = 0;
    for (size_t i = 0; i < off; i++)
        if (t[i] == '\n') {
            l++;
            ls = i + 1;
        }
    *line = l;
    *col = (unsigned)(off - ls + 1);
}

void el_line_index_init(el_line_index *ix, const char *t, size_t n)
{
    size_t lines = 1;
    for (size_t i = 0; i < n; i++)
        lines += t[i] == '\n';
    ix->start = el_xcalloc(lines, sizeof *ix->start);
    ix->n = 0;
    ix->len = n;
    ix->start[ix->n++] = 0;
    for (size_t i = 0; i < n; i++)
        if (t[i] == '\n')
            ix->start[ix->n++] = i + 1;
}

void el_line_index_line_col(const el_line_index *ix, size_t off, unsigned *line, unsigned *col)
{
    if (off > ix->len)
        off = ix->len;
    /* the last line starting at or before off */
    size_t lo = 0, hi = ix->n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->start[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    *line = (unsigned)(lo + 1);
    *col = (unsigned)(off - ix->start[lo] + 1);
}

void el_line_index_free(el_line_index *ix)
{
    free(ix->start);
    ix->start = NULL;
    ix->n = ix->len = 0;
}
