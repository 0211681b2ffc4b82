/* migrate/custom_ops.c -- which legacy backend functions become custom
 * ops (custom_ops.h). */
#include "custom_ops.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mem.h"
#include "options.h"
#include "path.h"
#include "rewrite.h"
#include "strbuf.h"
#include "texts.h"

/* ---- the decision ------------------------------------------------------- */

char *em_customs_file(const char *root, const char *ns, int which)
{
    static const char *const suffix[EM_CUSTOM_FILES] = {"_ops.h", "_ops.c", "_ops_register.c"};
    char base[128];
    snprintf(base, sizeof base, "%s%s", ns, suffix[which]);
    return el_path_join(root, base);
}

/* A file custom_gen.h would write for root that exists already, or NULL. */
static char *existing_file(const char *root, const char *ns)
{
    for (int k = 0; k < EM_CUSTOM_FILES; k++) {
        char *p = em_customs_file(root, ns, k);
        if (access(p, F_OK) == 0)
            return p;
        free(p);
    }
    return NULL;
}

static const em_def *def_of(const em_tree *t, const em_cfn *f)
{
    for (size_t i = 0; i < t->n_defs; i++)
        if (t->defs[i].line == f->line && !strcmp(t->defs[i].name, f->name) &&
            !strcmp(t->defs[i].path, f->path))
            return &t->defs[i];
    return NULL;
}

/* Is a function of this name used by frontend code (an EH102 site)? */
static bool used_by_frontend(const em_tree *t, const char *name)
{
    char quoted[160];
    snprintf(quoted, sizeof quoted, "'%s'", name);
    for (size_t i = 0; i < t->findings.n; i++)
        if (!strcmp(t->findings.v[i].rule, "EH102") && strstr(t->findings.v[i].message, quoted))
            return true;
    return false;
}

/* The directory the application's generated files go to: the one whose
 * backends/ holds (or will hold) the kernel. */
static char *root_of(const em_tree *t, const em_cfn *f)
{
    const em_file *ef = em_tree_file(t, f->path);
    if (ef && ef->backend[0]) { /* <root>/backends/<b>/file.c */
        char *dir = el_path_dirname(f->path), *up = el_path_dirname(dir), *root = el_path_dirname(up);
        free(dir);
        free(up);
        return root;
    }
    if (ef && ef->root)
        return el_xstrdup(ef->root);
    return el_xstrdup(t->root ? t->root : el_cwd());
}

typedef struct group {
    const char *rest;
    const em_cfn **defs;    /* non-static definitions, by backend */
    size_t n;
    bool wanted;            /* must move, or frontend uses it */
    bool used;              /* frontend uses it */
} group;

static int cmp_fn_backend(const void *a, const void *b)
{
    const em_cfn *x = *(const em_cfn *const *)a, *y = *(const em_cfn *const *)b;
    return strcmp(x->backend, y->backend);
}

/* Why this one definition cannot be a custom op's kernel, or NULL. */
static char *why_fn(const em_tree *t, const em_cfn *f)
{
    const em_file *ef = em_tree_file(t, f->path);
    if (ef && ef->parse_error)
        return el_xasprintf("%s's file does not parse", f->name);
    if (f->in_macro)
        return el_xasprintf("%s is defined by a macro expansion", f->name);
    if (f->variadic)
        return el_xasprintf("%s takes a variable argument list", f->name);
    if (f->result_kind != EM_PARAM_TENSOR)
        return el_xasprintf("%s returns '%s', not 'eh_tensor *': a custom op's result is a tensor", f->name,
                   f->result);
    size_t tensors = 0;
    for (size_t k = 0; k < f->n_params; k++) {
        const em_cparam *p = &f->params[k];
        if (p->kind == EM_PARAM_OTHER)
            return el_xasprintf("%s takes non-tensor state: parameter %s%s%sis %s", f->name,
                       p->name[0] ? "'" : "", p->name, p->name[0] ? "' " : "", p->why);
        tensors += p->kind != EM_PARAM_SCALAR;
    }
    if (tensors > 16)
        return el_xasprintf("%s takes %zu tensors; a custom op takes at most 16", f->name, tensors);
    return NULL;
}

static bool backend_selected(const em_opts *o, const char *b)
{
    return em_backend_selected(o, b);
}

/* Why the group cannot become a custom op, or NULL; *deferred when the
 * only reason is the selection (--backend): a later run makes it. */
static char *why_group(const em_opts *o, const em_tree *t, const group *g, char **roots,
                       bool *deferred)
{
    *deferred = false;
    for (size_t i = 0; i < g->n; i++) {
        char *w = why_fn(t, g->defs[i]);
        if (w)
            return w;
    }
    for (size_t i = 1; i < g->n; i++)
        if (strcmp(g->defs[i]->type, g->defs[0]->type) != 0)
            return el_xasprintf("its signature differs between backends: '%s' (%s) and '%s' (%s)",
                       g->defs[0]->shown, g->defs[0]->name, g->defs[i]->shown, g->defs[i]->name);
    for (size_t i = 1; i < g->n; i++)
        if (strcmp(g->defs[i]->backend, g->defs[i - 1]->backend) == 0)
            return el_xasprintf("backend %s defines it twice (%s:%u, %s:%u)", g->defs[i]->backend,
                       g->defs[i - 1]->path, g->defs[i - 1]->line, g->defs[i]->path,
                       g->defs[i]->line);
    for (size_t i = 1; i < g->n; i++)
        if (strcmp(roots[i], roots[0]) != 0)
            return el_xasprintf("its versions belong to different applications (%s, %s)", roots[0],
                       roots[i]);
    for (size_t i = 0; i < g->n && (*deferred = true); i++)
        if (!backend_selected(o, g->defs[i]->backend))
            return el_xasprintf("it has a version for backend %s, which --backend leaves out: a custom "
                       "op takes every backend's version at once (run without --backend, or "
                       "name them all)",
                       g->defs[i]->backend);
    *deferred = false;
    return NULL;
}

static void add_reject(em_customs *c, const char *rest, char *why, bool deferred, bool unsafe)
{
    c->rejects = el_xrealloc(c->rejects, (c->n_rejects + 1) * sizeof *c->rejects);
    em_custom_reject *r = &c->rejects[c->n_rejects++];
    snprintf(r->name, sizeof r->name, "%s", rest);
    r->why = why;
    r->deferred = deferred;
    r->unsafe = unsafe;
}

/* The wrapper's name is taken by something the tree defines or declares. */
static const char *taken(const em_tree *t, const char *wrapper)
{
    for (size_t i = 0; i < t->n_defs; i++)
        if (!strcmp(t->defs[i].name, wrapper)) {
            const em_file *f = em_tree_file(t, t->defs[i].path);
            return f ? f->display : t->defs[i].path;
        }
    return NULL;
}

static void decide(const em_opts *o, const em_tree *t, em_customs *c, group *g)
{
    char **roots = el_xcalloc(g->n + 1, sizeof *roots);
    for (size_t i = 0; i < g->n; i++)
        roots[i] = root_of(t, g->defs[i]);
    bool deferred;
    char *why = why_group(o, t, g, roots, &deferred);
    char wrapper[200], full[200];
    snprintf(wrapper, sizeof wrapper, "%s_%s", c->ns, g->rest);
    snprintf(full, sizeof full, "%s.%s", c->ns, g->rest);
    const char *at;
    if (!why && strlen(full) > 127)
        why = el_xasprintf("the op's name %s is longer than libeh's 127 characters", full);
    if (!why && (at = taken(t, wrapper)))
        why = el_xasprintf("the name of its wrapper, %s, is taken (%s): choose another --namespace",
                  wrapper, at);
    char *exists = why ? NULL : existing_file(roots[0], c->ns);
    if (exists)
        why = el_xasprintf("ember-migrate would write %s, which exists: choose another "
                           "--namespace", exists);
    free(exists);
    /* its uses become calls of the wrapper, which a caller can tell from
     * the function's (docs/ember-migrate.md, "Differences a caller can
     * see"): an unsafe change, made with --unsafe-fixes only */
    bool unsafe = false;
    if (!why && o->safe_only) {
        char *w = em_customs_unsafe_why(full);
        why = el_xasprintf("making it custom op %s changes what its callers see (%s): an unsafe "
                           "change", full, w);
        free(w);
        deferred = unsafe = true;
    }
    if (why) {
        add_reject(c, g->rest, why, deferred, unsafe);
        /* nothing in the frontend keeps it in sight of a later run */
        c->rejects[c->n_rejects - 1].kept = unsafe && !g->used;

    } else {
        c->ops = el_xrealloc(c->ops, (c->n_ops + 1) * sizeof *c->ops);
        em_custom_op *op = &c->ops[c->n_ops++];
        memset(op, 0, sizeof *op);
        snprintf(op->name, sizeof op->name, "%s", g->rest);
        snprintf(op->full, sizeof op->full, "%s", full);
        snprintf(op->wrapper, sizeof op->wrapper, "%s", wrapper);
        op->root = roots[0];
        roots[0] = NULL;
        op->kernels = el_xcalloc(g->n + 1, sizeof *op->kernels);
        op->n_kernels = g->n;
        for (size_t i = 0; i < g->n; i++) {
            op->kernels[i].fn = g->defs[i];
            op->kernels[i].def = def_of(t, g->defs[i]);
            if (!strcmp(g->defs[i]->backend, "ref"))
                snprintf(op->fallback, sizeof op->fallback, "ref");
        }
        op->sig = g->defs[0];
        if (!op->fallback[0])
            snprintf(op->fallback, sizeof op->fallback, "%s", g->defs[0]->backend);
    }
    for (size_t i = 0; i < g->n; i++)
        free(roots[i]);
    free(roots);
}

static int cmp_op(const void *a, const void *b)
{
    return strcmp(((const em_custom_op *)a)->name, ((const em_custom_op *)b)->name);
}

void em_customs_compute(const em_opts *o, const em_tree *t, em_customs *out)
{
    memset(out, 0, sizeof *out);
    const char *ns = o->scan.custom_ns;
    if (!ns || !ns[0] || !t->custom)
        return;
    snprintf(out->ns, sizeof out->ns, "%s", ns);
    const em_custom_scan *s = t->custom;
    group *gs = el_xcalloc(s->n + 1, sizeof *gs);
    size_t ng = 0;
    for (size_t i = 0; i < s->n; i++) {
        const em_cfn *f = &s->v[i];
        if (!f->definition || f->is_static)
            continue;
        group *g = NULL;
        for (size_t k = 0; k < ng && !g; k++)
            if (!strcmp(gs[k].rest, f->rest))
                g = &gs[k];
        if (!g) {
            g = &gs[ng++];
            g->rest = f->rest;
            g->defs = el_xcalloc(s->n + 1, sizeof *g->defs);
        }
        g->defs[g->n++] = f;
        const em_file *ef = em_tree_file(t, f->path);
        bool used = used_by_frontend(t, f->name);
        g->used |= used;
        g->wanted |= (ef && !ef->backend[0]) || used;
    }
    /* --op names ops of libeh/ops.def: custom ops wait for a run without it */
    for (size_t k = 0; k < ng; k++) {
        group *g = &gs[k];
        qsort(g->defs, g->n, sizeof *g->defs, cmp_fn_backend);
        if (g->wanted && o->n_ops)
            add_reject(out, g->rest,
                       el_xstrdup("--op selects ops of libeh/ops.def: custom ops are made by a "
                                  "run without --op"),
                       true, false);
        else if (g->wanted)
            decide(o, t, out, g);
        free(g->defs);
    }
    free(gs);
    if (out->n_ops)
        qsort(out->ops, out->n_ops, sizeof *out->ops, cmp_op);
}

void em_customs_free(em_customs *c)
{
    for (size_t i = 0; i < c->n_ops; i++) {
        free(c->ops[i].root);
        free(c->ops[i].kernels);
    }
    free(c->ops);
    for (size_t i = 0; i < c->n_rejects; i++)
        free(c->rejects[i].why);
    free(c->rejects);
    memset(c, 0, sizeof *c);
}

const em_custom_op *em_customs_kernel_op(const em_customs *c, const em_def *d)
{
    for (size_t i = 0; c && i < c->n_ops; i++)
        for (size_t k = 0; k < c->ops[i].n_kernels; k++)
            if (c->ops[i].kernels[k].def == d)
                return &c->ops[i];
    return NULL;
}

static const em_custom_reject *reject_of(const em_customs *c, const char *rest, size_t n)
{
    for (size_t i = 0; c && i < c->n_rejects; i++)
        if (strlen(c->rejects[i].name) == n && !strncmp(c->rejects[i].name, rest, n))
            return &c->rejects[i];
    return NULL;
}

const em_custom_reject *em_customs_reject_of(const em_customs *c, const em_def *d)
{
    if (!c || !c->ns[0] || !d->backend[0] || d->op[0] || em_customs_kernel_op(c, d))
        return NULL;
    const char *rest = strstr(d->name, d->backend);
    if (!rest)
        return NULL;
    rest += strlen(d->backend);
    while (*rest == '_')
        rest++;
    return reject_of(c, rest, strlen(rest));
}

bool em_customs_moves(const em_customs *c, const em_def *d)
{
    if (em_customs_kernel_op(c, d))
        return true;
    const em_custom_reject *r = d->is_function && !d->is_static ? em_customs_reject_of(c, d) : NULL;
    return r && r->deferred && !r->kept;
}

bool em_customs_deferred_at(const em_customs *c, const em_tree *t, const char *path,
                            unsigned line)
{
    for (size_t i = 0; c && i < t->n_defs; i++) {
        const em_def *d = &t->defs[i];
        if (d->line == line && !strcmp(d->path, path)) {
            const em_custom_reject *r = em_customs_reject_of(c, d);
            return r && r->deferred;
        }
    }
    return false;
}

const em_custom_op *em_customs_by_wrapper(const em_customs *c, const char *s, size_t n)
{
    for (size_t i = 0; c && i < c->n_ops; i++)
        if (strlen(c->ops[i].wrapper) == n && !strncmp(c->ops[i].wrapper, s, n))
            return &c->ops[i];
    return NULL;
}

char *em_customs_unsafe_why(const char *full)
{
    (void)full;
    return el_xstrdup("a NULL argument fails as an op's does, a tensor it handed back comes back "
                      "as a copy, a backend without a version of its own runs another's");
}

bool em_customs_unsafe_op_of(const em_customs *c, const em_cfn *k, char *full, size_t fn,
                             bool *kept)
{
    *kept = false;
    if (!c || !c->ns[0] || !k->definition || k->is_static)
        return false;
    for (size_t i = 0; i < c->n_ops; i++)
        for (size_t j = 0; j < c->ops[i].n_kernels; j++)
            if (c->ops[i].kernels[j].fn == k) {
                snprintf(full, fn, "%s", c->ops[i].full);
                return true;
            }
    const em_custom_reject *r = reject_of(c, k->rest, strlen(k->rest));
    if (!r || !r->unsafe)
        return false;
    *kept = r->kept;
    snprintf(full, fn, "%s.%s", c->ns, r->name);
    return true;
}

/* Does the identifier s[0..n) occur in t[0..tn)? */
static bool has_ident(const char *t, size_t tn, const char *s, size_t n)
{
    for (size_t i = 0; i + n <= tn; i++)
        if (!memcmp(t + i, s, n) && (i == 0 || !em_is_ident(t[i - 1])) &&
            (i + n == tn || !em_is_ident(t[i + n])))
            return true;
    return false;
}

/* Is the identifier s[0..n) the wrapper the linter's rewriter proposes
 * for a backend function old[0..on) names (eh_blas_norm -> app_norm)?  A
 * name a project's call template writes (a helper of its own that happens
 * to be called app_sgemm, in place of cblas_sgemm) is no proposal. */
static bool proposed_for(const el_config *cfg, const char *old, size_t on, const char *s, size_t n)
{
    for (size_t i = 0; cfg && i < on;) {
        if (!em_is_ident(old[i])) {
            i++;
            continue;
        }
        size_t b = i;
        while (i < on && em_is_ident(old[i]))
            i++;
        char name[256], target[256];
        if (i - b >= sizeof name)
            continue;
        snprintf(name, sizeof name, "%.*s", (int)(i - b), old + b);
        /* (a function with a call template is rewritten by it, never to
         * a proposed wrapper, whatever the template's text names) */
        if (!el_config_rewrite_for(cfg, name) &&
            el_rewrite_custom_wrapper(cfg, name, target, sizeof target) &&
            strlen(target) == n && !memcmp(target, s, n))
            return true;
    }
    return false;
}

/* The name of a wrapper the edit introduces for no custom op: the rest of
 * "<ns>_<rest>" into rest[]; false when there is none. */
static bool stray_wrapper(const em_customs *c, const el_config *cfg, const char *old, size_t on,
                          const char *text, char *rest, size_t rn)
{
    size_t nl = strlen(c->ns), tn = strlen(text);
    for (size_t i = 0; i < tn;) {
        if (!em_is_ident(text[i])) {
            i++;
            continue;
        }
        size_t b = i;
        while (i < tn && em_is_ident(text[i]))
            i++;
        if (i - b > nl + 1 && !memcmp(text + b, c->ns, nl) && text[b + nl] == '_' &&
            !em_customs_by_wrapper(c, text + b, i - b) && !has_ident(old, on, text + b, i - b) &&
            proposed_for(cfg, old, on, text + b, i - b)) {
            snprintf(rest, rn, "%.*s", (int)(i - b - nl - 1), text + b + nl + 1);
            return true;
        }
    }
    return false;
}

const el_fix *em_customs_fix(const em_customs *c, const em_tree *t, em_texts *texts,
                             const el_finding *f, char *why, size_t wn, bool *deferred,
                             bool *unsafe)
{
    why[0] = '\0';
    if (deferred)
        *deferred = false;
    if (unsafe)
        *unsafe = false;
    if (!f->fix || !c || !c->ns[0])
        return f->fix;
    char *cerr = NULL;
    const el_config *cfg = t->configs ? el_configs_for(t->configs, f->file, &cerr) : NULL;
    free(cerr);
    for (size_t i = 0; i < f->fix->edits.n; i++) {
        const el_edit *e = &f->fix->edits.v[i];
        if (!e->text)
            continue;
        const em_file *ef = em_tree_file(t, e->path);
        char *err = NULL;
        const em_text *tx = em_texts_get(texts, e->path, ef ? &ef->hash : NULL, &err);
        free(err);
        const char *old = tx && e->end <= tx->len && e->begin <= e->end ? tx->data + e->begin : "";
        size_t on = tx && e->end <= tx->len && e->begin <= e->end ? e->end - e->begin : 0;
        char rest[128];
        if (!stray_wrapper(c, cfg, old, on, e->text, rest, sizeof rest))
            continue;
        const em_custom_reject *r = reject_of(c, rest, strlen(rest));
        if (r && deferred)
            *deferred = r->deferred;
        if (r && unsafe)
            *unsafe = r->unsafe;
        if (r && r->unsafe) /* the rewrite is fine; making the op waits */
            snprintf(why, wn, "%s", r->why);
        else if (r)
            snprintf(why, wn, "no frontend op eh_%s in libeh/ops.def, and it cannot become "
                              "custom op %s.%s: %s",
                     rest, c->ns, rest, r->why);
        else
            snprintf(why, wn, "no frontend op eh_%s in libeh/ops.def, and the tree defines "
                              "no backend's version of it to make custom op %s.%s from",
                     rest, c->ns, rest);
        return NULL;
    }
    return f->fix;
}
