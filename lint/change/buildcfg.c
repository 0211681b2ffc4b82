/* lint/change/buildcfg.c -- build configurations (buildcfg.h). */
#include "buildcfg.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "flags.h"
#include "mem.h"
#include "strbuf.h"

static bool ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool ident_char(char c)
{
    return ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_sep(char c)
{
    return c == ',' || c == ' ' || c == '\t' || c == '\n';
}

/* The -D/-U arguments of one set ("A=1, !B"); -1 with *err when an item
 * is not NAME, NAME=VALUE or !NAME. */
static int set_args(const char *set, char ***args, size_t *n, char **err)
{
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    for (const char *p = set; *p;) {
        if (is_sep(*p)) {
            p++;
            continue;
        }
        const char *b = p;
        while (*p && !is_sep(*p))
            p++;
        bool undef = *b == '!';
        const char *name = undef ? b + 1 : b;
        const char *q = name;
        if (!ident_start(*q))
            q = b; /* bad */
        else
            while (q < p && ident_char(*q))
                q++;
        bool ok = q > name && (q == p || (!undef && *q == '='));
        if (!ok) {
            *err = el_xasprintf("define set \"%s\": \"%.*s\" is not NAME, NAME=VALUE or !NAME",
                                set, (int)(p - b), b);
            el_args_free(v, *n);
            *n = 0;
            return -1;
        }
        el_grow(&v, &cap, *n + 1, sizeof *v);
        v[(*n)++] = el_xasprintf("-%c%.*s", undef ? 'U' : 'D', (int)(p - name), name);
    }
    *args = v;
    return 0;
}

int el_define_sets_split(const char *spec, char ***sets, size_t *n, char **err)
{
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    for (const char *p = spec;;) {
        const char *e = strchr(p, ';');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        el_grow(&v, &cap, *n + 1, sizeof *v);
        v[(*n)++] = el_xstrndup(p, len);
        char **a = NULL;
        size_t na = 0;
        if (set_args(v[*n - 1], &a, &na, err) < 0) {
            el_args_free(v, *n);
            *n = 0;
            return -1;
        }
        el_args_free(a, na);
        if (!e)
            break;
        p = e + 1;
    }
    *sets = v;
    return 0;
}

/* The define sets of a source: --define-sets, else its configuration's. */
static const char *const *sets_of(const el_buildcfgs *b, const el_source *src, size_t *n)
{
    if (b->sets) {
        *n = b->n_sets;
        return (const char *const *)b->sets;
    }
    *n = src->cfg ? src->cfg->lists[EL_DEFINE_SETS].n : 0;
    return src->cfg ? (const char *const *)src->cfg->lists[EL_DEFINE_SETS].v : NULL;
}

/* How many configurations src has, its entries and sets in *ne, *ns. */
static size_t count_of(const el_buildcfgs *b, const el_source *src, size_t *ne, size_t *ns)
{
    *ne = el_compdb_args_count(b->base, src->path);
    if (!*ne)
        *ne = 1;
    sets_of(b, src, ns);
    if (!*ns)
        *ns = 1;
    return *ne * *ns;
}

/* The arguments of configuration k of src (k below its count). */
static char **args_of(const el_buildcfgs *b, size_t k, const el_source *src, size_t *n,
                      char **err)
{
    size_t ne, ns, nsets;
    count_of(b, src, &ne, &ns);
    const char *const *sets = sets_of(b, src, &nsets);
    size_t e = k / ns, s = k % ns;
    size_t nb = 0;
    char **base = el_compdb_args_count(b->base, src->path)
                      ? el_compdb_args_at(b->base, src->path, e, &nb)
                      : el_base_flags(b->base, src, &nb);
    char **def = NULL;
    size_t nd = 0;
    if (nsets && set_args(sets[s], &def, &nd, err) < 0) {
        el_args_free(base, nb);
        return NULL;
    }
    base = el_xrealloc(base, (nb + nd + 1) * sizeof *base);
    for (size_t i = 0; i < nd; i++)
        base[nb + i] = def[i];
    free(def);
    *n = nb + nd;
    return base;
}

int el_buildcfgs_make(el_buildcfgs *out, const el_compdb *db, const el_sources *s,
                      const char *cli_sets, char **err)
{
    memset(out, 0, sizeof *out);
    out->base = db;
    if (cli_sets && el_define_sets_split(cli_sets, &out->sets, &out->n_sets, err) < 0)
        return -1;
    size_t n = 1;
    bool any_sets = out->n_sets > 0;
    for (size_t i = 0; i < s->n; i++) {
        size_t ne, ns;
        size_t c = count_of(out, &s->v[i], &ne, &ns);
        size_t nsets;
        sets_of(out, &s->v[i], &nsets);
        any_sets |= nsets > 0;
        if (c > n)
            n = c;
    }
    out->n = n;
    out->db = el_xcalloc(n, sizeof *out->db);
    out->owned = el_xcalloc(n, sizeof *out->owned);
    if (n == 1 && !any_sets) {
        out->db[0] = (el_compdb *)db; /* exactly what a lint uses */
        return 0;
    }
    for (size_t k = 0; k < n; k++) {
        out->db[k] = el_compdb_new(db);
        out->owned[k] = true;
        for (size_t i = 0; i < s->n; i++) {
            if (!el_buildcfg_has(out, k, &s->v[i]))
                continue;
            size_t na = 0;
            char **a = args_of(out, k, &s->v[i], &na, err);
            if (!a) {
                el_buildcfgs_free(out);
                return -1;
            }
            el_compdb_add(out->db[k], s->v[i].path, a, na);
            el_args_free(a, na);
        }
    }
    return 0;
}

bool el_buildcfg_has(const el_buildcfgs *b, size_t k, const el_source *src)
{
    size_t ne, ns;
    return k < count_of(b, src, &ne, &ns);
}

char *el_buildcfg_name(const el_buildcfgs *b, size_t k, const el_source *src)
{
    if (b->n <= 1 && !b->owned[0])
        return el_xstrdup("");
    size_t ne, ns, nsets;
    count_of(b, src, &ne, &ns);
    const char *const *sets = sets_of(b, src, &nsets);
    el_buf o = {0};
    if (ne > 1)
        el_buf_printf(&o, "compile_commands.json entry %zu", k / ns + 1);
    if (nsets)
        el_buf_printf(&o, "%sdefine set \"%s\"", o.n ? ", " : "", sets[k % ns]);
    if (!o.n)
        el_buf_puts(&o, "the default configuration");
    return el_buf_take(&o);
}

void el_buildcfgs_free(el_buildcfgs *b)
{
    for (size_t k = 0; k < b->n; k++)
        if (b->owned[k])
            el_compdb_free(b->db[k]);
    free(b->db);
    free(b->owned);
    el_args_free(b->sets, b->n_sets);
    memset(b, 0, sizeof *b);
}
