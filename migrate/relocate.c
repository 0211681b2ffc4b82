/* migrate/relocate.c -- sites of the tree before the migration, in the
 * tree after it (relocate.h). */
#include "relocate.h"

#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "mem.h"
#include "path.h"

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

static void line_col(const char *t, size_t n, size_t off, unsigned *line, unsigned *col)
{
    unsigned l = 1;
    size_t ls = 0;
    for (size_t i = 0; i < off && i < n; i++)
        if (t[i] == '\n') {
            l++;
            ls = i + 1;
        }
    *line = l;
    *col = (unsigned)(off - ls + 1);
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
                line_col(t, n, k, nl, nc);
                *file = el_path_display(s->dest);
                return true;
            }
    }
    return false;
}

void em_plan_relocate(const em_plan *p, em_manuals *m)
{
    for (size_t i = 0; i < m->n; i++) {
        em_manual *x = &m->v[i];
        char *abs = el_path_abs(x->file);
        char *file = NULL;
        unsigned nl = x->line, nc = x->col;
        const el_change *c = el_changeset_find((el_changeset *)&p->cs, abs);
        if (find_moved(p, abs, x->line, &file, &nl, &nc)) {
            /* found in its new file */
        } else if (c && c->kind == EL_CHANGE_MODIFY) {
            size_t off = offset_of(c->old_text, c->old_len, x->line, x->col);
            line_col(c->new_text, c->new_len, through_edits(p, abs, c->old_text, c->old_len, off),
                     &nl, &nc);
        } else if (c && c->kind == EL_CHANGE_DELETE) {
            const el_change *to = moved_to(&p->cs, abs);
            if (to) /* moved whole: its lines stay its lines */
                file = el_path_display(to->path);
        }
        if (file) {
            free(x->file);
            x->file = file;
        }
        x->line = nl;
        x->col = nc;
        free(abs);
    }
    em_manuals_sort_unique(m);
}
