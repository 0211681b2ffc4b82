/* migrate/move_ctx.c -- the state of one em_moves_compute run
 * (move_ctx.h): the tree's files by path, their texts, how paths are
 * shown, and the files the run creates.  The bottom of the moves: used by
 * includes.c, headers.c, register.c and moves.c, and uses none of them. */
#include "move_ctx.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "path.h"
#include "texts.h"

size_t mv_file_index(const em_tree *t, const char *path)
{
    size_t lo = 0, hi = t->n_files;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(t->files[mid].path, path);
        if (!c)
            return mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (size_t)-1;
}

const em_text *mv_text_of(ctx *c, const char *path)
{
    size_t fi = mv_file_index(c->t, path);
    const el_hash128 *h = fi != (size_t)-1 ? &c->t->files[fi].hash : NULL;
    return em_texts_get(c->texts, path, h, c->err);
}

const char *mv_display_of(ctx *c, const char *path, char **owned)
{
    size_t fi = mv_file_index(c->t, path);
    if (fi != (size_t)-1)
        return c->t->files[fi].display;
    *owned = el_path_display(path);
    return *owned;
}

/* Column of a definition's name on its line (1 when not found). */
unsigned mv_def_col(ctx *c, const em_def *d)
{
    char *err = NULL;
    const em_text *tx = em_texts_get(c->texts, d->path, NULL, &err);
    free(err);
    if (!tx)
        return 1;
    size_t ls = em_text_offset(tx, d->line, 1);
    size_t le = ls;
    while (le < tx->len && tx->data[le] != '\n')
        le++;
    size_t nl = strlen(d->name);
    for (size_t i = ls; i + nl <= le; i++)
        if (!memcmp(tx->data + i, d->name, nl) &&
            (i == ls || !em_is_ident(tx->data[i - 1])))
            return (unsigned)(i - ls + 1);
    return 1;
}

void mv_free_strs(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

em_create *mv_add_create(ctx *c, const char *path, el_buf *text, mode_t mode)
{
    el_grow(&c->out->creates, &c->out->cap_creates, c->out->n_creates + 1,
            sizeof *c->out->creates);
    em_create *cr = &c->out->creates[c->out->n_creates++];
    memset(cr, 0, sizeof *cr);
    cr->path = el_xstrdup(path);
    cr->len = text->n;
    cr->text = el_buf_take(text);
    cr->mode = mode;
    return cr;
}
