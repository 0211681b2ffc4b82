/* migrate/apply.c -- `ember-migrate apply`: perform the plan (plan.h).
 *
 *   1. refuse, writing nothing, when a file does not parse (EH000) --
 *      unless --force, and then such files are left untouched;
 *   2. parse every translation unit the plan changes (its errors before;
 *      for a moved file, those of the file at its old place);
 *   3. commit the changeset: all or nothing; a file that changed since
 *      the scan is refused (lint/change/changeset.h), never overridable;
 *   4. parse them again; a new error anywhere undoes everything.
 * A second run finds nothing to do. */
#include <stdlib.h>
#include <string.h>

#include "changeset.h"
#include "compdb.h"
#include "mem.h"
#include "path.h"
#include "plan.h"
#include "reparse.h"
#include "sources.h"

#define EXIT_TROUBLE 2

typedef struct tu {
    el_source src;
    bool existed;         /* parsed before the commit too */
    char *was;            /* a moved file: its old path (parsed before instead) */
    el_errlist before;
} tu;

typedef struct tus {
    tu *v;
    size_t n, cap;
} tus;

static tu *add_tu(tus *s, const char *path, bool existed)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i].src.path, path))
            return &s->v[i];
    el_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
    tu *x = &s->v[s->n++];
    memset(x, 0, sizeof *x);
    x->src.path = el_xstrdup(path);
    x->src.display = el_path_display(path);
    x->src.is_header = el_path_has_ext(path, ".h");
    x->existed = existed;
    return x;
}

static void free_tus(tus *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i].src.path);
        free(s->v[i].src.display);
        free(s->v[i].was);
        el_errlist_free(&s->v[i].before);
    }
    free(s->v);
}

/* Does file `from` include `target`, directly or through the tree's
 * headers? */
static bool reaches(const em_tree *t, const char *from, const char *target, int depth)
{
    if (!strcmp(from, target))
        return true;
    if (depth > 32)
        return false;
    for (size_t i = 0; i < t->n_incs; i++)
        if (!strcmp(t->incs[i].path, from) && t->incs[i].resolved &&
            reaches(t, t->incs[i].resolved, target, depth + 1))
            return true;
    return false;
}

/* The translation units that see a changed file: changed .c files, the
 * tree's .c files that include a changed header, and a changed header no
 * .c includes, on its own. */
static void changed_tus(const em_tree *t, const el_changeset *cs, tus *out)
{
    for (size_t i = 0; i < cs->n; i++) {
        const el_change *c = &cs->v[i];
        if (c->kind != EL_CHANGE_DELETE && el_path_has_ext(c->path, ".c")) {
            tu *x = add_tu(out, c->path, c->kind == EL_CHANGE_MODIFY);
            /* a moved file is judged against what it was at its old place */
            if (c->moved_from && !x->was)
                x->was = el_xstrdup(c->moved_from);
        }
    }
    for (size_t i = 0; i < cs->n; i++) {
        const el_change *c = &cs->v[i];
        if (el_path_has_ext(c->path, ".c"))
            continue;
        bool seen = false;
        for (size_t k = 0; k < t->n_files; k++) {
            const char *p = t->files[k].path;
            if (!el_path_has_ext(p, ".c") || !reaches(t, p, c->path, 0))
                continue;
            const el_change *pc = el_changeset_find((el_changeset *)cs, p);
            if (pc && pc->kind == EL_CHANGE_DELETE)
                continue;    /* it moved: its new place is a TU already */
            add_tu(out, p, true);
            seen = true;
        }
        if (!seen && c->kind != EL_CHANGE_DELETE && el_path_has_ext(c->path, ".h")) {
            tu *x = add_tu(out, c->path, c->kind == EL_CHANGE_MODIFY);
            if (c->moved_from && !x->was)
                x->was = el_xstrdup(c->moved_from);
        }
    }
}

int em_run_apply(const em_opts *o)
{
    em_tree t;
    em_plan p;
    int rc = em_plan_prepare(o, &t, &p);
    if (rc)
        return rc;
    char *err = NULL;
    if (p.unparsed.n) {
        em_plan_report_unparsed(&t, &p, o->force ? "left untouched (--force)"
                                                 : "nothing was changed (fix it, or use --force "
                                                   "to migrate the other files and leave it "
                                                   "untouched)");
        if (!o->force) {
            em_plan_free(&p);
            em_tree_free(&t);
            return EXIT_TROUBLE;
        }
    }
    if (el_changeset_empty(&p.cs)) {
        em_manuals_print(&p.manual, "", stderr);
        if (!o->quiet)
            fprintf(stderr, "ember-migrate: nothing to migrate%s\n",
                    p.manual.n ? " automatically (the sites above need a person)" : "");
        rc = p.manual.n ? 1 : 0;
        em_plan_free(&p);
        em_tree_free(&t);
        return rc;
    }

    el_compdb *db = NULL;
    if (o->scan.compdb_dir && !(db = el_compdb_load(o->scan.compdb_dir, &err))) {
        fprintf(stderr, "ember-migrate: %s\n", err);
        free(err);
        em_plan_free(&p);
        em_tree_free(&t);
        return EXIT_TROUBLE;
    }
    tus ts = {0};
    changed_tus(&t, &p.cs, &ts);
    for (size_t i = 0; i < ts.n; i++) {
        if (ts.v[i].existed) {
            el_reparse_errors(db, &ts.v[i].src, o->scan.extra_args, o->scan.n_extra,
                              &ts.v[i].before);
        } else if (ts.v[i].was) {
            el_source old = ts.v[i].src;
            old.path = ts.v[i].was;
            el_reparse_errors(db, &old, o->scan.extra_args, o->scan.n_extra, &ts.v[i].before);
        }
    }

    if (el_changeset_commit(&p.cs, o->backup, &err) != 0) {
        fprintf(stderr, "ember-migrate: %s\n", err); /* it ends with what became of the files */
        free(err);
        rc = EXIT_TROUBLE;
        goto out;
    }

    /* the result must parse as well as the original did */
    for (size_t i = 0; i < ts.n && !rc; i++) {
        el_errlist after = {0};
        el_reparse_errors(db, &ts.v[i].src, o->scan.extra_args, o->scan.n_extra, &after);
        const char *bad = el_errlist_new_error(&ts.v[i].before, &after);
        if (bad) {
            fprintf(stderr, "ember-migrate: %s: does not parse after the rewrite: %s\n",
                    ts.v[i].src.display, bad);
            if (el_changeset_undo(&p.cs, &err) != 0) {
                fprintf(stderr, "ember-migrate: undoing the rewrite failed: %s\n", err);
                free(err);
                err = NULL;
            } else {
                fprintf(stderr, "ember-migrate: every change was undone; nothing was changed\n");
            }
            rc = EXIT_TROUBLE;
        }
        el_errlist_free(&after);
    }
    if (!rc) {
        em_manuals_print(&p.manual, "", stderr);
        if (!o->quiet)
            em_plan_summary(&p, "rewritten", stderr);
        rc = p.manual.n || p.unparsed.n ? 1 : 0;
    }
out:
    free_tus(&ts);
    el_compdb_free(db);
    em_plan_free(&p);
    em_tree_free(&t);
    return rc;
}
