/* migrate/plan_check.c -- verifying a plan before it is written
 * (plan_check.h). */
#include "plan_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changeset.h"
#include "language.h"
#include "mem.h"
#include "path.h"
#include "verify.h"

/* The scanned source whose configurations a unit at path is verified
 * in: its own, the one it moved from, else the source nearest to it (a
 * file made from parts of others). */
static const el_source *args_for(const em_tree *t, const char *path, const char *was)
{
    const el_source *s = em_tree_source(t, path);
    if (!s && was)
        s = em_tree_source(t, was);
    size_t best = 0;
    for (size_t i = 0; !s && i < t->sources.n; i++) {
        const char *p = t->sources.v[i].path;
        if (!el_path_is_unit(p))
            continue;
        size_t k = 0;
        while (p[k] && p[k] == path[k])
            k++;
        if (k >= best) {
            best = k;
            s = &t->sources.v[i];
        }
    }
    for (size_t i = 0; !s && i < t->sources.n; i++)
        s = &t->sources.v[i];
    return s;
}

static void add_unit(const em_tree *t, el_verify_units *u, const char *path, const char *before,
                     const char *was)
{
    char *disp = el_path_display(path);
    el_verify_units_add(u, path, before, args_for(t, path, was), disp);
    free(disp);
}

/* The translation units that see a changed file: changed .c and C++
 * sources, the tree's sources that include a changed header, and a
 * changed header no source includes, on its own.  A moved file is judged against what it was
 * at its old place. */
static void changed_units(const em_tree *t, const el_changeset *cs, el_verify_units *out)
{
    for (size_t i = 0; i < cs->n; i++) {
        const el_change *c = &cs->v[i];
        if (c->kind != EL_CHANGE_DELETE && el_path_is_unit(c->path))
            add_unit(t, out, c->path, c->kind == EL_CHANGE_MODIFY ? c->path : c->moved_from,
                     c->moved_from);
    }
    for (size_t i = 0; i < cs->n; i++) {
        const el_change *c = &cs->v[i];
        if (el_path_is_unit(c->path))
            continue;
        bool seen = false;
        for (size_t k = 0; k < t->n_files; k++) {
            const char *p = t->files[k].path;
            if (!el_path_is_unit(p) || !em_tree_reaches(t, p, c->path))
                continue;
            const el_change *pc = el_changeset_find((el_changeset *)cs, p);
            if (pc && pc->kind == EL_CHANGE_DELETE)
                continue;    /* it moved: its new place is a unit already */
            add_unit(t, out, p, p, NULL);
            seen = true;
        }
        if (!seen && c->kind != EL_CHANGE_DELETE && el_path_is_header(c->path))
            add_unit(t, out, c->path, c->kind == EL_CHANGE_MODIFY ? c->path : c->moved_from,
                     c->moved_from);
    }
}

int em_verify_plan(const em_opts *o, const em_tree *t, const em_plan *p, const char *outcome)
{
    el_verify_units units = {0};
    changed_units(t, &p->cs, &units);
    el_verify_result r;
    size_t bad = el_verify(&p->cs, &units, &t->cfgs, o->scan.extra_args, o->scan.n_extra, &r);
    for (size_t i = 0; i < r.n; i++) {
        char *m = el_verify_message(&r.v[i]);
        fprintf(stderr, "ember-migrate: %s%s%s\n", m, outcome ? "; " : "", outcome ? outcome : "");
        free(m);
    }
    el_verify_result_free(&r);
    el_verify_units_free(&units);
    return bad ? -1 : 0;
}

