/* migrate/texts.h -- the content of the files ember-migrate edits, read
 * once and checked against the scan (a file that changed since it was
 * parsed is refused), with line/offset arithmetic on it. */
#ifndef EM_TEXTS_H
#define EM_TEXTS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "hash.h"

typedef struct em_text {
    char *path;      /* absolute */
    char *data;      /* NUL-terminated */
    size_t len;
    mode_t mode;     /* permission bits */
    el_hash128 hash; /* of data, computed once */
    size_t *lines;   /* offset where each line starts (lines[0] = 0) */
    size_t n_lines;
} em_text;

typedef struct em_texts {
    em_text *v;
    size_t n, cap;
} em_texts;

/* The content of a file, read the first time.  With `expected`, a file
 * whose content no longer has that hash (it changed since the scan) is
 * refused.  NULL with *err (malloc'd, "PATH: what") when it cannot be
 * read or was refused. */
const em_text *em_texts_get(em_texts *ts, const char *path, const el_hash128 *expected,
                            char **err);
/* Byte offset of a 1-based line and byte column in t (clamped to len).
 * Both this and em_text_line take constant or logarithmic time: a file of
 * 20k call sites asks once per site. */
size_t em_text_offset(const em_text *t, unsigned line, unsigned col);
/* 1-based line of a byte offset. */
unsigned em_text_line(const em_text *t, size_t off);
void em_texts_free(em_texts *ts);

/* A character of a C identifier. */
static inline bool em_is_ident(char ch)
{
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9');
}

#endif
