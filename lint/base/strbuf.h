/* lint/base/strbuf.h -- a growable string. */
#ifndef EL_STRBUF_H
#define EL_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct el_buf {
    char *s;     /* always NUL-terminated once anything was added */
    size_t n;    /* length */
    size_t cap;
} el_buf;

void el_buf_putn(el_buf *b, const char *s, size_t n);
void el_buf_puts(el_buf *b, const char *s);
void el_buf_putc(el_buf *b, char c);
void el_buf_printf(el_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string (an empty string when nothing was added). */
const char *el_buf_str(el_buf *b);
/* Give the string to the caller (free it) and reset b. */
char *el_buf_take(el_buf *b);
void el_buf_free(el_buf *b);
/* Append the rest of stream f; false on a read error (b keeps what was
 * read). */
bool el_buf_read(el_buf *b, FILE *f);
/* Append the whole file at path; false, with errno, when it cannot be
 * opened or read (b keeps what was read). */
bool el_buf_read_path(el_buf *b, const char *path);

#endif
