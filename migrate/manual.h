/* migrate/manual.h -- the work ember-migrate leaves to a person: sites
 * it cannot rewrite or move safely, listed with their location. */
#ifndef EM_MANUAL_H
#define EM_MANUAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct em_manual {
    char *file;      /* as displayed */
    unsigned line, col;
    char *why;
    /* a site in the text an edit writes (a library name a call template
     * puts into its rewrite): after the plan it is edit_off bytes past
     * the start of that edit, which begins at edit_line:edit_col before
     * it (relocate.h); false for every other site */
    bool in_edit;
    unsigned edit_line, edit_col;
    size_t edit_off;
} em_manual;

typedef struct em_manuals {
    em_manual *v;
    size_t n, cap;
} em_manuals;

void em_manuals_add(em_manuals *m, const char *file, unsigned line, unsigned col,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Add to the entry at file:line:col (a second fact about the same site),
 * else add one. */
void em_manuals_note(em_manuals *m, const char *file, unsigned line, unsigned col,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Sort by file, line, column, reason; drop duplicates. */
void em_manuals_sort_unique(em_manuals *m);
/* One line each: "FILE:LINE:COL: manual: WHY", prefixed with `prefix`. */
void em_manuals_print(const em_manuals *m, const char *prefix, FILE *out);
/* The same with another label: "FILE:LINE:COL: LABEL: WHY". */
void em_manuals_print_as(const em_manuals *m, const char *label, FILE *out);
void em_manuals_free(em_manuals *m);

#endif
