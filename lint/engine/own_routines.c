/* The note on a tree's own copies of library routines (own_routines.h). */
#include "own_routines.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "path.h"
#include "progname.h"
#include "rule.h"
#include "sources.h"
#include "strmap.h"

enum { SHOWN = 4 }; /* names, directories and configurations the note spells out */

static int cmp_use(const void *a, const void *b)
{
    const struct el_own_use *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (!c)
        c = strcmp(x->def, y->def);
    if (!c)
        c = strcmp(x->path, y->path);
    if (!c)
        c = (x->line > y->line) - (x->line < y->line);
    if (!c)
        c = (x->col > y->col) - (x->col < y->col);
    return c ? c : (x->cfg > y->cfg) - (x->cfg < y->cfg);
}

void el_own_uses_add(el_own_uses *u, size_t k, const char *name, const el_fact_list *facts)
{
    if (k >= u->n_cfgs) {
        u->cfg_names = el_xrealloc(u->cfg_names, (k + 1) * sizeof *u->cfg_names);
        for (size_t i = u->n_cfgs; i <= k; i++)
            u->cfg_names[i] = NULL;
        u->n_cfgs = k + 1;
    }
    free(u->cfg_names[k]);
    u->cfg_names[k] = el_xstrdup(name ? name : "");
    for (size_t i = 0; i < facts->n; i++) {
        if (strcmp(facts->v[i].key, EL_FACT_OWN_USE) != 0)
            continue;
        /* "name\tpath\tline\tcol\tdefpath\tdefline" */
        char *v = el_xstrdup(facts->v[i].value), *f[6] = {0}, *p = v;
        for (int j = 0; j < 6 && p; j++) {
            f[j] = p;
            p = strchr(p, '\t');
            if (p)
                *p++ = '\0';
        }
        if (f[5] && f[4][0]) {
            el_grow(&u->v, &u->cap, u->n + 1, sizeof *u->v);
            u->v[u->n++] = (struct el_own_use){k,
                                               el_xstrdup(f[0]),
                                               el_xstrdup(f[1]),
                                               (unsigned)atoi(f[2]),
                                               (unsigned)atoi(f[3]),
                                               el_xstrdup(f[4]),
                                               (unsigned)atoi(f[5])};
        }
        free(v);
    }
    /* by name, then definition: the note names them in that order */
    if (u->n)
        qsort(u->v, u->n, sizeof *u->v, cmp_use);
}

void el_own_uses_free(el_own_uses *u)
{
    for (size_t i = 0; i < u->n; i++) {
        free(u->v[i].name);
        free(u->v[i].path);
        free(u->v[i].def);
    }
    free(u->v);
    for (size_t i = 0; i < u->n_cfgs; i++)
        free(u->cfg_names[i]);
    free(u->cfg_names);
    memset(u, 0, sizeof *u);
}

/* The copy: the directories of the definitions that silenced a use,
 * which the note tells to exclude.  A call made inside them is the
 * copy's own (reference BLAS's dscal.c calling lsame_, defined beside
 * it), and excluding the copy drops it too; a call from anywhere else,
 * a shim onto the library included, is the project's. */
static void copy_dirs(const el_own_uses *u, el_strmap *dirs)
{
    for (size_t i = 0; i < u->n; i++) {
        const char *slash = strrchr(u->v[i].def, '/');
        if (!slash)
            continue;
        char *dir = el_xstrndup(u->v[i].def, (size_t)(slash - u->v[i].def) + 1);
        if (!el_strmap_get(dirs, dir))
            el_strmap_put(dirs, dir, (void *)1);
        free(dir);
    }
}

/* Is path in one of the copy's directories (or below one)? */
static bool in_copy(const el_strmap *dirs, const char *path)
{
    char *p = el_xstrdup(path);
    bool in = false;
    for (char *slash = strrchr(p, '/'); slash && !in; slash = strrchr(p, '/')) {
        slash[1] = '\0';
        in = el_strmap_get(dirs, p) != NULL;
        slash[0] = '\0';
    }
    free(p);
    return in;
}

/* Does the note count use x: a routine's name (its Fortran name, ddot_,
 * or its C interface's, cblas_ddot: GSL's cblas/), called from outside
 * the copy? */
static bool counted(const el_sources *sources, const el_strmap *copy, const struct el_own_use *x)
{
    long k = el_sources_find(sources, x->path);
    const el_config *cfg = k >= 0 ? sources->v[k].cfg : NULL;
    return cfg && (el_routine_name(cfg, x->name) || el_routine_c_name(cfg, x->name)) &&
           !in_copy(copy, x->path);
}

/* What the note counts of the uses: places, names, definition
 * directories (display form, with '/'), configurations. */
enum field { PLACE, NAME, DIR, CFG, N_FIELDS };

/* Use x's key for field f ("" for a configuration past the names). */
static char *key_of(const el_own_uses *u, const struct el_own_use *x, enum field f)
{
    switch (f) {
    case PLACE:
        return el_xasprintf("%s\t%s\t%u\t%u", x->name, x->path, x->line, x->col);
    case NAME:
        return el_xstrdup(x->name);
    case DIR: {
        char *d = el_path_display(x->def);
        char *slash = strrchr(d, '/');
        char *r = slash ? el_xasprintf("%.*s/", (int)(slash - d), d) : el_xstrdup("./");
        free(d);
        return r;
    }
    default:
        return el_xstrdup(x->cfg < u->n_cfgs && u->cfg_names[x->cfg] ? u->cfg_names[x->cfg] : "");
    }
}

/* The distinct values of a field, in the uses' order: their number and
 * the first SHOWN (allocated). */
typedef struct distinct {
    el_strmap seen;
    size_t n;
    char *shown[SHOWN];
} distinct;

static void distinct_add(distinct *d, char *key)
{
    if (el_strmap_get(&d->seen, key)) {
        free(key);
        return;
    }
    el_strmap_put(&d->seen, key, (void *)1);
    if (d->n < SHOWN)
        d->shown[d->n] = key;
    else
        free(key);
    d->n++;
}

/* "a, b and c" (the first SHOWN; ", d and 3 more" past them). */
static void spell(const distinct *d, char *buf, size_t cap)
{
    buf[0] = '\0';
    size_t shown = d->n < SHOWN ? d->n : SHOWN;
    for (size_t i = 0; i < shown; i++) {
        const char *sep = i == 0 ? "" : i + 1 == shown && d->n <= SHOWN ? " and " : ", ";
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, "%s%.200s", sep, d->shown[i]);
    }
    if (d->n > SHOWN) {
        size_t used = strlen(buf);
        snprintf(buf + used, cap - used, " and %zu more", d->n - SHOWN);
    }
}

void el_own_routines_note(const el_sources *sources, size_t n_builds, const el_own_uses *u,
                          const char *db_only, const char *not_done, const char *reads, FILE *out)
{
    if (!u->n)
        return;
    el_strmap copy = {0};
    copy_dirs(u, &copy);
    distinct d[N_FIELDS] = {0};
    const struct el_own_use *first = NULL;
    for (size_t i = 0; i < u->n; i++) {
        if (!counted(sources, &copy, &u->v[i]))
            continue;
        if (!first)
            first = &u->v[i];
        for (int f = 0; f < N_FIELDS; f++)
            distinct_add(&d[f], key_of(u, &u->v[i], (enum field)f));
    }
    if (first) {
        char names[SHOWN * 220], dirs[SHOWN * 220], cfgs[SHOWN * 220 + 32] = "";
        spell(&d[NAME], names, sizeof names);
        spell(&d[DIR], dirs, sizeof dirs);
        /* a configuration that silenced none lists the calls, or
         * compiles none of them */
        if (d[CFG].n < n_builds && n_builds > 1) {
            char list[SHOWN * 220];
            spell(&d[CFG], list, sizeof list);
            snprintf(cfgs, sizeof cfgs, " in configuration%s %s", d[CFG].n == 1 ? "" : "s", list);
        }
        size_t n_uses = d[PLACE].n;
        bool one = d[NAME].n == 1;
        char *where = el_path_display(first->def);
        /* -p without PATH scans the files the database names, which
         * "exclude" does not skip: the run again has to walk the tree */
        char *again = db_only ? el_xasprintf(" naming the tree (-p %s .): a run without PATH "
                                             "%s every file compile_commands.json lists, "
                                             "excluded or not",
                                             db_only, reads)
                              : el_xstrdup("");
        fprintf(out,
                "%s: note: %zu use%s of %zu function%s named as a library's routine%s "
                "(%s) %s taken as the project's own code and %s%s: the tree defines %s "
                "(%s:%u); if %s a copy of the library, add %s to \"exclude\" in "
                ".emberlint.json and run again%s\n",
                el_progname, n_uses, n_uses == 1 ? "" : "s", d[NAME].n, one ? "" : "s",
                one ? "" : "s", names, n_uses == 1 ? "is" : "are", not_done, cfgs,
                one ? "it" : "them", where, first->def_line, one ? "it is" : "they are", dirs,
                again);
        free(again);
        free(where);
    }
    for (int f = 0; f < N_FIELDS; f++) {
        for (size_t i = 0; i < d[f].n && i < SHOWN; i++)
            free(d[f].shown[i]);
        el_strmap_free(&d[f].seen);
    }
    el_strmap_free(&copy);
}

void el_own_routines_note_facts(const el_sources *sources, const el_fact_list *facts,
                                const char *db_only, const char *not_done, const char *reads,
                                FILE *out)
{
    el_own_uses u = {0};
    el_own_uses_add(&u, 0, NULL, facts);
    el_own_routines_note(sources, 1, &u, db_only, not_done, reads, out);
    el_own_uses_free(&u);
}
