/* migrate/moves.c -- which definitions move out of legacy code into
 * backends/<backend>/, and the edits, new files and deletions that do it
 * (see moves.h).
 *
 * Everything is decided from the scan: which definitions are ops
 * (em_def.op), which statics they use (em_def.uses), which files declare
 * what they reference (em_def.needs) and which include directives reach
 * those files (em_include.resolved, followed through the tree's own
 * headers).  The only text read here is what must be copied: definitions'
 * bytes and the registration files extended (register.c); include lines
 * are handled by includes.c, legacy headers by headers.c. */
#include "moves.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "custom_ops.h"
#include "include_line.h"
#include "language.h"
#include "mem.h"
#include "move_ctx.h"
#include "path.h"
#include "rule.h"
#include "strbuf.h"

/* ---- selection, helpers ----------------------------------------------- */

static bool in_list(char *const *v, size_t n, const char *s)
{
    if (!n)
        return true;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(v[i], s))
            return true;
    return false;
}

bool em_select_backend(const em_select *s, const char *backend)
{
    return in_list(s->backends, s->n_backends, backend);
}

bool em_select_op(const em_select *s, const char *op)
{
    return in_list(s->ops, s->n_ops, op);
}

/* The include directives of a file: index of the first, count in *n. */
static size_t incs_of(const em_tree *t, const char *path, size_t *n)
{
    size_t i = 0;
    while (i < t->n_incs && strcmp(t->incs[i].path, path))
        i++;
    size_t j = i;
    while (j < t->n_incs && !strcmp(t->incs[j].path, path))
        j++;
    *n = j - i;
    return i;
}

static void manual_def(ctx *c, const em_def *d, const char *fmt, const char *arg)
{
    char *owned = NULL;
    const char *disp = mv_display_of(c, d->path, &owned);
    /* untagged: when EH104 reports the definition (its name, or a legacy
     * directory's function using backend symbols), the plan lists that
     * finding at the same place and the entry takes its tag there
     * (em_manuals_sort_unique) */
    em_manuals_add(c->manual, disp, d->line, mv_def_col(c, d), fmt, arg);
    free(owned);
}

static char *dest_path(const em_file *f, const char *backend)
{
    return em_dest_path(f->root, backend, f->path);
}

/* ---- the per-file decisions ------------------------------------------ */

/* Does d move as a custom op's kernel (custom_ops.h)? */
static bool custom_kernel(const ctx *c, const em_def *d)
{
    return em_customs_moves(c->sel->customs, d);
}

static bool moving_def(ctx *c, const em_file *f, const em_def *d)
{
    return d->is_function && d->backend[0] && (d->op[0] || custom_kernel(c, d)) && !d->in_backends &&
           !d->in_macro &&
           !f->parse_error && em_select_backend(c->sel, d->backend) &&
           em_select_op(c->sel, d->op) && el_bounds_contain(&c->t->bounds, f->path);
}

static long def_by_name(const em_tree *t, const fplan *p, const char *name)
{
    for (size_t i = 0; i < p->nd; i++)
        if (!strcmp(t->defs[p->d0 + i].name, name))
            return (long)i;
    return -1;
}

/* Mark, from the definitions flagged in `from`, every static they use
 * (transitively) in `mark`. */
static void reach(const em_tree *t, const fplan *p, const bool *from, bool *mark)
{
    size_t n = p->nd;
    size_t *stack = el_xmalloc((n + 1) * sizeof *stack);
    size_t sp = 0;
    for (size_t i = 0; i < n; i++)
        if (from[i]) {
            mark[i] = true;
            stack[sp++] = i;
        }
    while (sp) {
        const em_def *d = &t->defs[p->d0 + stack[--sp]];
        for (size_t u = 0; u < d->n_uses; u++) {
            long k = def_by_name(t, p, d->uses[u]);
            if (k >= 0 && !mark[k] && t->defs[p->d0 + k].is_static) {
                mark[k] = true;
                stack[sp++] = (size_t)k;
            }
        }
    }
    free(stack);
}

static void plan_file(ctx *c, size_t fi)
{
    const em_tree *t = c->t;
    fplan *p = &c->fp[fi];
    const em_file *f = p->f;
    p->role = el_xcalloc(p->nd + 1, 1);
    bool *roots = el_xcalloc(p->nd + 1, sizeof *roots);
    size_t n_roots = 0;
    for (size_t i = 0; i < p->nd; i++) {
        const em_def *d = &t->defs[p->d0 + i];
        if (d->backend[0] && !d->in_backends && em_select_backend(c->sel, d->backend)) {
            if (f->parse_error) {
                if (d->op[0] && em_select_op(c->sel, d->op))
                    manual_def(c, d, "%s is not moved: its file does not parse (fix it, or "
                                     "move it by hand)", d->name);
                continue;
            }
            if (!el_bounds_contain(&t->bounds, f->path)) {
                if (d->op[0] && em_select_op(c->sel, d->op))
                    manual_def(c, d, "%s is not moved: its file is reached through a symbolic "
                                     "link that leaves the tree given, and such files are only "
                                     "read (move it by hand)", d->name);
                continue;
            }
            if (d->in_macro) {
                if (d->op[0] && em_select_op(c->sel, d->op))
                    manual_def(c, d, "%s is defined by a macro expansion: move it into "
                                     "backends/ by hand", d->name);
                continue;
            }
            if (!d->op[0] && !d->is_static && d->is_function && !c->sel->n_ops &&
                !custom_kernel(c, d)) {
                /* in a legacy directory every definition has a backend, but
                 * only eh_<backend>_<name> ones name an op */
                char prefix[80];
                snprintf(prefix, sizeof prefix, "eh_%s_", d->backend);
                size_t pl = strlen(prefix);
                char why[1024];
                const em_custom_reject *rj = em_customs_reject_of(c->sel->customs, d);
                if (rj && rj->unsafe)
                    continue; /* its op waits for --unsafe-fixes: the plan lists it */
                const char *not_custom = rj ? rj->why : NULL;
                if (strncmp(d->name, prefix, pl) == 0 && not_custom)
                    snprintf(why, sizeof why,
                             "%%s is not moved: no frontend op eh_%s in libeh/ops.def, and it "
                             "cannot become a custom op: %s (adapt it and rerun, or write the op "
                             "by hand: docs/extending.md)", d->name + pl, not_custom);
                else if (strncmp(d->name, prefix, pl) == 0)
                    snprintf(why, sizeof why,
                             "%%s is not moved: no frontend op eh_%s in libeh/ops.def: add the "
                             "op first (docs/adding-an-op.md)", d->name + pl);
                else
                    snprintf(why, sizeof why,
                             "%%s is not moved: it is not an %s<op> implementation; move it "
                             "into backends/%s/ or out of the legacy directory by hand",
                             prefix, d->backend);
                manual_def(c, d, why, d->name);
                continue;
            }
        }
        if (!moving_def(c, f, d))
            continue;
        if (!p->backend[0])
            snprintf(p->backend, sizeof p->backend, "%s", d->backend);
        if (strcmp(p->backend, d->backend)) {
            char why[512];
            snprintf(why, sizeof why, "%%s is not moved: %s also holds backend %s's code; "
                                      "split the file by hand", el_path_base(f->path), p->backend);
            manual_def(c, d, why, d->name);
            continue;
        }
        roots[i] = true;
        n_roots++;
    }
    if (!n_roots) {
        free(roots);
        return;
    }
    bool *with = el_xcalloc(p->nd + 1, sizeof *with);
    bool *stay_roots = el_xcalloc(p->nd + 1, sizeof *stay_roots);
    bool *stays = el_xcalloc(p->nd + 1, sizeof *stays);
    bool *one = el_xcalloc(p->nd + 1, sizeof *one);
    bool *from_one = el_xcalloc(p->nd + 1, sizeof *from_one);
    const char *to = NULL;
    bool all = true;
    while (n_roots) {
        memset(with, 0, p->nd * sizeof *with);
        memset(stays, 0, p->nd * sizeof *stays);
        reach(t, p, roots, with);
        /* what stays: everything not reached from moving code, and what it uses */
        for (size_t i = 0; i < p->nd; i++)
            stay_roots[i] = !with[i];
        reach(t, p, stay_roots, stays);
        all = true;
        for (size_t i = 0; i < p->nd; i++) {
            if (roots[i])
                p->role[i] = R_MOVE;
            else if (with[i])
                p->role[i] = stays[i] ? R_HELPER_COPY : R_HELPER_MOVE;
            else
                p->role[i] = R_STAY;
            all &= p->role[i] == R_MOVE || p->role[i] == R_HELPER_MOVE;
        }
        if (all)
            break;
        /* Part of the file moves: code that needs a type, constant or
         * macro of this file (scan: local_deps) cannot go alone, nor code
         * that shares a static variable with code that stays (a copy
         * would split its state; a const one is copied). */
        bool changed = false;
        for (size_t i = 0; i < p->nd; i++) {
            if (!roots[i])
                continue;
            memset(one, 0, p->nd * sizeof *one);
            memset(from_one, 0, p->nd * sizeof *from_one);
            one[i] = true;
            reach(t, p, one, from_one);
            bool local = false;
            long shared = -1;
            for (size_t k = 0; k < p->nd; k++) {
                const em_def *u = &t->defs[p->d0 + k];
                local |= from_one[k] && u->local_deps;
                if (shared < 0 && from_one[k] && p->role[k] == R_HELPER_COPY && !u->is_function &&
                    !u->is_const)
                    shared = (long)k;
            }
            if (!local && shared < 0)
                continue;
            const em_def *d = &t->defs[p->d0 + i];
            if (local) {
                el_buf names = {0};
                for (size_t k = 0; k < p->nd; k++) {
                    const em_def *u = &t->defs[p->d0 + k];
                    for (size_t m = 0; from_one[k] && m < u->n_locals; m++)
                        if (!strstr(el_buf_str(&names), u->locals[m]))
                            el_buf_printf(&names, "%s%s", names.n ? ", " : "", u->locals[m]);
                }
                char why[768];
                snprintf(why, sizeof why, "%%s is not moved: it uses %s, defined in its file, and "
                                          "the rest of the file stays; move them together by hand",
                         names.n ? el_buf_str(&names) : "a type, constant or macro");
                el_buf_free(&names);
                manual_def(c, d, why, d->name);
            } else {
                char why[512];
                snprintf(why, sizeof why, "%%s shares static variable %s with code that stays: "
                                          "move them together by hand",
                         t->defs[p->d0 + shared].name);
                manual_def(c, d, why, d->name);
            }
            roots[i] = false;
            n_roots--;
            changed = true;
        }
        if (!changed)
            break;
    }
    for (size_t i = 0; i < p->nd && n_roots; i++)
        if (roots[i] && t->defs[p->d0 + i].dest && !to)
            to = t->defs[p->d0 + i].dest;
    char *target = n_roots ? (to ? el_xstrdup(to) : dest_path(f, p->backend)) : NULL;
    if (target && !el_bounds_contain(&t->bounds, target)) {
        /* nothing is created above what the user named */
        for (size_t i = 0; i < p->nd; i++)
            if (roots[i])
                manual_def(c, &t->defs[p->d0 + i], "%s is not moved: its destination lies outside "
                                                   "the tree given; run ember-migrate on the "
                                                   "directory that holds backends/ (or add a "
                                                   ".emberlint.json there)", t->defs[p->d0 + i].name);
        n_roots = 0;
        free(target);
        target = NULL;
    }
    if (n_roots) {
        p->moves = true;
        p->dest = target;
        /* A whole source (.c, .cpp) moves as it is (appended when its
         * destination exists); a header moves whole only when nothing is
         * there yet. */
        p->whole = all && (el_path_is_unit(f->path) || access(p->dest, F_OK) != 0);
    } else {
        memset(p->role, R_STAY, p->nd);
    }
    free(roots);
    free(with);
    free(stay_roots);
    free(stays);
    free(one);
    free(from_one);
}

/* A legacy header moves with the definitions it declares. */
static void plan_header(ctx *c, size_t fi)
{
    const em_tree *t = c->t;
    fplan *p = &c->fp[fi];
    const em_file *f = p->f;
    if (p->moves || !f->legacy_backend[0] || f->parse_error || !el_path_is_header(f->path) ||
        !em_select_backend(c->sel, f->legacy_backend) || p->nd ||
        !el_bounds_contain(&t->bounds, f->path))
        return;
    const em_text *tx = mv_text_of(c, f->path);
    if (!tx)
        return;
    size_t n;
    bool other;
    char **names = mv_header_decls(tx->data, tx->len, &n, &other);
    bool ok = n > 0 && !other;
    for (size_t i = 0; i < n && ok; i++) {
        bool moved = false;
        for (size_t k = 0; k < t->n_files && !moved; k++) {
            const fplan *q = &c->fp[k];
            if (!q->moves)
                continue;
            long d = def_by_name(t, q, names[i]);
            moved = d >= 0 && q->role[d] == R_MOVE;
        }
        ok = moved;
    }
    mv_free_strs(names, n);
    /* a file that does not parse is never edited: a header it includes stays */
    for (size_t i = 0; i < t->n_incs && ok; i++)
        if (t->incs[i].resolved && !strcmp(t->incs[i].resolved, f->path)) {
            size_t fi2 = mv_file_index(t, t->incs[i].path);
            ok = fi2 == (size_t)-1 || !t->files[fi2].parse_error;
        }
    if (!ok)
        return;
    char *d = dest_path(f, f->legacy_backend);
    bool taken = access(d, F_OK) == 0 || !el_bounds_contain(&t->bounds, d);
    for (size_t k = 0; k < t->n_files && !taken; k++)
        taken = c->fp[k].dest && !strcmp(c->fp[k].dest, d);
    if (taken) {
        free(d);
        return;
    }
    snprintf(p->backend, sizeof p->backend, "%s", f->legacy_backend);
    p->dest = d;
    p->moves = p->whole = true;
}

/* ---- destinations ----------------------------------------------------- */

static dest *get_dest(ctx *c, const char *path)
{
    for (size_t i = 0; i < c->n_dests; i++)
        if (!strcmp(c->dests[i].path, path))
            return &c->dests[i];
    el_grow(&c->dests, &c->cap_dests, c->n_dests + 1, sizeof *c->dests);
    dest *d = &c->dests[c->n_dests++];
    memset(d, 0, sizeof *d);
    d->path = el_xstrdup(path);
    d->mode = 0644;
    if (access(path, F_OK) == 0) {
        size_t fi = mv_file_index(c->t, path);
        d->hash = fi != (size_t)-1 ? &c->t->files[fi].hash : NULL;
        d->old = em_texts_get(c->texts, path, d->hash, c->err);
        if (!d->old)
            return NULL;
        d->exists = true;
        d->mode = d->old->mode;
        mv_keys_from_text(d, d->old->data, d->old->len);
    }
    return d;
}

static void dest_add_include(dest *d, const char *line)
{
    bool a;
    const char *nm;
    size_t nn;
    if (!el_include_line(line, strlen(line), &a, &nm, &nn))
        return;
    char *dir = el_path_dirname(d->path);
    char *k = mv_include_key(dir, a, nm, nn);
    free(dir);
    if (mv_dest_has_key(d, k)) {
        free(k);
        return;
    }
    mv_dest_add_key(d, k);
    el_buf_puts(&d->incs, line);
}

static void add_range(em_moves *m, const char *path, size_t b, size_t e)
{
    el_grow(&m->moved, &m->cap_moved, m->n_moved + 1, sizeof *m->moved);
    m->moved[m->n_moved++] = (em_range){el_xstrdup(path), b, e};
}

/* The PATH argument path was found under (the deepest, when several
 * hold it), real and absolute; a file named itself gives its directory.
 * NULL when it came from -p's compilation database alone. */
static char *named_root(const em_select *sel, const char *path)
{
    char *best = NULL;
    for (size_t i = 0; i < sel->n_paths; i++) {
        char *real = el_path_real(sel->paths[i]);
        if (!real)
            continue;
        char *cand = NULL;
        if (!strcmp(real, path)) {
            cand = el_path_dirname(real);
        } else {
            char *rel = el_path_under(path, real);
            if (rel)
                cand = el_xstrdup(real);
            free(rel);
        }
        free(real);
        if (cand && (!best || strlen(cand) > strlen(best))) {
            free(best);
            best = cand;
        } else {
            free(cand);
        }
    }
    return best;
}

/* The directory of a file that leaves it: removed when emptied, with
 * its parents, never above what the user named. */
static void add_rmdir(ctx *c, const char *path)
{
    em_moves *m = c->out;
    char *dir = el_path_dirname(path);
    for (size_t i = 0; i < m->n_rmdirs; i++)
        if (!strcmp(m->rmdirs[i].dir, dir)) {
            free(dir);
            return;
        }
    el_grow(&m->rmdirs, &m->cap_rmdirs, m->n_rmdirs + 1, sizeof *m->rmdirs);
    m->rmdirs[m->n_rmdirs++] = (em_rmdir){dir, named_root(c->sel, path)};
}

/* The comment block a file starts with (its licence, usually): up to the
 * end of its last line; 0 when the file does not start with a comment. */
static size_t leading_comment(const char *t, size_t n)
{
    size_t i = 0, end = 0;
    for (;;) {
        while (i < n && (t[i] == ' ' || t[i] == '\t'))
            i++;
        if (i + 1 < n && t[i] == '/' && t[i + 1] == '*') {
            const char *e = strstr(t + i + 2, "*/");
            if (!e)
                return end;
            i = (size_t)(e - t) + 2;
        } else if (i + 1 < n && t[i] == '/' && t[i + 1] == '/') {
            while (i < n && t[i] != '\n')
                i++;
        } else {
            return end;
        }
        while (i < n && t[i] != '\n')
            i++;
        end = i = i < n ? i + 1 : n;
    }
}

/* A destination created from f's code takes f's line endings, and, from
 * parts, f's leading comment unless the moved code starts with it. */
static void style_dest(dest *d, const em_text *tx, size_t first_begin, bool whole)
{
    if (d->exists || d->styled)
        return;
    d->styled = true;
    d->crlf = el_text_crlf(tx->data, tx->len);
    size_t lead = whole ? 0 : leading_comment(tx->data, tx->len);
    if (lead && lead <= first_begin)
        d->lead = el_xstrndup(tx->data, lead);
}

/* A file moving whole: its text with its includes re-pathed. */
static int emit_whole(ctx *c, size_t fi)
{
    fplan *p = &c->fp[fi];
    const em_file *f = p->f;
    const em_text *tx = mv_text_of(c, f->path);
    if (!tx)
        return -1;
    size_t ni, i0 = incs_of(c->t, f->path, &ni);
    el_buf moved = {0}, body = {0};
    el_buf incl = {0};
    size_t at = 0, body_at = 0;
    for (size_t k = 0; k < ni; k++) {
        const em_include *inc = &c->t->incs[i0 + k];
        if (inc->begin < at || inc->end > tx->len)
            continue;
        char *line = mv_include_line(c, tx, inc, p->dest);
        el_buf_putn(&moved, tx->data + at, inc->begin - at);
        el_buf_puts(&moved, line);
        el_buf_putn(&body, tx->data + body_at, inc->begin - body_at);
        el_buf_puts(&incl, line);
        at = body_at = inc->end;
        bool a;
        char *sp = mv_respell(c, inc, p->dest, &a);
        c->out->n_repathed += sp != NULL;
        free(sp);
        free(line);
    }
    el_buf_putn(&moved, tx->data + at, tx->len - at);
    el_buf_putn(&body, tx->data + body_at, tx->len - body_at);
    dest *d = get_dest(c, p->dest);
    if (!d) {
        el_buf_free(&moved);
        el_buf_free(&body);
        el_buf_free(&incl);
        return -1;
    }
    style_dest(d, tx, 0, true);
    if (!d->exists && !d->base.n && !d->body.n && !d->incs.n) {
        el_buf_putn(&d->base, moved.s ? moved.s : "", moved.n);
        d->mode = tx->mode;
        d->from = f->path;
        mv_keys_from_text(d, el_buf_str(&d->base), d->base.n);
    } else {
        /* appended: its includes merge, the rest follows */
        const char *s = el_buf_str(&incl);
        while (*s) {
            const char *e = strchr(s, '\n');
            size_t len = e ? (size_t)(e - s) + 1 : strlen(s);
            char *line = el_xstrndup(s, len);
            dest_add_include(d, line);
            free(line);
            s += len;
        }
        const char *b = el_buf_str(&body);
        while (*b == '\n' || *b == '\r')
            b++;
        if (d->body.n)
            el_buf_putc(&d->body, '\n');
        el_buf_puts(&d->body, b);
    }
    el_grow(&c->out->deletes, &c->out->cap_deletes, c->out->n_deletes + 1,
            sizeof *c->out->deletes);
    c->out->deletes[c->out->n_deletes++] = el_xstrdup(f->path);
    add_rmdir(c, f->path);
    add_range(c->out, f->path, 0, tx->len);
    el_buf_free(&moved);
    el_buf_free(&body);
    el_buf_free(&incl);
    return 0;
}

/* Is `need` the file `from` or reached from it through the tree's
 * includes? */
static bool reaches(ctx *c, const char *from, const char *need, int depth)
{
    if (!strcmp(from, need))
        return true;
    if (depth > 32)
        return false;
    size_t n, i0 = incs_of(c->t, from, &n);
    for (size_t k = 0; k < n; k++)
        if (c->t->incs[i0 + k].resolved && reaches(c, c->t->incs[i0 + k].resolved, need, depth + 1))
            return true;
    return false;
}

/* Part of a file moves: cut (or copy) the code, carry its includes. */
static int emit_part(ctx *c, size_t fi)
{
    fplan *p = &c->fp[fi];
    const em_file *f = p->f;
    const em_tree *t = c->t;
    const em_text *tx = mv_text_of(c, f->path);
    if (!tx)
        return -1;
    size_t ni, i0 = incs_of(t, f->path, &ni);
    bool *need_inc = el_xcalloc(ni + 1, sizeof *need_inc);
    bool unexplained = false;
    for (size_t i = 0; i < p->nd; i++) {
        if (p->role[i] == R_STAY)
            continue;
        const em_def *d = &t->defs[p->d0 + i];
        for (size_t u = 0; u < d->n_needs; u++) {
            if (!strcmp(d->needs[u], f->path))
                continue;
            bool found = false;
            for (size_t k = 0; k < ni; k++)
                if (t->incs[i0 + k].resolved && reaches(c, t->incs[i0 + k].resolved, d->needs[u], 0)) {
                    need_inc[k] = found = true;
                }
            unexplained |= !found;
        }
        /* the header that declares it (else -Wmissing-prototypes) */
        if (p->role[i] == R_MOVE)
            for (size_t k = 0; k < ni; k++) {
                const em_include *inc = &t->incs[i0 + k];
                if (inc->resolved && mv_file_index(t, inc->resolved) != (size_t)-1 &&
                    mv_header_declares(c, inc->resolved, d->name))
                    need_inc[k] = true;
            }
    }
    /* a need no directive of the tree explains is in a system header:
     * carry every include that leads outside the tree */
    if (unexplained)
        for (size_t k = 0; k < ni; k++)
            if (!t->incs[i0 + k].resolved ||
                mv_file_index(t, t->incs[i0 + k].resolved) == (size_t)-1)
                need_inc[k] = true;
    dest *d = get_dest(c, p->dest);
    if (!d) {
        free(need_inc);
        return -1;
    }
    size_t first_begin = tx->len;
    for (size_t i = 0; i < p->nd; i++)
        if (p->role[i] != R_STAY && t->defs[p->d0 + i].begin < first_begin)
            first_begin = t->defs[p->d0 + i].begin;
    style_dest(d, tx, first_begin, false);
    for (size_t k = 0; k < ni; k++) {
        if (!need_inc[k] || t->incs[i0 + k].skipped)
            continue; /* a skipped include goes nowhere without its #if */
        char *line = mv_include_line(c, tx, &t->incs[i0 + k], p->dest);
        dest_add_include(d, line);
        free(line);
    }
    free(need_inc);
    for (size_t i = 0; i < p->nd; i++) {
        if (p->role[i] == R_STAY)
            continue;
        const em_def *x = &t->defs[p->d0 + i];
        size_t b = x->begin, e = x->end <= tx->len ? x->end : tx->len;
        if (d->body.n)
            el_buf_putc(&d->body, '\n');
        el_buf_putn(&d->body, tx->data + b, e - b);
        if (e == b || tx->data[e - 1] != '\n')
            el_buf_putc(&d->body, '\n');
        if (p->role[i] == R_HELPER_COPY)
            continue;
        /* cut it, with one of the blank lines around it */
        size_t ce = e;
        if (ce < tx->len && tx->data[ce] == '\n' && (b == 0 || (b >= 2 && tx->data[b - 1] == '\n' &&
                                                                tx->data[b - 2] == '\n')))
            ce++;
        el_edits_add(&c->out->edits, f->path, b, ce, "", EM_GROUP_MOVE);
        add_range(c->out, f->path, b, e);
    }
    return 0;
}

static void merge_insertions(el_edits *e)
{
    el_edits_sort_unique(e);
    size_t k = 0;
    for (size_t i = 0; i < e->n; i++) {
        el_edit *x = &e->v[i];
        if (k && x->begin == x->end && e->v[k - 1].begin == x->begin &&
            e->v[k - 1].end == x->end && !strcmp(e->v[k - 1].path, x->path) &&
            e->v[k - 1].group == x->group) {
            char *t = el_xasprintf("%s%s", e->v[k - 1].text, x->text);
            free(e->v[k - 1].text);
            e->v[k - 1].text = t;
            free(x->path);
            free(x->text);
            continue;
        }
        e->v[k++] = *x;
    }
    e->n = k;
}

static void emit_dest(ctx *c, dest *d)
{
    if (d->exists) {
        size_t n = d->old->len;
        size_t pos = mv_after_last_include(d->old->data, n);
        el_buf b = {0};
        if (d->incs.n && pos < n)
            el_edits_add(&c->out->edits, d->path, pos, pos, el_buf_str(&d->incs), EM_GROUP_MOVE);
        else if (d->incs.n)
            el_buf_puts(&b, el_buf_str(&d->incs));
        if (d->body.n) {
            if (n && d->old->data[n - 1] != '\n')
                el_buf_putc(&b, '\n');
            if (n)
                el_buf_putc(&b, '\n');
            el_buf_puts(&b, el_buf_str(&d->body));
        }
        if (b.n)
            el_edits_add(&c->out->edits, d->path, n, n, el_buf_str(&b), EM_GROUP_MOVE);
        el_buf_free(&b);
        return;
    }
    el_buf out = {0};
    const char *base = el_buf_str(&d->base);
    size_t pos = mv_after_last_include(base, d->base.n);
    if (d->lead) {
        el_buf_puts(&out, d->lead);
        el_buf_putc(&out, '\n');
    }
    el_buf_putn(&out, base, pos);
    el_buf_puts(&out, el_buf_str(&d->incs));
    el_buf_puts(&out, base + pos);
    if (d->body.n) {
        if (out.n && out.s[out.n - 1] != '\n')
            el_buf_putc(&out, '\n');
        if (out.n)
            el_buf_putc(&out, '\n');
        el_buf_puts(&out, el_buf_str(&d->body));
    }
    /* one line ending throughout: its first source's */
    char *styled = el_text_eol(el_buf_str(&out), d->crlf);
    el_buf_free(&out);
    el_buf_puts(&out, styled);
    free(styled);
    em_create *cr = mv_add_create(c, d->path, &out, d->mode);
    /* the moved file, re-pathed and perhaps extended: a rename */
    cr->from = d->from ? el_xstrdup(d->from) : NULL;
}

/* Includes of moved files, in files that stay. */
static void repath_staying(ctx *c)
{
    const em_tree *t = c->t;
    for (size_t i = 0; i < t->n_incs; i++) {
        const em_include *inc = &t->incs[i];
        size_t fi = mv_file_index(t, inc->path);
        if (fi == (size_t)-1 || c->fp[fi].whole || t->files[fi].parse_error || !inc->resolved)
            continue;
        size_t ti = mv_file_index(t, inc->resolved);
        if (ti == (size_t)-1 || !c->fp[ti].whole)
            continue;
        const em_text *tx = mv_text_of(c, inc->path);
        if (!tx)
            return;
        bool angled;
        char *sp = mv_respell(c, inc, inc->path, &angled);
        size_t b, e;
        if (sp && mv_spelled_range(tx, inc, &b, &e)) {
            char *txt = el_xasprintf(angled ? "<%s>" : "\"%s\"", sp);
            el_edits_add(&c->out->edits, inc->path, b, e, txt, EM_GROUP_REPATH);
            c->out->n_repathed++;
            free(txt);
        }
        free(sp);
    }
}

int em_moves_compute(const em_tree *t, const em_select *sel, em_texts *texts, em_moves *out,
                     em_manuals *manual, char **err)
{
    memset(out, 0, sizeof *out);
    *err = NULL;
    ctx c = {.t = t, .sel = sel, .texts = texts, .out = out, .manual = manual, .err = err};
    c.fp = el_xcalloc(t->n_files + 1, sizeof *c.fp);
    for (size_t i = 0, d = 0; i < t->n_files; i++) {
        c.fp[i].f = &t->files[i];
        while (d < t->n_defs && strcmp(t->defs[d].path, t->files[i].path) < 0)
            d++;
        c.fp[i].d0 = d;
        while (d < t->n_defs && !strcmp(t->defs[d].path, t->files[i].path))
            d++;
        c.fp[i].nd = d - c.fp[i].d0;
    }
    int rc = 0;
    for (size_t i = 0; i < t->n_files; i++)
        plan_file(&c, i);
    for (size_t i = 0; i < t->n_files; i++)
        plan_header(&c, i);
    if (*err)
        rc = -1;
    for (size_t i = 0; i < t->n_files && !rc; i++) {
        fplan *p = &c.fp[i];
        if (!p->moves)
            continue;
        for (size_t k = 0; k < p->nd; k++) {
            if (p->role[k] == R_STAY)
                continue;
            el_grow(&out->defs_moved, &out->cap_defs_moved, out->n_defs_moved + 1,
                    sizeof *out->defs_moved);
            out->defs_moved[out->n_defs_moved++] =
                (em_moved_def){&t->defs[p->d0 + k], el_xstrdup(p->dest),
                               p->role[k] == R_HELPER_COPY};
        }
        rc = p->whole ? emit_whole(&c, i) : emit_part(&c, i);
        for (size_t k = 0; k < p->nd && !rc; k++)
            if (p->role[k] == R_MOVE) {
                /* a custom op's kernel is registered by custom_gen.h's unit */
                if (!custom_kernel(&c, &t->defs[p->d0 + k]))
                    mv_register_op(&c, p, &t->defs[p->d0 + k]);
                out->n_defs++;
            }
    }
    if (!rc)
        repath_staying(&c);
    for (size_t i = 0; i < c.n_dests && !rc; i++)
        emit_dest(&c, &c.dests[i]);
    for (size_t i = 0; i < c.n_kdefs && !rc; i++)
        rc = mv_emit_kdef(&c, &c.kdefs[i]);
    if (!rc && *err)
        rc = -1;
    merge_insertions(&out->edits);

    for (size_t i = 0; i < t->n_files; i++) {
        free(c.fp[i].role);
        free(c.fp[i].dest);
    }
    free(c.fp);
    for (size_t i = 0; i < c.n_dests; i++) {
        free(c.dests[i].path);
        el_buf_free(&c.dests[i].base);
        el_buf_free(&c.dests[i].incs);
        el_buf_free(&c.dests[i].body);
        free(c.dests[i].lead);
        mv_free_strs(c.dests[i].keys, c.dests[i].n_keys);
    }
    free(c.dests);
    for (size_t i = 0; i < c.n_kdefs; i++) {
        free(c.kdefs[i].path);
        free(c.kdefs[i].v);
    }
    free(c.kdefs);
    return rc;
}

bool em_moves_inside(const em_moves *m, const char *path, size_t begin, size_t end)
{
    for (size_t i = 0; i < m->n_moved; i++)
        if (!strcmp(m->moved[i].path, path) && begin >= m->moved[i].begin &&
            end <= m->moved[i].end && (begin < m->moved[i].end || begin == end))
            return true;
    return false;
}

void em_moves_free(em_moves *m)
{
    for (size_t i = 0; i < m->n_defs_moved; i++)
        free(m->defs_moved[i].dest);
    free(m->defs_moved);
    el_edits_free(&m->edits);
    for (size_t i = 0; i < m->n_creates; i++) {
        free(m->creates[i].path);
        free(m->creates[i].text);
        free(m->creates[i].from);
    }
    free(m->creates);
    mv_free_strs(m->deletes, m->n_deletes);
    for (size_t i = 0; i < m->n_rmdirs; i++) {
        free(m->rmdirs[i].dir);
        free(m->rmdirs[i].stop);
    }
    free(m->rmdirs);
    for (size_t i = 0; i < m->n_moved; i++)
        free(m->moved[i].path);
    free(m->moved);
    memset(m, 0, sizeof *m);
}
