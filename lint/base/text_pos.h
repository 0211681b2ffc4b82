/* lint/base/text_pos.h -- where a byte offset of a text is, as line and
 * column (both from 1; a tab is one column, as clang counts). */
#ifndef EL_TEXT_POS_H
#define EL_TEXT_POS_H

#include <stddef.h>

/* The line and column of byte off of t[0..n) (an off past n counts as n). */
void el_text_line_col(const char *t, size_t n, size_t off, unsigned *line, unsigned *col);

/* The same for many offsets of one text: its line starts, found once
 * (a configuration file asks for the place of every entry it has). */
typedef struct el_line_index {
    size_t *start; /* start[k]: the offset of line k + 1 */
    size_t n;      /* lines */
    size_t len;    /* of the text */
} el_line_index;

void el_line_index_init(el_line_index *ix, const char *t, size_t n);
void el_line_index_line_col(const el_line_index *ix, size_t off, unsigned *line, unsigned *col);
void el_line_index_free(el_line_index *ix);

#endif
