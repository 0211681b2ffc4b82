/* lint/base/edit.h -- text edits: byte ranges of a file's content replaced by
 * new text.  Fixes (emberlint --fix) and rewrites (ember-migrate) are both
 * lists of edits; this file applies them to a buffer.
 *
 * An edit names its file by absolute real path and the range by byte
 * offsets [begin, end) into the content the file had when it was parsed
 * (begin == end inserts).  Edits of one file are applied together, in
 * offset order; identical edits (same range, same text) count once, and
 * two edits whose ranges overlap otherwise are a conflict (an insertion at
 * the boundary of a replaced range does not overlap it). */
#ifndef EL_EDIT_H
#define EL_EDIT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct el_edit {
    char *path;       /* absolute, real */
    size_t begin;     /* byte offsets into the parsed content */
    size_t end;
    char *text;       /* replacement, NUL-terminated */
    int group;        /* caller's tag (a fix's index): conflicts are reported by group */
} el_edit;

typedef struct el_edits {
    el_edit *v;
    size_t n, cap;
} el_edits;

/* Do most of t[0..n)'s lines end in "\r\n"? */
bool el_text_crlf(const char *t, size_t n);
/* s with every line ending made "\r\n" (crlf) or "\n" (malloc'd). */
char *el_text_eol(const char *s, bool crlf);

/* Append a copy of the edit. */
void el_edits_add(el_edits *e, const char *path, size_t begin, size_t end, const char *text,
                  int group);
/* Append copies of every edit of src. */
void el_edits_append(el_edits *dst, const el_edits *src);
/* Sort by path, then begin, then end; drop exact duplicates. */
void el_edits_sort_unique(el_edits *e);
/* The edits of `path` among sorted edits: index of the first, count in *n. */
size_t el_edits_of(const el_edits *e, const char *path, size_t *n);
/* True when the sorted edits [first, first+n) overlap anywhere; *a and *b
 * (may be NULL) receive the indexes of the first conflicting pair. */
bool el_edits_conflict(const el_edits *e, size_t first, size_t n, size_t *a, size_t *b);
/* Apply the sorted, conflict-free edits [first, first+n) of one file to
 * its content old[0..old_len).  The lines an edit brings end as most of
 * the file's lines do ("\r\n" in a CRLF file, "\n" otherwise), so a file
 * never gets mixed line endings.  *out is malloc'd (NUL-terminated, length
 * in *out_len).  -1 when an edit lies outside the content. */
int el_edits_apply(const el_edits *e, size_t first, size_t n, const char *old, size_t old_len,
                   char **out, size_t *out_len);
void el_edits_free(el_edits *e);

#endif
