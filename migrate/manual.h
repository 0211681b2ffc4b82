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
    /* with several build configurations: those that report the site, a
     * string with '1' at k where configuration k does ('0' where not),
     * and the file (absolute) they are named after; NULL when not known
     * (the site is not one finding's, or the run has one configuration) */
    char *cfgs;
    char *cfg_path;
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
/* The configurations that report the site of the entry added last (see
 * em_manual.cfgs; mask NULL: not known). */
void em_manuals_set_configs(em_manuals *m, const char *mask, const char *path);
/* Sort by file, line, column, reason; drop duplicates (a duplicate's
 * configurations join the entry kept). */
void em_manuals_sort_unique(em_manuals *m);
/* How the build configurations of a run are named: n of them; name(ud,
 * path, k) in messages ("define set \"USE_BLAS\"", malloc'd), for the
 * file at path; compiles(ud, path, k): does configuration k compile it? */
typedef struct em_config_names {
    size_t n;
    char *(*name)(void *ud, const char *path, size_t k);
    bool (*compiles)(void *ud, const char *path, size_t k);
    void *ud;
} em_config_names;
/* After em_manuals_sort_unique: say which configurations give what.
 * The entries at one place that name different things in different
 * configurations (dgemm_ in one, dgemm in another; no configuration
 * reports two of them) become one entry, "[RULE] in define set \"A\":
 * WHY; in define set \"B\": WHY" (with one tag, when they had the same);
 * an entry (or such a group) that not every configuration compiling its
 * file reports ends "(only in define set \"A\"; not in define set
 * \"B\")".  An entry every configuration reports alike is left as it is. */
void em_manuals_name_configs(em_manuals *m, const em_config_names *c);
/* One line each: "FILE:LINE:COL: manual: WHY", prefixed with `prefix`. */
void em_manuals_print(const em_manuals *m, const char *prefix, FILE *out);
/* The same with another label: "FILE:LINE:COL: LABEL: WHY". */
void em_manuals_print_as(const em_manuals *m, const char *label, FILE *out);
void em_manuals_free(em_manuals *m);

#endif
