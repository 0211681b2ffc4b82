/* migrate/manual.c -- the list of sites left to a person (manual.h). */
#include "manual.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "strbuf.h"

void em_manuals_add(em_manuals *m, const char *file, unsigned line, unsigned col,
                    const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    el_buf b = {0};
    char tmp[1024];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    el_buf_puts(&b, tmp);
    el_grow(&m->v, &m->cap, m->n + 1, sizeof *m->v);
    em_manual *x = &m->v[m->n++];
    x->file = el_xstrdup(file);
    x->line = line;
    x->col = col;
    x->why = el_buf_take(&b);
    x->in_edit = false;
    x->edit_line = x->edit_col = 0;
    x->edit_off = 0;
}

/* The length of an entry's rule tag, "[EH104] " ("[EH102 in skipped
 * code] "), 0 when it has none. */
static size_t tag_len(const char *why)
{
    const char *close = !strncmp(why, "[EH", 3) ? strstr(why, "] ") : NULL;
    return close ? (size_t)(close - why) + 2 : 0;
}

void em_manuals_note(em_manuals *m, const char *file, unsigned line, unsigned col,
                     const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < m->n; i++) {
        em_manual *x = &m->v[i];
        if (x->line == line && x->col == col && !strcmp(x->file, file)) {
            /* one tag, first: the entry's, else the note's */
            size_t t = tag_len(tmp);
            char *both = el_xasprintf("%.*s%s; %s", tag_len(x->why) ? 0 : (int)t, tmp, x->why,
                                      tmp + t);
            free(x->why);
            x->why = both;
            return;
        }
    }
    em_manuals_add(m, file, line, col, "%s", tmp);
}

/* Where first, then the order of addition: the more specific reason a
 * caller adds first wins over a later one at the same place. */
static int cmp_manual(const void *pa, const void *pb)
{
    const em_manual *a = pa, *b = pb;
    int c = strcmp(a->file, b->file);
    if (!c)
        c = (a->line > b->line) - (a->line < b->line);
    if (!c)
        c = (a->col > b->col) - (a->col < b->col);
    if (!c)
        c = (a > b) - (a < b);
    return c;
}

/* Do two EH102 reasons quote the same name first?  One macro use may call
 * eh_blas_abs in one build configuration and eh_ref_abs in another: one
 * entry per symbol and site. */
static bool same_name(const char *a, const char *b)
{
    static const char tag[] = "[EH102] ";
    if (strncmp(a, tag, sizeof tag - 1) || strncmp(b, tag, sizeof tag - 1))
        return true;
    const char *qa = strchr(a, '\''), *qb = strchr(b, '\'');
    const char *ea = qa ? strchr(qa + 1, '\'') : NULL, *eb = qb ? strchr(qb + 1, '\'') : NULL;
    if (!ea || !eb)
        return true;
    return ea - qa == eb - qb && !strncmp(qa, qb, (size_t)(ea - qa));
}

/* Drop entry `dup`, a second one at the place of `kept`: the reason kept
 * says stays, but the rule dup is tagged with stays with it (emberlint
 * reports the site: the list must say so, whichever reason it shows). */
static void drop_duplicate(em_manual *kept, em_manual *dup)
{
    size_t t = tag_len(dup->why);
    if (t && !tag_len(kept->why)) {
        char *tagged = el_xasprintf("%.*s%s", (int)t, dup->why, kept->why);
        free(kept->why);
        kept->why = tagged;
    }
    free(dup->file);
    free(dup->why);
}

void em_manuals_sort_unique(em_manuals *m)
{
    if (!m->n)
        return;
    /* stable: qsort compares addresses, which only works on the original
     * positions, so sort an index first */
    size_t n = m->n;
    em_manual *copy = el_xmalloc(n * sizeof *copy);
    memcpy(copy, m->v, n * sizeof *copy);
    qsort(copy, n, sizeof *copy, cmp_manual);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && !strcmp(copy[k - 1].file, copy[i].file) && copy[k - 1].line == copy[i].line &&
            copy[k - 1].col == copy[i].col && same_name(copy[k - 1].why, copy[i].why)) {
            drop_duplicate(&copy[k - 1], &copy[i]);
            continue;
        }
        copy[k++] = copy[i];
    }
    memcpy(m->v, copy, k * sizeof *copy);
    m->n = k;
    free(copy);
}

void em_manuals_print(const em_manuals *m, const char *prefix, FILE *out)
{
    for (size_t i = 0; i < m->n; i++)
        fprintf(out, "%s%s:%u:%u: manual: %s\n", prefix, m->v[i].file, m->v[i].line, m->v[i].col,
                m->v[i].why);
}

void em_manuals_print_as(const em_manuals *m, const char *label, FILE *out)
{
    for (size_t i = 0; i < m->n; i++)
        fprintf(out, "%s:%u:%u: %s: %s\n", m->v[i].file, m->v[i].line, m->v[i].col, label,
                m->v[i].why);
}

void em_manuals_free(em_manuals *m)
{
    for (size_t i = 0; i < m->n; i++) {
        free(m->v[i].file);
        free(m->v[i].why);
    }
    free(m->v);
    memset(m, 0, sizeof *m);
}
