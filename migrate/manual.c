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
    x->cfgs = x->cfg_path = NULL;
}

void em_manuals_set_configs(em_manuals *m, const char *mask, const char *path)
{
    if (!m->n || !mask)
        return;
    em_manual *x = &m->v[m->n - 1];
    free(x->cfgs);
    free(x->cfg_path);
    x->cfgs = el_xstrdup(mask);
    x->cfg_path = el_xstrdup(path);
}

/* What an entry owns. */
static void manual_clear(em_manual *x)
{
    free(x->file);
    free(x->why);
    free(x->cfgs);
    free(x->cfg_path);
}

/* into's configurations and from's (masks of one length). */
static void add_configs(char *into, const char *from)
{
    for (size_t k = 0; into[k]; k++)
        if (from[k] == '1')
            into[k] = '1';
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
    /* reported where either is (not known for one: not known) */
    if (kept->cfgs && dup->cfgs && strlen(kept->cfgs) == strlen(dup->cfgs)) {
        add_configs(kept->cfgs, dup->cfgs);
    } else {
        free(kept->cfgs);
        free(kept->cfg_path);
        kept->cfgs = kept->cfg_path = NULL;
    }
    manual_clear(dup);
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

/* ---- which configurations give what -------------------------------------- */

/* The configurations of mask (want '1') or of those the entry's file
 * compiles that mask lacks (want '0'), as a message names them:
 * `define set "A"`, `define sets "A" and "B"`, `define sets "A", "B" and
 * "C"`; names of another form (with compile_commands.json entries)
 * joined with " and ".  NULL when there are none. */
static char *config_list(const em_config_names *c, const char *path, const char *mask, char want)
{
    static const char ds[] = "define set \"";
    char **names = el_xcalloc(c->n + 1, sizeof *names);
    size_t n = 0;
    bool plain = true;
    for (size_t k = 0; k < c->n && mask[k]; k++) {
        if (mask[k] != want || (want == '0' && !c->compiles(c->ud, path, k)))
            continue;
        names[n] = c->name(c->ud, path, k);
        plain &= !strncmp(names[n], ds, sizeof ds - 1);
        n++;
    }
    char *out = NULL;
    if (n) {
        el_buf b = {0};
        if (plain)
            el_buf_puts(&b, n > 1 ? "define sets " : "define set ");
        for (size_t i = 0; i < n; i++) {
            if (i)
                el_buf_puts(&b, i + 1 < n && plain ? ", " : " and ");
            el_buf_puts(&b, plain ? names[i] + sizeof ds - 2 : names[i]);
        }
        out = el_buf_take(&b);
    }
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    return out;
}

/* Does the file's every configuration report mask's site? */
static bool everywhere(const em_config_names *c, const char *path, const char *mask)
{
    for (size_t k = 0; k < c->n && mask[k]; k++)
        if (mask[k] == '0' && c->compiles(c->ud, path, k))
            return false;
    return true;
}

/* " (only in LIST; not in OTHERS)" of a site reported where mask says,
 * "" when everywhere (malloc'd). */
static char *only_in(const em_config_names *c, const char *path, const char *mask)
{
    if (everywhere(c, path, mask))
        return el_xstrdup("");
    char *in = config_list(c, path, mask, '1'), *out = config_list(c, path, mask, '0');
    char *s = el_xasprintf(" (only in %s; not in %s)", in ? in : "none", out ? out : "none");
    free(in);
    free(out);
    return s;
}

/* Can the entries g[0..n) at one place be one: each reported in
 * configurations of its own, all with the same tag? */
static bool joinable(const em_manual *g, size_t n)
{
    if (n < 2)
        return false;
    size_t len = g[0].cfgs ? strlen(g[0].cfgs) : 0, t = tag_len(g[0].why);
    for (size_t i = 0; i < n; i++) {
        if (!g[i].cfgs || strlen(g[i].cfgs) != len || g[i].in_edit || tag_len(g[i].why) != t ||
            strncmp(g[i].why, g[0].why, t) != 0)
            return false;
        for (size_t j = 0; j < i; j++)
            for (size_t k = 0; k < len; k++)
                if (g[i].cfgs[k] == '1' && g[j].cfgs[k] == '1')
                    return false;
    }
    return true;
}

/* The first configuration that reports the entry's site. */
static size_t first_config(const em_manual *x)
{
    const char *one = strchr(x->cfgs, '1');
    return one ? (size_t)(one - x->cfgs) : strlen(x->cfgs);
}

/* Make g[0..n) one entry, g[0] (the others are freed), each part in the
 * order of the configurations (the define sets as given). */
static void join(em_manual *g, size_t n, const em_config_names *c)
{
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && first_config(&g[j]) < first_config(&g[j - 1]); j--) {
            em_manual x = g[j];
            g[j] = g[j - 1];
            g[j - 1] = x;
        }
    size_t t = tag_len(g[0].why);
    el_buf b = {0};
    el_buf_printf(&b, "%.*s", (int)t, g[0].why);
    char *all = el_xstrdup(g[0].cfgs);
    for (size_t i = 0; i < n; i++) {
        char *in = config_list(c, g[0].cfg_path, g[i].cfgs, '1');
        el_buf_printf(&b, "%sin %s: %s", i ? "; " : "", in ? in : "no configuration",
                      g[i].why + t);
        free(in);
        add_configs(all, g[i].cfgs);
    }
    if (!everywhere(c, g[0].cfg_path, all)) {
        char *out = config_list(c, g[0].cfg_path, all, '0');
        el_buf_printf(&b, "; not in %s", out);
        free(out);
    }
    free(g[0].why);
    g[0].why = el_buf_take(&b);
    free(g[0].cfgs);
    g[0].cfgs = all;
    for (size_t i = 1; i < n; i++)
        manual_clear(&g[i]);
}

void em_manuals_name_configs(em_manuals *m, const em_config_names *c)
{
    if (c->n < 2)
        return;
    size_t k = 0;
    for (size_t a = 0, b; a < m->n; a = b) {
        for (b = a + 1; b < m->n && m->v[b].line == m->v[a].line && m->v[b].col == m->v[a].col &&
                        !strcmp(m->v[b].file, m->v[a].file);
             b++)
            ;
        if (joinable(&m->v[a], b - a)) {
            join(&m->v[a], b - a, c);
            m->v[k++] = m->v[a];
            continue;
        }
        for (size_t i = a; i < b; i++) {
            em_manual *x = &m->v[i];
            if (x->cfgs && strlen(x->cfgs) == c->n) {
                char *only = only_in(c, x->cfg_path, x->cfgs);
                if (only[0]) {
                    char *w = el_xasprintf("%s%s", x->why, only);
                    free(x->why);
                    x->why = w;
                }
                free(only);
            }
            m->v[k++] = *x;
        }
    }
    m->n = k;
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
    for (size_t i = 0; i < m->n; i++)
        manual_clear(&m->v[i]);
    free(m->v);
    memset(m, 0, sizeof *m);
}
