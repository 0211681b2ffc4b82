/* migrate/relocate.c -- sites of the tree before the migration, in the
 * tree after it (relocate.h). */
#include "relocate.h"

#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "mem.h"
#include "path.h"
#include "text_pos.h"

/* Byte offset of line:col in t (clamped to its end). */
static size_t offset_of(const char *t, size_t n, unsigned line, unsigned col)
{
    size_t i = 0;
    for (unsigned l = 1; l < line && i < n; i++)
        if (t[i] == '\n')
            l++;
    size_t off = i + (col ? col - 1 : 0);
    return off < n ? off : n;
}

/* off of path's old content, after path's edits (written as the file's
 * line endings make them). */
static size_t through_edits(const em_plan *p, const char *path, const char *old, size_t old_len,
                            size_t off)
{
    bool crlf = el_text_crlf(old, old_len);
    long delta = 0;
    for (size_t i = 0; i < p->edits.n; i++) {
        const el_edit *e = &p->edits.v[i];
        if (strcmp(e->path, path) != 0 || e->begin > off || (e->begin == off && e->end > off))
            continue;
        if (e->end > off) /* inside an edit: its start */
            return (size_t)((long)e->begin + delta);
        char *t = el_text_eol(e->text, crlf);
        delta += (long)strlen(t) - (long)(e->end - e->begin);
        free(t);
    }
    return (size_t)((long)off + delta);
}

/* The change creating the file `from` moved to, or NULL. */
static const el_change *moved_to(const el_changeset *cs, const char *from)
{
    for (size_t i = 0; i < cs->n; i++)
        if (cs->v[i].kind == EL_CHANGE_CREATE && cs->v[i].moved_from &&
            !strcmp(cs->v[i].moved_from, from))
            return &cs->v[i];
    return NULL;
}

/* A definition that moves: its name in its new file. */
static bool find_moved(const em_plan *p, const char *path, unsigned line, char **file,
                       unsigned *nl, unsigned *nc)
{
    for (size_t i = 0; i < p->n_moved_sites; i++) {
        const struct em_moved_site *s = &p->moved_sites[i];
        if (s->line != line || strcmp(s->path, path) != 0)
            continue;
        const el_change *c = el_changeset_find((el_changeset *)&p->cs, s->dest);
        const char *t = c ? c->new_text : NULL;
        size_t n = c ? c->new_len : 0, len = strlen(s->name);
        for (size_t k = 0; t && k + len < n; k++)
            if (!memcmp(t + k, s->name, len) && (k == 0 || t[k - 1] == ' ' || t[k - 1] == '*' ||
                                                 t[k - 1] == '\n') &&
                t[k + len] == '(') {
                el_text_line_col(t, n, k, nl, nc);
                *file = el_path_display(s->dest);
                return true;
            }
    }
    return false;
}

/* Where line:col of the file shown as `shown` is after the plan: *file
 * (malloc'd) when it is in another file, else NULL. */
static void relocate(const em_plan *p, const char *shown, unsigned line, unsigned col,
                     char **file, unsigned *nl, unsigned *nc)
{
    char *abs = el_path_abs(shown);
    *file = NULL;
    *nl = line;
    *nc = col;
    const el_change *c = el_changeset_find((el_changeset *)&p->cs, abs);
    if (find_moved(p, abs, line, file, nl, nc)) {
        /* found in its new file */
    } else if (c && c->kind == EL_CHANGE_MODIFY) {
        size_t off = offset_of(c->old_text, c->old_len, line, col);
        el_text_line_col(c->new_text, c->new_len, through_edits(p, abs, c->old_text, c->old_len, off),
                 nl, nc);
    } else if (c && c->kind == EL_CHANGE_DELETE) {
        const el_change *to = moved_to(&p->cs, abs);
        if (to) /* moved whole: its lines stay its lines */
            *file = el_path_display(to->path);
    }
    free(abs);
}

/* A site in the text of an edit (relocate.h): the edit's start after the
 * plan, plus the site's offset in its text. */
static void in_edit(const em_plan *p, const em_manual *x, unsigned *nl, unsigned *nc)
{
    char *abs = el_path_abs(x->file);
    const el_change *c = el_changeset_find((el_changeset *)&p->cs, abs);
    if (c && c->kind == EL_CHANGE_MODIFY) {
        size_t off = offset_of(c->old_text, c->old_len, x->edit_line, x->edit_col);
        size_t at = through_edits(p, abs, c->old_text, c->old_len, off) + x->edit_off;
        el_text_line_col(c->new_text, c->new_len, at <= c->new_len ? at : c->new_len, nl, nc);
    }
    free(abs);
}

/* A reason that names another site ("the include stays: line 23 still
 * uses cblas_saxpy", "... fft.c line 40 still uses ..." for a file that
 * includes it: migrate/plan.c) names it where it is after the plan too,
 * as the entry's own place does: the edits above it move it. */
static void relocate_reason(const em_plan *p, em_manual *x, const char *old_file,
                            const char *new_file)
{
    static const char lead[] = "the include stays: ", uses[] = " still uses ";
    char *at = strstr(x->why, lead);
    if (!at)
        return;
    char *from = at + strlen(lead), *ln = strstr(from, "line ");
    if (!ln || (ln != from && ln[-1] != ' '))
        return;
    char *digits = ln + strlen("line "), *end = digits;
    while (*end >= '0' && *end <= '9')
        end++;
    if (end == digits || strncmp(end, uses, strlen(uses)) != 0)
        return;
    unsigned line = (unsigned)strtoul(digits, NULL, 10);
    /* the site's file: shown before "line", else the entry's own */
    char *shown = ln == from ? el_xstrdup(old_file) : strndup(from, (size_t)(ln - 1 - from));
    if (!shown)
        return;
    char *file = NULL;
    unsigned nl, nc;
    relocate(p, shown, line, 1, &file, &nl, &nc);
    const char *ref = file ? file : shown;
    const char *where = strcmp(ref, new_file) ? ref : NULL; /* the entry's own file: unnamed */
    char *why = el_xasprintf("%.*s%s%sline %u%s", (int)(from - x->why), x->why,
                             where ? where : "", where ? " " : "", nl, end);
    free(x->why);
    x->why = why;
    free(file);
    free(shown);
}

/* The name an #include line at t[off..] spells ('"' or '<' to its
 * closing character), into *b and *n; false when the line holds none. */
static bool spelled_at(const char *t, size_t len, size_t off, size_t *b, size_t *n)
{
    size_t e = off;
    while (e < len && t[e] != '\n')
        e++;
    const char *inc = NULL;
    for (size_t k = off; k + 7 <= e && !inc; k++)
        if (!memcmp(t + k, "include", 7))
            inc = t + k + 7;
    if (!inc)
        return false;
    for (size_t k = (size_t)(inc - t); k < e; k++)
        if (t[k] == '"' || t[k] == '<') {
            char close = t[k] == '"' ? '"' : '>';
            for (size_t j = k + 1; j < e; j++)
                if (t[j] == close) {
                    *b = k + 1;
                    *n = j - k - 1;
                    return true;
                }
            return false;
        }
    return false;
}

/* An include's entry left out ("[EH101] include <eh/eh.h> instead of
 * 'ops/blas/blas_ops.h': ...") names the include as it is spelled after
 * the plan when the plan re-spells it (its header moved): the tree as it
 * will be, as the entry's place.  (One made replaced the include: it
 * names what it replaced.) */
static void respell_include(const em_plan *p, em_manual *x)
{
    if (p->unsafe_made || strncmp(x->why, "[EH101] ", 8) != 0)
        return;
    char *abs = el_path_abs(x->file);
    const el_change *c = el_changeset_find((el_changeset *)&p->cs, abs);
    size_t ob, on, nb, nn;
    if (c && c->kind == EL_CHANGE_MODIFY) {
        size_t off = offset_of(c->old_text, c->old_len, x->line, 1);
        size_t now = through_edits(p, abs, c->old_text, c->old_len, off);
        if (spelled_at(c->old_text, c->old_len, off, &ob, &on) &&
            spelled_at(c->new_text, c->new_len, now, &nb, &nn) &&
            (on != nn || memcmp(c->old_text + ob, c->new_text + nb, on) != 0)) {
            char *was = el_xasprintf("'%.*s'", (int)on, c->old_text + ob);
            const char *at = strstr(x->why, was);
            if (at) {
                char *why = el_xasprintf("%.*s'%.*s'%s", (int)(at - x->why), x->why, (int)nn,
                                         c->new_text + nb, at + strlen(was));
                free(x->why);
                x->why = why;
            }
            free(was);
        }
    }
    free(abs);
}

void em_plan_relocate(const em_plan *p, em_manuals *m)
{
    for (size_t i = 0; i < m->n; i++) {
        em_manual *x = &m->v[i];
        char *file = NULL;
        unsigned nl, nc;
        if (m == &p->unsafe)
            respell_include(p, x);
        relocate(p, x->file, x->line, x->col, &file, &nl, &nc);
        if (x->in_edit)
            in_edit(p, x, &nl, &nc);
        relocate_reason(p, x, x->file, file ? file : x->file);
        if (file) {
            free(x->file);
            x->file = file;
        }
        x->line = nl;
        x->col = nc;
    }
    em_manuals_sort_unique(m);
}
