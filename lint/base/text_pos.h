/* lint/base/text_pos.h -- where a byte offset of a text is, as line and
 * column (both from 1; a tab is one column, as clang counts). */
#ifndef EL_TEXT_POS_H
#define EL_TEXT_POS_H

#include <stddef.h>

/* The line and column of byte off of t[0..n) (an off past n counts as n). */
void el_text_line_col(const char *t, size_t n, size_t off, unsigned *line, unsigned *col);

#endif
