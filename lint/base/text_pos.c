/* lint/base/text_pos.c -- line and column of a byte offset (text_pos.h). */
#include "text_pos.h"

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
