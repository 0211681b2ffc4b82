/* lint/report/srctext.h -- the text of the files findings point into, read
 * once per report: lines for fingerprints, and the conversion of byte
 * offsets and byte columns (what clang and fixes count) into the UTF-16
 * columns SARIF counts by default. */
#ifndef EL_REPORT_SRCTEXT_H
#define EL_REPORT_SRCTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "strmap.h"

typedef struct el_text {
    char *data;          /* the content, NUL-terminated (NULL: unreadable) */
    size_t len;
    size_t *line_off;    /* start of line k+1 (1-based lines) */
    size_t n_lines;
    bool ascii;          /* no byte above 0x7F: UTF-16 columns are byte columns */
} el_text;

typedef struct el_texts {
    el_strmap by_path;
} el_texts;

/* The text of an absolute path, read on first use (never NULL: an
 * unreadable file is an el_text with data NULL and no lines). */
const el_text *el_texts_get(el_texts *t, const char *path);
void el_texts_free(el_texts *t);

/* Line `line` (1-based) without its newline: a pointer into data and its
 * length; false when there is no such line. */
bool el_text_line(const el_text *t, unsigned line, const char **s, size_t *len);
/* Byte offset -> 1-based line and UTF-16 column (an offset past the end
 * is clamped to the end). */
void el_text_position(const el_text *t, size_t offset, unsigned *line, unsigned *col16);
/* The UTF-16 column of a 1-based byte column on a line (unchanged when
 * the line is unknown). */
unsigned el_text_col16(const el_text *t, unsigned line, unsigned byte_col);

#endif
