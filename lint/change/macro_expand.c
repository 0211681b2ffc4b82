/* lint/change/macro_expand.c -- a small C preprocessor's macro expansion
 * (macro_expand.h). */
#include "macro_expand.h"

#include <stdlib.h>
#include <string.h>

#include "c_text.h"
#include "mem.h"

/* ---- the strings made: an arena, freed at once ---- */

struct em_chunk {
    em_chunk *next;
    size_t used, cap;
    char data[];
};

#define EM_CHUNK 65536

static char *arena_alloc(em_expander *x, size_t len)
{
    em_chunk *c = x->arena;
    if (!c || c->cap - c->used < len) {
        size_t cap = len > EM_CHUNK ? len : EM_CHUNK;
        c = el_xmalloc(sizeof *c + cap);
        c->used = 0;
        c->cap = cap;
        c->next = x->arena;
        x->arena = c;
    }
    char *p = c->data + c->used;
    c->used += len;
    return p;
}

static const char *intern(em_expander *x, const char *t, size_t len)
{
    char *p = arena_alloc(x, len + 1);
    memcpy(p, t, len);
    p[len] = '\0';
    return p;
}

void em_init(em_expander *x, em_lookup_fn lookup, void *ud)
{
    memset(x, 0, sizeof *x);
    x->lookup = lookup;
    x->ud = ud;
    em_reset(x);
}

void em_reset(em_expander *x)
{
    x->read_budget = EM_READ_BUDGET;
    x->made_budget = EM_MADE_BUDGET;
    x->max_depth = EM_DEPTH;
    x->exhausted = false;
    x->n_strz = 0;
}

void em_release(em_expander *x)
{
    em_chunk *keep = NULL;
    while (x->arena) {
        em_chunk *c = x->arena;
        x->arena = c->next;
        if (!keep && c->cap == EM_CHUNK)
            keep = c;
        else
            free(c);
    }
    if (keep) {
        keep->used = 0;
        keep->next = NULL;
        x->arena = keep;
    }
}

void em_free(em_expander *x)
{
    while (x->arena) {
        em_chunk *c = x->arena;
        x->arena = c->next;
        free(c);
    }
    free(x->strz);
    x->strz = NULL;
    x->n_strz = x->cap_strz = 0;
}

/* ---- token lists ---- */

/* Append a token; false past the budget of tokens made (then exhausted). */
static bool push(em_expander *x, em_list *l, em_tok t)
{
    if (x->made_budget == 0) {
        x->exhausted = true;
        return false;
    }
    x->made_budget--;
    x->made++;
    if (l->n == l->cap)
        el_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = t;
    return true;
}

void em_add(em_expander *x, em_list *l, const char *t, size_t len, size_t origin)
{
    el_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = (em_tok){intern(x, t, len), origin, false, false, false, NULL};
}

/* em_add, the token after a blank or not. */
static void add_spaced(em_expander *x, em_list *l, const char *t, size_t len, size_t origin,
                       bool space)
{
    em_add(x, l, t, len, origin);
    l->v[l->n - 1].space = space;
}

void em_list_free(em_list *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

static bool ident(const char *t)
{
    return el_text_ident_start(t[0]);
}

/* ---- lexing ---- */

/* The end of the token at t[a] (a not blank). */
static size_t token_end(const char *t, size_t n, size_t a)
{
    char c = t[a];
    size_t j = el_text_skip_lexeme(t, n, a);
    if (j == a && el_text_ident_char(c)) {
        /* an identifier, or a number (with its exponent's sign) */
        bool num = !el_text_ident_start(c);
        for (j = a + 1; j < n; j++) {
            if (el_text_ident_char(t[j]) || (num && t[j] == '.'))
                continue;
            if (num && strchr("+-", t[j]) && strchr("eEpP", t[j - 1]))
                continue;
            break;
        }
    } else if (j == a) {
        j = a + (c == '#' && a + 1 < n && t[a + 1] == '#' ? 2 : 1);
    }
    return j;
}

static bool blank_at(const char *t, size_t n, size_t a)
{
    char c = t[a];
    return strchr(" \t\r\n\f\v", c) || (c == '\\' && a + 1 < n && strchr("\r\n", t[a + 1]));
}

size_t em_lex_use(em_expander *x, const char *t, size_t n, size_t i, size_t k, size_t open,
                  em_list *use)
{
    em_add(x, use, t + i, k - i, i);
    int depth = 0;
    bool space = false;
    for (size_t a = open; a < n && use->n <= EM_READ_BUDGET;) {
        char c = t[a];
        if (blank_at(t, n, a)) {
            a++;
            space = true;
            continue;
        }
        if (c == '#' && el_text_directive_at(t, a))
            return 0;
        size_t j = token_end(t, n, a);
        if (c == '/' && el_text_skip_lexeme(t, n, a) != a) {
            a = j; /* a comment */
            space = true;
            continue;
        }
        add_spaced(x, use, t + a, j - a, a, space);
        space = false;
        a = j;
        if (c == '(')
            depth++;
        else if (c == ')' && --depth == 0)
            return a;
    }
    return 0;
}

void em_lex(em_expander *x, const char *t, size_t n, em_list *l)
{
    bool space = false;
    for (size_t a = 0; a < n;) {
        if (blank_at(t, n, a)) {
            a++;
            space = true;
            continue;
        }
        size_t j = token_end(t, n, a);
        if (!(t[a] == '/' && el_text_skip_lexeme(t, n, a) != a)) {
            add_spaced(x, l, t + a, j - a, a, space);
            space = false;
        } else {
            space = true;
        }
        a = j;
    }
}

/* ---- expansion ---- */

/* A list of tokens being rescanned: the use's, or a macro's replacement
 * (macro: its name, disabled while any of its tokens is being read). */
typedef struct frame {
    em_list toks;
    size_t pos;
    const char *macro;
    bool owned;
} frame;

typedef struct reader {
    frame *v;
    size_t n, cap;
} reader;

static void rd_pop(reader *r)
{
    frame *f = &r->v[--r->n];
    if (f->owned)
        em_list_free(&f->toks);
}

/* The next token (NULL at the end); the replacements read to their end
 * are left first, re-enabling their macros. */
static const em_tok *rd_next(reader *r)
{
    while (r->n > 1 && r->v[r->n - 1].pos == r->v[r->n - 1].toks.n)
        rd_pop(r);
    frame *f = &r->v[r->n - 1];
    return f->pos < f->toks.n ? &f->toks.v[f->pos++] : NULL;
}

/* The next token without reading it (a '(' after a function-like name may
 * follow its replacement: `#define F G` then F(x)). */
static const em_tok *rd_peek(const reader *r)
{
    for (size_t k = r->n; k-- > 0;)
        if (r->v[k].pos < r->v[k].toks.n)
            return &r->v[k].toks.v[r->v[k].pos];
    return NULL;
}

/* Is the macro `name` disabled: being replaced here or around here? */
static bool disabled(const reader *r, const char *const *outer, size_t n_outer, const char *name)
{
    for (size_t k = 0; k < r->n; k++)
        if (r->v[k].macro && !strcmp(r->v[k].macro, name))
            return true;
    for (size_t k = 0; k < n_outer; k++)
        if (!strcmp(outer[k], name))
            return true;
    return false;
}

bool em_params(const char *const *tok, size_t n_tok, const char **params, size_t max, size_t *n,
               size_t *body, bool *variadic)
{
    size_t k, np = 0;
    *variadic = false;
    if (n_tok == 0 || strcmp(tok[0], "("))
        return false;
    for (k = 1; k < n_tok && strcmp(tok[k], ")"); k++) {
        const char *t = tok[k];
        if (!strcmp(t, ","))
            continue;
        if (!strcmp(t, "...")) {
            *variadic = true;
            t = "__VA_ARGS__";
        } else if (!ident(t)) {
            return false;
        }
        if (np == max)
            return false;
        params[np++] = t;
    }
    if (k == n_tok)
        return false;
    *n = np;
    *body = k + 1;
    return true;
}

static int param_index(const char *const *params, size_t n_params, const char *t)
{
    for (size_t p = 0; p < n_params; p++)
        if (!strcmp(params[p], t))
            return (int)p;
    return -1;
}

/* The string literal #x makes of argument a (its tokens, one blank
 * between them; '"' and '\' of a literal escaped), noting the origins of
 * the tokens it swallows. */
static const char *stringize(em_expander *x, const em_list *a)
{
    size_t len = 3;
    for (size_t j = 0; j < a->n; j++)
        len += 2 * strlen(a->v[j].s) + 1;
    char *out = arena_alloc(x, len), *o = out;
    *o++ = '"';
    for (size_t j = 0; j < a->n; j++) {
        const char *sp = a->v[j].s;
        bool lit = sp[0] == '"' || sp[0] == '\'' || strchr(sp, '"') || strchr(sp, '\'');
        if (j && sp[0] && a->v[j].space)
            *o++ = ' ';
        for (; *sp; sp++) {
            if (lit && (*sp == '"' || *sp == '\\'))
                *o++ = '\\';
            *o++ = *sp;
        }
        if (a->v[j].origin != EM_NO_ORIGIN) {
            el_grow(&x->strz, &x->cap_strz, x->n_strz + 1, sizeof *x->strz);
            x->strz[x->n_strz++] = a->v[j].origin;
        }
    }
    *o++ = '"';
    *o = '\0';
    return out;
}

static bool expand(em_expander *x, const em_list *in, em_list *out, const char *const *outer,
                   size_t n_outer, unsigned depth);

/* Join the tokens around each ## of a macro's body, then drop the
 * placemarkers. */
static void paste_all(em_expander *x, em_list *out, const char *by)
{
    size_t w = 0;
    for (size_t r = 0; r < out->n; r++) {
        if (out->v[r].paste && w > 0 && r + 1 < out->n) {
            em_tok *l = &out->v[w - 1], *rt = &out->v[r + 1];
            size_t ll = strlen(l->s), rl = strlen(rt->s);
            char *j = arena_alloc(x, ll + rl + 1);
            memcpy(j, l->s, ll);
            memcpy(j + ll, rt->s, rl + 1);
            /* a placemarker and a token: that token (C11 6.10.3.3p3) */
            size_t origin = !l->s[0] ? rt->origin : !rt->s[0] ? l->origin : EM_NO_ORIGIN;
            bool blue = !l->s[0] ? rt->blue : !rt->s[0] ? l->blue : false;
            const char *made = !l->s[0] ? rt->by : !rt->s[0] ? l->by : by;
            *l = (em_tok){j, origin, blue, false, l->space, made};
            r++;
            continue;
        }
        out->v[w++] = out->v[r];
    }
    out->n = w;
    w = 0;
    for (size_t r = 0; r < out->n; r++)
        if (out->v[r].s[0])
            out->v[w++] = out->v[r];
    out->n = w;
}

/* The replacement of macro d's use (args: its arguments as written, each
 * a token list; none for an object-like macro), parameters replaced --
 * each argument macro-expanded first (once, whatever the number of its
 * uses), except as an operand of # or ## -- and ## applied, into out.
 * active: the macros disabled where the use is (for its arguments). */
static bool substitute(em_expander *x, const char *name, const em_macro *d, em_list *args,
                       size_t n_args,
                       const char *const *active, size_t n_active, unsigned depth, em_list *out)
{
    const char *params[EM_ARGS];
    size_t n_params = 0, body = 0;
    em_list xargs[EM_ARGS] = {{0}};
    bool done[EM_ARGS] = {false}, ok = true, variadic = false;
    if (d->fn_like) {
        if (!em_params((const char *const *)d->tok, d->n_tok, params, EM_ARGS, &n_params, &body,
                       &variadic) ||
            variadic)
            return false;
        if (n_args == 1 && n_params == 0 && args[0].n == 0)
            n_args = 0; /* M() of a macro without parameters */
        if (n_args != n_params)
            return false;
    }
    for (size_t b = body; ok && b < d->n_tok; b++) {
        const char *t = d->tok[b];
        int p = d->fn_like ? param_index(params, n_params, t) : -1;
        if (d->fn_like && !strcmp(t, "#") && b + 1 < d->n_tok &&
            (p = param_index(params, n_params, d->tok[b + 1])) >= 0) {
            ok = push(x, out, (em_tok){stringize(x, &args[p]), EM_NO_ORIGIN, false, false, true, NULL});
            b++;
        } else if (p < 0) {
            bool paste = !strcmp(t, "##") && b > body && b + 1 < d->n_tok;
            ok = push(x, out, (em_tok){t, EM_NO_ORIGIN, false, paste, true, NULL});
        } else if ((b > body && !strcmp(d->tok[b - 1], "##")) ||
                   (b + 1 < d->n_tok && !strcmp(d->tok[b + 1], "##"))) {
            if (args[p].n == 0) /* an empty argument pastes nothing */
                ok = push(x, out, (em_tok){"", EM_NO_ORIGIN, false, false, false, NULL});
            for (size_t j = 0; ok && j < args[p].n; j++)
                ok = push(x, out, args[p].v[j]);
        } else {
            if (!done[p])
                ok = expand(x, &args[p], &xargs[p], active, n_active, depth + 1);
            done[p] = true;
            for (size_t j = 0; ok && j < xargs[p].n; j++)
                ok = push(x, out, xargs[p].v[j]);
        }
    }
    for (size_t a = 0; a < EM_ARGS; a++)
        em_list_free(&xargs[a]);
    if (ok)
        paste_all(x, out, name);
    return ok;
}

/* Expand the macros in `in`, rescanning each replacement with the tokens
 * after it, into out (C11 6.10.3); outer: the macros disabled around `in`
 * (an argument's). */
static bool expand(em_expander *x, const em_list *in, em_list *out, const char *const *outer,
                   size_t n_outer, unsigned depth)
{
    if (depth > x->max_depth)
        return false;
    reader r = {0};
    el_grow(&r.v, &r.cap, 1, sizeof *r.v);
    r.v[r.n++] = (frame){*in, 0, NULL, false};
    bool ok = true;
    const em_tok *t;
    while (ok && (t = rd_next(&r))) {
        if (x->read_budget == 0) {
            x->exhausted = true;
            ok = false;
            break;
        }
        x->read_budget--; /* each token read, at every level */
        const em_macro *d = !t->blue && ident(t->s) ? x->lookup(x->ud, t->s) : NULL;
        if (!d) {
            ok = push(x, out, *t);
            continue;
        }
        if (disabled(&r, outer, n_outer, t->s)) {
            em_tok b = *t;
            b.blue = true;
            ok = push(x, out, b);
            continue;
        }
        const em_tok *nx = d->fn_like ? rd_peek(&r) : NULL;
        if (d->fn_like && (!nx || strcmp(nx->s, "("))) {
            ok = push(x, out, *t); /* a function-like macro's name alone */
            continue;
        }
        const char *name = t->s; /* (in the arena or a definition: it stays) */
        em_list args[EM_ARGS] = {{0}}, body = {0};
        size_t n_args = 0;
        if (d->fn_like) {
            /* the arguments, up to the matching ')': copies, counted
             * against the tokens made (not read: each is read where it
             * is expanded, or put into the replacement and read there) */
            rd_next(&r);
            n_args = 1;
            int level = 0;
            for (;;) {
                const em_tok *a = rd_next(&r);
                if (!a) {
                    ok = false; /* never closed */
                    break;
                }
                if (!strcmp(a->s, "(")) {
                    level++;
                } else if (!strcmp(a->s, ")")) {
                    if (level-- == 0)
                        break;
                } else if (!strcmp(a->s, ",") && level == 0) {
                    if (n_args == EM_ARGS) {
                        ok = false;
                        break;
                    }
                    n_args++;
                    continue;
                }
                if (!(ok = push(x, &args[n_args - 1], *a)))
                    break;
            }
        }
        if (ok) {
            /* its arguments are expanded where the use is: with the macros
             * being replaced there disabled, not this one */
            const char **active = el_xcalloc(n_outer + r.n + 1, sizeof *active);
            size_t n_active = 0;
            for (size_t k = 0; k < n_outer; k++)
                active[n_active++] = outer[k];
            for (size_t k = 0; k < r.n; k++)
                if (r.v[k].macro)
                    active[n_active++] = r.v[k].macro;
            ok = substitute(x, name, d, args, n_args, active, n_active, depth, &body);
            free(active);
        }
        for (size_t a = 0; a < EM_ARGS; a++)
            em_list_free(&args[a]);
        if (!ok) {
            em_list_free(&body);
            break;
        }
        el_grow(&r.v, &r.cap, r.n + 1, sizeof *r.v);
        r.v[r.n++] = (frame){body, 0, name, true};
    }
    while (r.n > 1)
        rd_pop(&r);
    free(r.v);
    return ok;
}

bool em_expand(em_expander *x, const em_list *in, em_list *out)
{
    x->exhausted = false;
    return expand(x, in, out, NULL, 0, 0);
}
