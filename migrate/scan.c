/* migrate/scan.c -- em_scan (scan.h): one engine run over the tree, as
 * emberlint does it (lint/engine/sources.h, lint/engine/config.h, lint/engine/compdb.h,
 * lint/engine/engine.h), with EH000 and EH101-EH104 selected, fixes kept, and
 * the scanner rule (scan_rule.c) recording facts; then the kernels.def
 * files of the backend directories, read as text.  The facts become the
 * plain model of scan.h: header records reached from several TUs are
 * kept once, everything is sorted. */
#include "scan.h"

#include <errno.h>
#include <unistd.h>
#include <sys/stat.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compdb.h"
#include "c_text.h"
#include "config.h"
#include "engine.h"
#include "fileio.h"
#include "finding_alternatives.h"
#include "inactive.h"
#include "include_line.h"
#include "journal.h"
#include "mem.h"
#include "metadata.h"
#include "own_routines.h"
#include "path.h"
#include "pp_cond.h"
#include "rule.h"
#include "scan_rule.h"
#include "custom_rule.h"
#include "custom_scan.h"
#include "shard.h"
#include "sources.h"
#include "strbuf.h"
#include "strmap.h"
#include "unbuilt.h"

#define MAX_FILE_SIZE (64u << 20)
#define KERNELS_DEF "kernels.def"
/* What ember-migrate's notes say it does with a file (emberlint's
 * EL_LINTED, EL_LINT in the texts the tools share). */
#define SCANNED "scanned"
#define SCAN "scan"

/* ---- small helpers ---------------------------------------------------------- */

static void add_unique(char ***v, size_t *n, size_t *cap, const char *s)
{
    if (!s || !s[0])
        return;
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*v)[i], s) == 0)
            return;
    el_grow(v, cap, *n + 1, sizeof **v);
    (*v)[(*n)++] = el_xstrdup(s);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *jstr(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static int64_t jint(json_object *o, const char *key)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

static bool jbool(json_object *o, const char *key)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

static char **jstrs(json_object *o, const char *key, size_t *n)
{
    json_object *a = NULL;
    *n = 0;
    if (!json_object_object_get_ex(o, key, &a) || !json_object_is_type(a, json_type_array))
        return NULL;
    size_t len = json_object_array_length(a);
    char **v = el_xcalloc(len + 1, sizeof *v);
    for (size_t i = 0; i < len; i++) {
        const char *s = json_object_get_string(json_object_array_get_idx(a, i));
        v[(*n)++] = el_xstrdup(s ? s : "");
    }
    return v;
}

static long op_index(const char *name)
{
    for (size_t i = 0; i < el_op_count(); i++)
        if (strcmp(el_op_name(i), name) == 0)
            return (long)i;
    return -1;
}

/* ---- the model -------------------------------------------------------------- */

/* The file the skipped sites being listed are in, read once for the walk
 * of its conditionals (em_pp_walk: one pass for all its sites). */
typedef struct dead_walk {
    char *path, *data;
    size_t len;
    em_pp_walk *w;
} dead_walk;

typedef struct builder {
    em_tree *t;
    size_t cap_files, cap_defs, cap_incs, cap_tables, cap_backends;
    const el_sources *sources;
    dead_walk dead;
} builder;

static const em_file *file_of(const em_tree *t, const char *path)
{
    size_t lo = 0, hi = t->n_files;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(t->files[mid].path, path);
        if (c == 0)
            return &t->files[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const em_file *em_tree_file(const em_tree *t, const char *path)
{
    return file_of(t, path);
}

static const el_config *config_of(const builder *b, const char *path)
{
    long i = el_sources_find(b->sources, path);
    return i >= 0 ? b->sources->v[i].cfg : NULL;
}

static void add_def(builder *b, json_object *o)
{
    em_tree *t = b->t;
    const char *path = jstr(o, "path"), *name = jstr(o, "name");
    const em_file *f = path ? file_of(t, path) : NULL;
    if (!f || !name)
        return;
    size_t begin = (size_t)jint(o, "begin");
    for (size_t i = 0; i < t->n_defs; i++) /* a header's, from another TU */
        if (t->defs[i].begin == begin && strcmp(t->defs[i].path, path) == 0 &&
            strcmp(t->defs[i].name, name) == 0)
            return;
    el_grow(&t->defs, &b->cap_defs, t->n_defs + 1, sizeof *t->defs);
    em_def *d = &t->defs[t->n_defs++];
    memset(d, 0, sizeof *d);
    d->path = el_xstrdup(path);
    d->name = el_xstrdup(name);
    d->is_function = jbool(o, "function");
    d->is_static = jbool(o, "static");
    d->is_const = jbool(o, "const");
    d->is_kernel = jbool(o, "kernel");
    d->in_macro = jbool(o, "in_macro");
    d->local_deps = jbool(o, "local_deps");
    d->in_backends = f->backend[0] != '\0';
    d->line = (unsigned)jint(o, "line");
    d->begin = begin;
    d->end = (size_t)jint(o, "end");
    d->uses = jstrs(o, "uses", &d->n_uses);
    d->needs = jstrs(o, "needs", &d->n_needs);
    d->locals = jstrs(o, "locals", &d->n_locals);
    d->calls = jstrs(o, "calls", &d->n_calls);
    const char *sig = jstr(o, "signature");
    d->signature = sig ? el_xstrdup(sig) : NULL;
    const el_config *cfg = config_of(b, path);
    char be[64];
    if (cfg && el_backend_of_symbol(cfg, name, be, sizeof be)) {
        snprintf(d->backend, sizeof d->backend, "%s", be);
        /* the rest after the prefix: eh_<backend>_<op> */
        const char *rest = strstr(name, be);
        if (rest) {
            rest += strlen(be);
            while (*rest == '_')
                rest++;
            if (op_index(rest) >= 0)
                snprintf(d->op, sizeof d->op, "%s", rest);
        }
    } else if (f->legacy_backend[0]) {
        snprintf(d->backend, sizeof d->backend, "%s", f->legacy_backend);
    }
}

static void add_include(builder *b, json_object *o)
{
    em_tree *t = b->t;
    const char *path = jstr(o, "path"), *spelled = jstr(o, "spelled");
    if (!path || !spelled || !file_of(t, path))
        return;
    size_t begin = (size_t)jint(o, "begin");
    for (size_t i = 0; i < t->n_incs; i++)
        if (t->incs[i].begin == begin && strcmp(t->incs[i].path, path) == 0)
            return;
    const char *resolved = jstr(o, "resolved");
    el_grow(&t->incs, &b->cap_incs, t->n_incs + 1, sizeof *t->incs);
    em_include *in = &t->incs[t->n_incs++];
    memset(in, 0, sizeof *in);
    in->path = el_xstrdup(path);
    in->spelled = el_xstrdup(spelled);
    in->angled = jbool(o, "angled");
    in->resolved = resolved ? el_xstrdup(resolved) : NULL;
    in->line = (unsigned)jint(o, "line");
    in->begin = begin;
    in->end = (size_t)jint(o, "end");
}

static char *why_place(const char *path, unsigned line, unsigned col)
{
    return el_xasprintf("%u:%u:%s", line, col, path);
}

/* The first reason recorded at a place, or NULL; the others there follow
 * it through `next`, in the order they were recorded. */
static em_why *find_why(const em_tree *t, const char *path, unsigned line, unsigned col)
{
    char *key = why_place(path, line, col);
    size_t i = (size_t)(uintptr_t)el_strmap_get(&t->why_places, key);
    free(key);
    return i ? &t->whys[i - 1] : NULL;
}

static em_why *next_why(const em_tree *t, const em_why *w)
{
    return w->next ? &t->whys[w->next - 1] : NULL;
}

/* Is w a reason about the symbol `name` (either unknown: it may be)?  A
 * place can hold several symbols' reasons: one call is dgetrs_ in one
 * configuration and, through MKL's #define dgetrs_ dgetrs, dgetrs in
 * another. */
static bool why_of(const em_why *w, const char *name)
{
    return !w->name || !name || !strcmp(w->name, name);
}

/* Record (or sharpen) the reason at a place: a reason given replaces "",
 * of the same symbol only. */
static void tree_add_why_decl(em_tree *t, const char *path, unsigned line, unsigned col,
                              const char *why, const char *decl, const char *name)
{
    em_why *first = find_why(t, path, line, col), *w = NULL, *last = first;
    for (em_why *x = first; x && !w; x = next_why(t, x))
        w = why_of(x, name) ? x : NULL;
    /* a second, different reason at one place is another symbol's (a macro
     * that calls eh_blas_abs in one configuration, eh_ref_abs in another) */
    for (em_why *x = w; w && why[0] && w->why[0] && strcmp(w->why, why) && x;
         x = next_why(t, x))
        w = !strcmp(x->why, why) && why_of(x, name) ? x : w;
    if (w && (!why[0] || !w->why[0] || !strcmp(w->why, why))) {
        if (!w->why[0] && why[0]) {
            free(w->why);
            w->why = el_xstrdup(why);
        }
        if (!w->decl && decl)
            w->decl = el_xstrdup(decl);
        if (!w->name && name)
            w->name = el_xstrdup(name);
        return;
    }
    while (last && last->next)
        last = next_why(t, last);
    size_t last_i = last ? (size_t)(last - t->whys) : 0;
    el_grow(&t->whys, &t->cap_whys, t->n_whys + 1, sizeof *t->whys);
    t->whys[t->n_whys++] = (em_why){el_xstrdup(path), line, col, el_xstrdup(why),
                                    decl ? el_xstrdup(decl) : NULL,
                                    name ? el_xstrdup(name) : NULL, 0};
    if (last) {
        t->whys[last_i].next = t->n_whys;
    } else {
        char *key = why_place(path, line, col);
        el_strmap_put(&t->why_places, key, (void *)(uintptr_t)t->n_whys);
        free(key);
    }
}

static void tree_add_why(em_tree *t, const char *path, unsigned line, unsigned col,
                         const char *why)
{
    tree_add_why_decl(t, path, line, col, why, NULL, NULL);
}

static void add_why(builder *b, json_object *o)
{
    const char *path = jstr(o, "path"), *why = jstr(o, "why");
    if (path && why)
        tree_add_why_decl(b->t, path, (unsigned)jint(o, "line"), (unsigned)jint(o, "col"), why,
                          jstr(o, "decl"), jstr(o, "name"));
}

const char *em_tree_why(const em_tree *t, const char *path, unsigned line, unsigned col,
                        const char *name)
{
    const em_why *w = find_why(t, path, line, col);
    /* of several reasons at the place, the one that names the symbol */
    size_t nl = name ? strlen(name) : 0;
    for (const em_why *x = w; x && nl; x = next_why(t, x))
        if (!strncmp(x->why, name, nl) && (x->why[nl] == ' ' || x->why[nl] == ':'))
            return x->why;
    /* else the first about it: never another symbol's reason (MKL's
     * dgetrs, named inside macro dgetrs_, is not the plain call's) */
    while (w && !why_of(w, name))
        w = next_why(t, w);
    return w && w->why[0] ? w->why : NULL;
}

const char *em_tree_decl(const em_tree *t, const char *path, unsigned line, unsigned col)
{
    const em_why *w = find_why(t, path, line, col);
    return w ? w->decl : NULL;
}

/* An include, as the reach question needs it: from path to resolved. */
typedef struct edge {
    const char *path, *resolved;
} edge;

/* The answers so far, for the includes there were (a tree given more
 * includes starts over).  The planner asks of every pair of a site's file
 * and an include's: thousands of sites asked the same few pairs. */
struct em_reach_memo {
    el_strmap answers; /* "from\nto" -> NO or YES */
    size_t n_incs;
    edge *edges;       /* the tree's includes with a resolved file, by path */
    size_t n_edges;
};
enum { REACH_NO = 1, REACH_YES = 2 };
enum { REACH_MAX_DEPTH = 33 }; /* includes followed from `from` at most */

size_t em_reach_steps;

static int cmp_edge(const void *a, const void *b)
{
    return strcmp(((const edge *)a)->path, ((const edge *)b)->path);
}

static edge *edges_of(const em_tree *t, size_t *n, em_include_filter through, void *arg)
{
    edge *v = el_xcalloc(t->n_incs + 1, sizeof *v);
    *n = 0;
    for (size_t i = 0; i < t->n_incs; i++)
        if (t->incs[i].resolved && (!through || through(&t->incs[i], arg)))
            v[(*n)++] = (edge){t->incs[i].path, t->incs[i].resolved};
    if (*n > 1)
        qsort(v, *n, sizeof *v, cmp_edge);
    return v;
}

/* The first edge from path (n if none). */
static size_t first_of(const edge *v, size_t n, const char *path)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(v[mid].path, path) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Breadth first, each file once: a depth-first walk of every path took
 * time exponential in the include graph's diamonds (darknet's headers
 * include each other: most of a plan's time was in strcmp). */
static bool reaches_from(const edge *v, size_t n_edges, const char *from, const char *to)
{
    if (!strcmp(from, to))
        return true;
    el_strmap seen = {0};
    const char **level = el_xcalloc(1, sizeof *level), **next = NULL;
    size_t n = 1, n_next = 0, cap_next = 0;
    level[0] = from;
    el_strmap_put(&seen, from, (void *)1);
    bool found = false;
    for (int depth = 0; depth < REACH_MAX_DEPTH && n && !found; depth++) {
        n_next = 0;
        for (size_t i = 0; i < n && !found; i++)
            for (size_t k = first_of(v, n_edges, level[i]);
                 k < n_edges && !strcmp(v[k].path, level[i]) && !found; k++) {
                em_reach_steps++;
                if (el_strmap_put(&seen, v[k].resolved, (void *)1))
                    continue; /* (met before) */
                found = !strcmp(v[k].resolved, to);
                el_grow(&next, &cap_next, n_next + 1, sizeof *next);
                next[n_next++] = v[k].resolved;
            }
        free(level);
        level = next;
        n = n_next;
        next = NULL;
        cap_next = 0;
    }
    free(level);
    el_strmap_free(&seen);
    return found;
}

bool em_tree_reaches_through(const em_tree *t, const char *from, const char *to,
                             em_include_filter through, void *arg)
{
    size_t n = 0;
    edge *v = edges_of(t, &n, through, arg);
    bool yes = reaches_from(v, n, from, to);
    free(v);
    return yes;
}

bool em_tree_reaches(const em_tree *t, const char *from, const char *to)
{
    em_reach_memo *m = t->reach;
    if (!m)
        return em_tree_reaches_through(t, from, to, NULL, NULL);
    if (m->n_incs != t->n_incs || !m->edges) {
        el_strmap_free(&m->answers);
        free(m->edges);
        m->edges = edges_of(t, &m->n_edges, NULL, NULL);
        m->n_incs = t->n_incs;
    }
    char *key = el_xasprintf("%s\n%s", from, to);
    uintptr_t known = (uintptr_t)el_strmap_get(&m->answers, key);
    bool yes = known ? known == REACH_YES : reaches_from(m->edges, m->n_edges, from, to);
    if (!known)
        el_strmap_put(&m->answers, key, (void *)(uintptr_t)(yes ? REACH_YES : REACH_NO));
    free(key);
    return yes;
}

static em_table *new_table(builder *b, em_table_kind kind, const char *path, unsigned line,
                           const char *backend)
{
    em_tree *t = b->t;
    el_grow(&t->tables, &b->cap_tables, t->n_tables + 1, sizeof *t->tables);
    em_table *x = &t->tables[t->n_tables++];
    memset(x, 0, sizeof *x);
    x->kind = kind;
    x->path = el_xstrdup(path);
    x->line = line;
    snprintf(x->backend, sizeof x->backend, "%s", backend);
    x->implemented = el_xcalloc(el_op_count() + 1, sizeof *x->implemented);
    x->functions = el_xcalloc(el_op_count() + 1, sizeof *x->functions);
    return x;
}

static void add_table(builder *b, json_object *o)
{
    em_tree *t = b->t;
    const char *path = jstr(o, "path"), *backend = jstr(o, "backend"), *var = jstr(o, "var");
    json_object *ops = NULL;
    if (!path || !backend || !var || !json_object_object_get_ex(o, "ops", &ops))
        return;
    unsigned line = (unsigned)jint(o, "line");
    for (size_t i = 0; i < t->n_tables; i++)
        if (t->tables[i].line == line && strcmp(t->tables[i].path, path) == 0)
            return;
    em_table *x = new_table(b, EM_TABLE_EH_BACKEND, path, line, backend);
    x->var = el_xstrdup(var);
    json_object_object_foreach(ops, op, fn) {
        long k = op_index(op);
        if (k < 0)
            continue;
        x->implemented[k] = true;
        x->functions[k] = el_xstrdup(json_object_get_string(fn));
    }
}

/* ---- a backend's directory ------------------------------------------------------ */

/* Does a file in dir (a probe dir/x.c) still belong to backend `name`? */
typedef bool belongs_fn(const el_config *cfg, const char *probe, const char *name);

/* The highest ancestor of path's directory whose files belong to `name`. */
static char *top_dir(const el_config *cfg, const char *path, const char *name, belongs_fn *belongs)
{
    char *dir = el_path_dirname(path);
    while (strcmp(dir, "/") != 0) {
        char *up = el_path_dirname(dir);
        char *probe = el_path_join(up, "x.c");
        bool same = belongs(cfg, probe, name);
        free(probe);
        if (!same) {
            free(up);
            break;
        }
        free(dir);
        dir = up;
    }
    return dir;
}

static bool in_backend(const el_config *cfg, const char *probe, const char *name)
{
    char nm[64];
    return el_config_classify(cfg, probe, nm, sizeof nm) == EL_FILE_BACKEND && strcmp(nm, name) == 0;
}

static bool in_legacy(const el_config *cfg, const char *probe, const char *name)
{
    char nm[64];
    return el_config_legacy_backend(cfg, probe, nm, sizeof nm) && strcmp(nm, name) == 0;
}

/* ---- kernels.def ------------------------------------------------------------- */

/* The directory of the backend a backend-class file belongs to: the
 * highest ancestor still classified as that backend's. */
static char *backend_root(const el_source *s)
{
    return top_dir(s->cfg, s->path, s->backend, in_backend);
}

/* EH_KERNEL(op, function) lines; comments, blank and preprocessor lines
 * are skipped, anything else is ignored too (the file is data, not C). */
static void read_kernels_def(builder *b, const char *path, const char *backend)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    em_table *x = NULL;
    char line[1024];
    unsigned lineno = 0;
    bool in_comment = false;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line;
        if (in_comment) {
            char *close = strstr(p, "*/");
            if (!close)
                continue;
            in_comment = false;
            p = close + 2;
        }
        while (*p == ' ' || *p == '\t')
            p++;
        if (strncmp(p, "/*", 2) == 0) {
            char *close = strstr(p + 2, "*/");
            if (!close) {
                in_comment = true;
                continue;
            }
            p = close + 2;
            while (*p == ' ' || *p == '\t')
                p++;
        }
        char op[128], fn[256];
        if (sscanf(p, "EH_KERNEL ( %127[A-Za-z0-9_] , %255[A-Za-z0-9_] )", op, fn) != 2)
            continue;
        long k = op_index(op);
        if (k < 0)
            continue;
        if (!x)
            x = new_table(b, EM_TABLE_KERNELS_DEF, path, lineno, backend);
        x->implemented[k] = true;
        free(x->functions[k]);
        x->functions[k] = el_xstrdup(fn);
    }
    fclose(f);
    if (!x) /* no entries yet: still the backend's table, empty */
        new_table(b, EM_TABLE_KERNELS_DEF, path, 1, backend);
}

static void scan_kernels_defs(builder *b)
{
    char **seen = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < b->sources->n; i++) {
        const el_source *s = &b->sources->v[i];
        if (s->cls != EL_FILE_BACKEND || !s->backend[0])
            continue;
        char *root = backend_root(s);
        char *def = el_path_join(root, KERNELS_DEF);
        size_t before = n;
        add_unique(&seen, &n, &cap, def);
        if (n > before && access(def, R_OK) == 0)
            read_kernels_def(b, def, s->backend);
        free(def);
        free(root);
    }
    for (size_t i = 0; i < n; i++)
        free(seen[i]);
    free(seen);
}

/* ---- where backend code outside backends/ moves -------------------------------- */

/* The top directory of the legacy directory path is in (app/ops/blas). */
static char *legacy_root(const el_config *cfg, const char *path, const char *name)
{
    return top_dir(cfg, path, name, in_legacy);
}

/* backends/ of the application a legacy file belongs to: app/ops/blas/x.c
 * -> app (the directory above the legacy directory's parent). */
static char *app_root(const builder *b, const em_file *f)
{
    const el_config *cfg = config_of(b, f->path);
    if (!cfg)
        return NULL;
    char *root = legacy_root(cfg, f->path, f->legacy_backend); /* app/ops/blas */
    char *parent = el_path_dirname(root);                        /* app/ops */
    char *app = el_path_dirname(parent);                         /* app */
    free(parent);
    free(root);
    return app;
}

/* The tree's default root (em_tree.root): the first legacy application,
 * else the directory holding the tree's backends/, else the current
 * directory. */
static char *tree_root(const builder *b)
{
    const em_tree *t = b->t;
    char *root = NULL;
    for (size_t i = 0; i < t->n_files && !root; i++)
        if (t->files[i].legacy_backend[0])
            root = app_root(b, &t->files[i]);
    for (size_t i = 0; i < t->n_files && !root; i++) {
        const char *p = strstr(t->files[i].path, "/backends/");
        if (t->files[i].backend[0] && p)
            root = el_xstrndup(t->files[i].path, (size_t)(p - t->files[i].path));
    }
    /* never the current directory: destinations stay in the tree given */
    return root ? root : el_xstrdup(t->bounds.n ? t->bounds.roots[0] : el_cwd());
}

/* Every file's root (em_file.root), and where backend code outside
 * backends/ moves (em_def.dest): <root>/backends/<b>/<file name>. */
static void set_destinations(builder *b)
{
    em_tree *t = b->t;
    t->root = tree_root(b);
    for (size_t i = 0; i < t->n_files; i++) {
        em_file *f = &t->files[i];
        f->root = f->legacy_backend[0] ? app_root(b, f) : NULL;
        if (!f->root)
            f->root = el_xstrdup(t->root);
    }
    for (size_t i = 0; i < t->n_defs; i++) {
        em_def *d = &t->defs[i];
        const em_file *f = file_of(t, d->path);
        if (d->backend[0] && !d->in_backends)
            d->dest = em_dest_path(f ? f->root : t->root, d->backend, d->path);
    }
}

char *em_dest_path(const char *root, const char *backend, const char *path)
{
    return el_xasprintf("%s/backends/%s/%s", strcmp(root, "/") ? root : "", backend,
                        el_path_base(path));
}

/* ---- sorting ---------------------------------------------------------------- */

static int cmp_def(const void *a, const void *b)
{
    const em_def *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    if (c)
        return c;
    return x->begin < y->begin ? -1 : x->begin > y->begin ? 1 : strcmp(x->name, y->name);
}

static int cmp_inc(const void *a, const void *b)
{
    const em_include *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : x->begin < y->begin ? -1 : x->begin > y->begin;
}

static int cmp_table(const void *a, const void *b)
{
    const em_table *x = a, *y = b;
    int c = strcmp(x->backend, y->backend);
    if (!c)
        c = strcmp(x->path, y->path);
    return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

/* ---- the scan ---------------------------------------------------------------- */

static void add_skipped(builder *b);

static void build(builder *b, const el_fact_list *facts)
{
    em_tree *t = b->t;
    /* files */
    t->files = el_xcalloc(b->sources->n + 1, sizeof *t->files);
    for (size_t i = 0; i < b->sources->n; i++) {
        const el_source *s = &b->sources->v[i];
        em_file *f = &t->files[t->n_files++];
        f->path = el_xstrdup(s->path);
        f->display = el_xstrdup(s->display ? s->display : s->path);
        f->hash = s->hash;
        if (s->cls == EL_FILE_BACKEND)
            snprintf(f->backend, sizeof f->backend, "%s", s->backend);
        else if (!el_config_legacy_backend(s->cfg, s->path, f->legacy_backend, sizeof f->legacy_backend))
            f->legacy_backend[0] = '\0';
    }
    for (size_t i = 0; i < t->findings.n; i++) {
        if (strcmp(t->findings.v[i].rule, "EH000") != 0)
            continue;
        em_file *f = (em_file *)file_of(t, t->findings.v[i].file);
        if (f)
            f->parse_error = true;
    }
    /* facts */
    for (size_t i = 0; i < facts->n; i++) {
        const el_fact_rec *r = &facts->v[i];
        bool def = strcmp(r->key, EM_FACT_DEF) == 0, inc = strcmp(r->key, EM_FACT_INCLUDE) == 0,
             tab = strcmp(r->key, EM_FACT_TABLE) == 0, why = strcmp(r->key, EM_FACT_WHY) == 0;
        if (!def && !inc && !tab && !why)
            continue;
        json_object *o = json_tokener_parse(r->value);
        if (!o)
            continue;
        if (def)
            add_def(b, o);
        else if (inc)
            add_include(b, o);
        else if (tab)
            add_table(b, o);
        else
            add_why(b, o);
        json_object_put(o);
    }
    scan_kernels_defs(b);
    set_destinations(b);
    add_skipped(b);
    el_findings_sort_unique(&t->findings);
    /* qsort's array must not be NULL, even when empty */
    if (t->n_defs)
        qsort(t->defs, t->n_defs, sizeof *t->defs, cmp_def);
    if (t->n_incs)
        qsort(t->incs, t->n_incs, sizeof *t->incs, cmp_inc);
    if (t->n_tables)
        qsort(t->tables, t->n_tables, sizeof *t->tables, cmp_table);
    /* the backends present in the tree */
    for (size_t i = 0; i < t->n_files; i++) {
        add_unique(&t->backends, &t->n_backends, &b->cap_backends, t->files[i].backend);
        add_unique(&t->backends, &t->n_backends, &b->cap_backends, t->files[i].legacy_backend);
    }
    for (size_t i = 0; i < t->n_tables; i++)
        add_unique(&t->backends, &t->n_backends, &b->cap_backends, t->tables[i].backend);
    for (size_t i = 0; i < t->n_defs; i++)
        if (t->defs[i].op[0])
            add_unique(&t->backends, &t->n_backends, &b->cap_backends, t->defs[i].backend);
    if (t->n_backends)
        qsort(t->backends, t->n_backends, sizeof *t->backends, cmp_str);
}

/* ---- several configurations ------------------------------------------------ */

static bool same_fix(const el_fix *a, const el_fix *b)
{
    if (!a || !b)
        return a == b;
    if (a->edits.n != b->edits.n)
        return false;
    for (size_t i = 0; i < a->edits.n; i++) {
        const el_edit *x = &a->edits.v[i], *y = &b->edits.v[i];
        if (x->begin != y->begin || x->end != y->end || strcmp(x->path, y->path) ||
            strcmp(x->text, y->text))
            return false;
    }
    return true;
}

bool em_finding_name(const el_finding *f, char *buf, size_t n)
{
    const char *q = f->message ? strchr(f->message, '\'') : NULL;
    const char *qe = q ? strchr(q + 1, '\'') : NULL;
    if (!qe)
        return false;
    snprintf(buf, n, "%.*s", (int)(qe - q - 1), q + 1);
    return true;
}

/* Do two findings name the same function?  A macro written at one site
 * may call eh_blas_abs in one configuration and eh_ref_abs in another:
 * two sites for a person, not one. */
static bool same_name(const el_finding *a, const el_finding *b)
{
    char na[256], nb[256];
    bool ha = em_finding_name(a, na, sizeof na), hb = em_finding_name(b, nb, sizeof nb);
    return ha != hb ? false : !ha || !strcmp(na, nb);
}

static el_finding *same_site(el_findings *f, const el_finding *g)
{
    for (size_t i = 0; i < f->n; i++)
        if (f->v[i].line == g->line && f->v[i].col == g->col && !strcmp(f->v[i].rule, g->rule) &&
            !strcmp(f->v[i].file, g->file) && same_name(&f->v[i], g))
            return &f->v[i];
    return NULL;
}

/* ---- call templates for names the project declares ------------------------- */

static int cmp_site(const void *a, const void *b)
{
    const el_finding *x = *(const el_finding *const *)a, *y = *(const el_finding *const *)b;
    int c = strcmp(x->file, y->file);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

/* A call template rewrites the calls of its function that the compiler
 * reads; EH102 attaches that rewrite as its finding's fix, except for a
 * library name the project declares itself (R's F77_NAME(dgemm), igraph's
 * igraphdgemm_), which it reports from the project's view of every
 * translation unit, with no fix.  The scanner worked the rewrite out at
 * the call (its "why" fact): it becomes the fix of such a finding. */
static void attach_template_rewrites(el_findings *found, const el_fact_list *facts)
{
    el_finding **by = el_xcalloc(found->n + 1, sizeof *by);
    size_t n = 0;
    for (size_t i = 0; i < found->n; i++)
        if (!found->v[i].fix && !strcmp(found->v[i].rule, "EH102"))
            by[n++] = &found->v[i];
    if (n)
        qsort(by, n, sizeof *by, cmp_site);
    for (size_t i = 0; n && i < facts->n; i++) {
        const el_fact_rec *r = &facts->v[i];
        if (strcmp(r->key, EM_FACT_WHY) != 0 || !strstr(r->value, "\"rw_text\""))
            continue;
        json_object *o = json_tokener_parse(r->value);
        const char *path = o ? jstr(o, "path") : NULL, *rw_path = o ? jstr(o, "rw_path") : NULL,
                   *text = o ? jstr(o, "rw_text") : NULL, *desc = o ? jstr(o, "rw_desc") : NULL;
        if (path && rw_path && text && !strcmp(path, rw_path)) {
            el_finding key = {.file = (char *)path, .line = (unsigned)jint(o, "line"),
                              .col = (unsigned)jint(o, "col")};
            const el_finding *kp = &key;
            el_finding **at = bsearch(&kp, by, n, sizeof *by, cmp_site);
            if (at && !(*at)->fix) {
                json_object *u = NULL;
                el_fix *fx = el_xcalloc(1, sizeof *fx);
                fx->safety = json_object_object_get_ex(o, "rw_unsafe", &u) &&
                                     json_object_get_boolean(u)
                                 ? EL_FIX_UNSAFE
                                 : EL_FIX_SAFE;
                fx->description = el_xstrdup(desc ? desc : "");
                el_edits_add(&fx->edits, rw_path, (size_t)jint(o, "rw_begin"),
                             (size_t)jint(o, "rw_end"), text, 0);
                (*at)->fix = fx;
            }
        }
        if (o)
            json_object_put(o);
    }
    free(by);
}

static void free_value(const char *key, void *value, void *ud)
{
    (void)key;
    (void)ud;
    free(value);
}

/* The key of a finding's site in em_tree.site_configs: its place, rule
 * and the name it quotes (one per name, as same_site tells them). */
static char *site_key(const el_finding *f)
{
    char name[256];
    bool named = em_finding_name(f, name, sizeof name);
    return el_xasprintf("%s\n%u:%u:%s\n%s", f->rule, f->line, f->col, f->file,
                        named ? name : "");
}

/* Record that configuration k reports finding g (of a run of n). */
static void mark_site(em_tree *t, const el_finding *g, size_t k)
{
    if (t->cfgs.n < 2)
        return;
    char *key = site_key(g);
    char *mask = el_strmap_get(&t->site_configs, key);
    if (!mask) {
        mask = el_xmalloc(t->cfgs.n + 1);
        memset(mask, '0', t->cfgs.n);
        mask[t->cfgs.n] = '\0';
        el_strmap_put(&t->site_configs, key, mask);
    }
    if (k < t->cfgs.n)
        mask[k] = '1';
    free(key);
}

const char *em_tree_site_configs(const em_tree *t, const el_finding *f)
{
    if (!t->site_configs.n)
        return NULL;
    char *key = site_key(f);
    const char *mask = el_strmap_get(&t->site_configs, key);
    free(key);
    return mask;
}

/* Add the findings of another configuration: a site seen before keeps
 * its fix only when this configuration proposes the same one (a rewrite
 * safe in one configuration and not in another is for a person); a new
 * site is added.  A file that does not parse here says where. */
static void merge_findings(em_tree *t, el_findings *more, size_t k, const char *config)
{
    el_findings *into = &t->findings;
    for (size_t i = 0; i < more->n; i++) {
        el_finding *g = &more->v[i];
        el_finding *f = same_site(into, g);
        mark_site(t, f ? f : g, k);
        if (f) {
            /* the names this configuration's finding gives beside f's
             * (a template it includes once more, per element type) */
            const char *other = g->message;
            char *m = f->message && other && strcmp(f->message, other)
                          ? el_message_with_alternatives(f->message, &other, 1)
                          : NULL;
            if (m) {
                free(f->message);
                f->message = m;
            }
            if (!same_fix(f->fix, g->fix)) {
                char why[512];
                snprintf(why, sizeof why, "in %s the rewrite is %s, in another configuration "
                                          "it is not (rewrite it by hand)",
                         config[0] ? config : "one configuration",
                         g->fix ? "possible" : "not possible");
                if (f->fix || g->fix)
                    tree_add_why(t, f->file, f->line, f->col, why);
                el_fix_free(f->fix);
                f->fix = NULL;
            }
            el_finding_clear(g);
            continue;
        }
        /* the configuration, when the file has several (a file of one
         * compile_commands.json entry beside files of two is not "in
         * configuration the default configuration"), named after the
         * failing file's own entries (config names it after the first
         * source of configuration k, which may have one) */
        const el_source *src = em_tree_source(t, g->file);
        size_t n_cfg = 0;
        for (size_t j = 0; src && j < t->cfgs.n; j++)
            n_cfg += el_buildcfg_has(&t->cfgs, j, src);
        if (!strcmp(g->rule, "EH000") && config[0] && (!src || n_cfg > 1)) {
            char *own = src && el_buildcfg_has(&t->cfgs, k, src)
                            ? el_buildcfg_name(&t->cfgs, k, src)
                            : el_xstrdup(config);
            char *m = el_xasprintf("%s (in configuration %s)", g->message, own);
            free(own);
            free(g->message);
            g->message = m;
        }
        el_grow(&into->v, &into->cap, into->n + 1, sizeof *into->v);
        into->v[into->n++] = *g;
    }
    free(more->v);
    memset(more, 0, sizeof *more);
}

/* Append src's facts to dst (src is left empty). */
static void move_facts(el_fact_list *dst, el_fact_list *src)
{
    el_grow(&dst->v, &dst->cap, dst->n + src->n + 1, sizeof *dst->v);
    for (size_t i = 0; i < src->n; i++)
        dst->v[dst->n++] = src->v[i];
    free(src->v);
    memset(src, 0, sizeof *src);
}

/* The sources configuration k compiles (shallow copies), with what the
 * engine derives from them: whether some is backend code (EH102 then
 * notes calls of the project's functions a backend file may define). */
static el_sources sources_of(const em_tree *t, size_t k)
{
    el_sources sub = {0};
    sub.v = el_xcalloc(t->sources.n + 1, sizeof *sub.v);
    for (size_t i = 0; i < t->sources.n; i++)
        if (el_buildcfg_has(&t->cfgs, k, &t->sources.v[i])) {
            sub.v[sub.n++] = t->sources.v[i];
            sub.any_backend |= t->sources.v[i].cls == EL_FILE_BACKEND;
        }
    return sub;
}

/* The name of configuration k for a message ("" with one). */
static char *config_name(const em_tree *t, size_t k)
{
    for (size_t i = 0; i < t->sources.n; i++)
        if (el_buildcfg_has(&t->cfgs, k, &t->sources.v[i]))
            return el_buildcfg_name(&t->cfgs, k, &t->sources.v[i]);
    return el_xstrdup("");
}

const el_source *em_tree_source(const em_tree *t, const char *path)
{
    long i = el_sources_find(&t->sources, path);
    return i >= 0 ? &t->sources.v[i] : NULL;
}

char *em_tree_config_name(const em_tree *t, const char *path, size_t k)
{
    const el_source *src = em_tree_source(t, path);
    if (src && el_buildcfg_has(&t->cfgs, k, src))
        return el_buildcfg_name(&t->cfgs, k, src);
    return config_name(t, k);
}

bool em_tree_config_compiles(const em_tree *t, const char *path, size_t k)
{
    const el_source *src = em_tree_source(t, path);
    return src && el_buildcfg_has(&t->cfgs, k, src);
}

const el_inactive_range *em_tree_skipped_everywhere(const em_tree *t, const char *path,
                                                     size_t off)
{
    const el_source *src = em_tree_source(t, path);
    const el_inactive_range *first = NULL;
    for (size_t k = 0; k < t->cfgs.n; k++) {
        if (src && !el_buildcfg_has(&t->cfgs, k, src))
            continue;
        const el_inactive_range *r = el_inactive_at(&t->inactive[k], path, off, off);
        if (!r || el_inactive_compiled(&t->inactive[k], path, off))
            return NULL;
        if (!first)
            first = r;
    }
    return first;
}

/* ---- code the preprocessor skips in every configuration ---------------------- */

/* The definition of path whose range holds off, or NULL. */
static const em_def *def_at(const em_tree *t, const char *path, size_t off)
{
    for (size_t i = 0; i < t->n_defs; i++)
        if (t->defs[i].begin <= off && off < t->defs[i].end && !strcmp(t->defs[i].path, path))
            return &t->defs[i];
    return NULL;
}


/* Is the site at off of path in a branch no configuration takes, whatever
 * is defined (`#if 0`, `#if (0)`, `#if !1`, `#elif 1 - 1`, the `#else` of
 * `#if 1`: pp_cond.h)?  Naming a configuration with --define-sets would
 * not help.  Asked only of a site some configuration skips; true with the
 * branch described in why. */
static void dead_walk_free(dead_walk *d)
{
    em_pp_walk_free(d->w);
    free(d->data);
    free(d->path);
    memset(d, 0, sizeof *d);
}

static bool under_dead_branch(builder *b, const char *path, size_t off, char *why, size_t cap)
{
    const em_tree *t = b->t;
    const el_source *src = em_tree_source(t, path);
    bool skipped = false;
    for (size_t k = 0; k < t->cfgs.n && !skipped; k++) {
        if (src && !el_buildcfg_has(&t->cfgs, k, src))
            continue;
        const el_inactive_range *r = el_inactive_at(&t->inactive[k], path, off, off);
        skipped = r && r->begin <= off;
    }
    if (!skipped)
        return false;
    dead_walk *d = &b->dead;
    if (!d->path || strcmp(d->path, path) != 0) {
        dead_walk_free(d);
        if (el_read_file(path, &d->data, &d->len, NULL, NULL) != 0)
            return false;
        d->path = el_xstrdup(path);
        d->w = em_pp_walk_new(d->data, d->len);
    }
    return em_pp_walk_dead_at(d->w, off, why, cap);
}

/* A backend name no configuration compiles: an EH102 site of its own,
 * rewritten when the rename is proven where it is skipped (same callee,
 * same signature as the op), else left for a person with the reason. */
/* Does the tree define `name`, a routine's name without its Fortran
 * underscore (dscal, which a macro pasted together in skipped code), in
 * code that is not a backend's: the project's own routine, as EH102
 * takes it where the code is compiled? */
static bool own_routine(builder *b, const char *path, const char *name)
{
    const el_config *cfg = config_of(b, path);
    if (!cfg || !el_routine_alias_target(cfg, name))
        return false;
    for (size_t i = 0; i < b->t->n_defs; i++)
        if (!b->t->defs[i].in_backends && !b->t->defs[i].backend[0] &&
            !strcmp(b->t->defs[i].name, name))
            return true;
    return false;
}

static void skipped_name(builder *b, const el_inactive_range *r, const el_inactive_id *id)
{
    em_tree *t = b->t;
    if (own_routine(b, r->path, id->name))
        return;
    const em_def *in = def_at(t, r->path, id->off);
    bool backend_fn = in && in->backend[0];
    char msg[512], what[64];
    /* named as EH102 names it where the code is compiled: what the TU
     * declares it as; else (skipped text has no types) a name not called
     * may be a constant, CblasRowMajor, as well as a function */
    bool fn = id->kind ? !strcmp(id->kind, "function") : id->call;
    if (fn)
        snprintf(what, sizeof what, "%s backend function", id->call ? "call to" : "use of");
    else
        snprintf(what, sizeof what, "use of backend %s", id->kind ? id->kind : "name");
    snprintf(msg, sizeof msg, "%s '%s' in code the preprocessor skips in every configuration",
             what, id->name);
    el_findings_add(&t->findings, "EH102", EL_SEV_ERROR, r->path, id->line, id->col, msg);
    el_finding *f = &t->findings.v[t->findings.n - 1];
    if (id->rename && !backend_fn) {
        f->fix = el_xcalloc(1, sizeof *f->fix);
        f->fix->safety = EL_FIX_SAFE;
        f->fix->description = el_xasprintf("replace %s with %s", id->name, id->rename);
        el_edits_add(&f->fix->edits, r->path, id->off, id->off + strlen(id->name), id->rename, 0);
        return;
    }
    char why[1024], dead[384], unseen[512];
    /* code under #if 0 is switched off: no --define-sets compiles it */
    if (under_dead_branch(b, r->path, id->off, dead, sizeof dead))
        snprintf(unseen, sizeof unseen, "it is under %s: no configuration can compile it", dead);
    else
        snprintf(unseen, sizeof unseen, "no configuration compiles it: name one with "
                                        "--define-sets to have it checked");
    if (backend_fn)
        snprintf(why, sizeof why, "it is in %s, backend code that has not moved", in->name);
    else if (!fn && id->kind)
        snprintf(why, sizeof why, "no op replaces a backend %s: rewrite this use by hand (and %s)",
                 id->kind, unseen);
    else
        snprintf(why, sizeof why, "%s (and %s)", id->why, unseen);
    /* "" (nothing declares it where it is skipped): no include brings it */
    tree_add_why_decl(t, r->path, id->line, id->col, why, id->decl, NULL);
}

/* A backend #include no configuration compiles: kept (and re-pathed when
 * its header moves, as an include of the tree), listed for a person. */
static void skipped_include(builder *b, const el_inactive_range *r, const el_inactive_inc *c)
{
    em_tree *t = b->t;
    char msg[512];
    snprintf(msg, sizeof msg, "include of backend header '%s' in code the preprocessor skips "
                              "in every configuration", c->spelled);
    el_findings_add(&t->findings, "EH101", EL_SEV_ERROR, r->path, c->line, c->col, msg);
    char dead[384], why[512];
    if (under_dead_branch(b, r->path, c->off, dead, sizeof dead))
        snprintf(why, sizeof why, "the include stays: it is under %s, which no configuration "
                                  "can compile (change it by hand)", dead);
    else
        snprintf(why, sizeof why, "the include stays: no configuration compiles the code "
                                  "around it (name one with --define-sets, or change it by "
                                  "hand)");
    tree_add_why(t, r->path, c->line, c->col, why);
    /* an include the moves know about, so it follows a header that moves */
    char *dir = el_path_dirname(r->path);
    char *j = el_path_join(dir, c->spelled);
    char *resolved = c->angled ? NULL : el_path_real(j);
    free(j);
    free(dir);
    el_grow(&t->incs, &b->cap_incs, t->n_incs + 1, sizeof *t->incs);
    em_include *in = &t->incs[t->n_incs++];
    memset(in, 0, sizeof *in);
    in->path = el_xstrdup(r->path);
    in->spelled = el_xstrdup(c->spelled);
    in->resolved = resolved;
    in->line = c->line;
    in->angled = c->angled;
    in->begin = c->off;
    in->end = c->end;
    in->skipped = true;
}

/* Does rule `id` report in the file at path, as in compiled code: enabled
 * in its configuration and applying to its class (core code, as
 * core_paths make it, is no frontend code: neither EH101 nor EH102 by
 * default)? */
static bool rule_applies_in(const builder *b, const char *path, const char *id)
{
    long i = el_sources_find(b->sources, path);
    int meta = el_meta_index(id);
    if (i < 0 || meta < 0 || !b->sources->v[i].cfg)
        return false;
    const el_source *src = &b->sources->v[i];
    const el_rule_setting *rs = &src->cfg->rules[meta];
    return rs->enabled && (rs->applies & (EL_APPLIES(src->cls) | EL_APPLIES_PROJECT));
}

static void add_skipped(builder *b)
{
    em_tree *t = b->t;
    el_strmap seen = {0}; /* path:offset of the sites listed */
    for (size_t k = 0; k < t->cfgs.n; k++) {
        for (size_t i = 0; i < t->inactive[k].n; i++) {
            const el_inactive_range *r = &t->inactive[k].v[i];
            const em_file *f = file_of(t, r->path);
            if (!f || f->backend[0])
                continue; /* backend code may name its backend */
            bool names = rule_applies_in(b, r->path, "EH102"),
                 incs = rule_applies_in(b, r->path, "EH101");
            for (size_t m = 0; m < r->n_ids + r->n_incs; m++) {
                if (!(m < r->n_ids ? names : incs))
                    continue; /* core code: the rule does not report there */
                size_t off = m < r->n_ids ? r->ids[m].off : r->incs[m - r->n_ids].off;
                if (!em_tree_skipped_everywhere(t, r->path, off))
                    continue; /* a configuration compiles it: its findings say */
                char *key = el_xasprintf("%s:%zu", r->path, off);
                bool again = el_strmap_put(&seen, key, (void *)1) != NULL;
                free(key);
                if (again)
                    continue;
                if (m < r->n_ids)
                    skipped_name(b, r, &r->ids[m]);
                else
                    skipped_include(b, r, &r->incs[m - r->n_ids]);
            }
        }
    }
    el_strmap_free(&seen);
    dead_walk_free(&b->dead);
}

/* ---- -p without PATH ------------------------------------------------------------- */

static bool in_bounds(const char *path, void *ud)
{
    return el_bounds_contain(ud, path);
}

/* The files a -p run without PATH scans: the database's that exist (the
 * first *n_db), and the tree's headers they include. */
static char **db_inputs(const el_compdb *db, const el_bounds *b, size_t *n, size_t *n_db)
{
    char **v = el_xcalloc(1, sizeof *v);
    size_t cap = 0;
    *n = 0;
    /* the files it lists that do not exist: said by el_compdb_check_missing */
    for (size_t i = 0; i < el_compdb_file_count(db); i++) {
        const char *f = el_compdb_file(db, i);
        if (access(f, F_OK) == 0)
            add_unique(&v, n, &cap, f);
    }
    *n_db = *n;
    size_t nh = 0;
    char **headers = el_compdb_tree_headers(db, v, *n, in_bounds, (void *)b, &nh);
    for (size_t i = 0; i < nh; i++) {
        add_unique(&v, n, &cap, headers[i]);
        free(headers[i]);
    }
    free(headers);
    return v;
}

/* An apply a kill interrupted left a journal: apply resolves it, the
 * other commands refuse to read a tree it may have half-changed. */
static int check_interrupted(const em_scan_opts *o, const el_bounds *b, char **err)
{
    int found = el_journal_recover(b->roots, b->n, o->recover, err);
    if (found < 0)
        return -1;
    if (found > 0 && !o->recover) {
        *err = el_xstrdup("an interrupted run is not resolved (see above); "
                          "`ember-migrate apply` resolves it first");
        return -1;
    }
    return 0;
}

/* How a shard scanned, for ember-migrate merge to scan the same files:
 * the paths (relative to the current directory when under it); with -p
 * and no PATH (db_only: BUILD), what the notes of such a run need. */
static json_object *shard_invocation(char *const *paths, size_t n, const char *db_only,
                                     const el_sources *sources)
{
    json_object *o = json_object_new_object(), *ps = json_object_new_array();
    for (size_t i = 0; i < n; i++) {
        char *abs = el_path_abs(paths[i]);
        char *rel = el_path_under(abs, el_cwd());
        json_object_array_add(ps, json_object_new_string(rel && paths[i][0] == '/' ? rel : paths[i]));
        free(rel);
        free(abs);
    }
    json_object_object_add(o, "paths", ps);
    if (db_only)
        el_shard_invocation_db_only(o, db_only, sources);
    return o;
}

/* Does a configuration file widen the tree ember-migrate may write?  Only
 * one of this user's that nobody else may write: a .emberlint.json
 * another user planted in a shared parent (/tmp) must not make that
 * directory writable. */
static bool own_config(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && st.st_uid == geteuid() && !(st.st_mode & 022);
}

int em_scan(const em_scan_opts *o, em_tree *out, char **err)
{
    memset(out, 0, sizeof *out);
    *err = NULL;
    el_bounds_of_paths(&out->bounds, o->paths, o->n_paths);
    if (check_interrupted(o, &out->bounds, err) < 0) {
        em_tree_free(out);
        return -1;
    }
    if (o->compdb_dir && (!(out->db = el_compdb_load(o->compdb_dir, err)) ||
                          el_compdb_check_missing(out->db, o->paths, o->n_paths, "migrated",
                                                  o->refuse_missing, o->verbose,
                                                  err) < 0)) {
        em_tree_free(out);
        return -1;
    }
    size_t n_paths = o->n_paths, n_db = 0;
    char **db_paths = NULL;
    char *const *paths = o->paths;
    int rc = -1;
    if (!n_paths && out->db)
        paths = db_paths = db_inputs(out->db, &out->bounds, &n_paths, &n_db);
    el_configs *cfgs = NULL;
    el_filehash *hashes = NULL;
    el_fact_list facts = {0};
    el_unbuilt_across across = {0}; /* what each configuration left out as not built */
    el_own_uses own_uses = {0};     /* the uses EH102 took as the project's own */
    el_unbuilt unbuilt = {0};
    bool *selected = NULL;
    if (!n_paths) {
        *err = db_paths ? el_xasprintf("%s/compile_commands.json lists no file to migrate (build "
                                       "first, or name PATHs)", o->compdb_dir)
                        : el_xstrdup("no PATH given");
        goto done;
    }
    if (!(cfgs = el_configs_new(NULL, err)))
        goto done;
    /* a migrated tree has emptied its legacy backend directories */
    el_configs_quiet_unmatched(cfgs, EL_LEGACY_BACKEND_DIRS);
    if (o->shard_count) /* (ember-migrate merge warns, as one run does) */
        el_configs_quiet_all_unmatched(cfgs);
    el_configs_set_done(cfgs, SCANNED);
    hashes = el_filehash_new();
    if (el_sources_collect(paths, n_paths, cfgs, MAX_FILE_SIZE, hashes, &out->sources) < 0) {
        *err = el_xstrdup("configuration error (see above)");
        goto done;
    }
    if (db_paths)
        el_sources_walked(&out->sources, db_paths + n_db, n_paths - n_db);
    el_configs_finalize(cfgs);
    /* -p without PATH: BUILD, for the notes (the merge: as its shards
     * ran, recorded with the files "exclude" matches) */
    const char *db_only = db_paths ? o->compdb_dir : NULL;
    bool *excluded = NULL;
    if (o->n_merge) {
        json_object *inv = el_shard_invocation(o->merge_payloads[0], "ember-migrate", o->merge_whats[0], err);
        if (!inv)
            goto done;
        db_only = el_shard_db_only(inv, &out->sources, &excluded);
    } else if (db_only && !o->shard_count) {
        excluded = el_sources_named_excluded(&out->sources, db_only);
    }
    /* (a shard does not: the merge says it, as emberlint's) */
    if (!o->quiet && !o->shard_count) {
        el_sources_note_unwalked_cxx(&out->sources, SCANNED, SCAN);
        if (db_only)
            el_sources_note_excluded(&out->sources, excluded, db_only, SCANNED);
    }
    free(excluded);
    if (out->sources.io_errors) {
        *err = el_xasprintf("%d path%s could not be read (see above)", out->sources.io_errors,
                            out->sources.io_errors == 1 ? "" : "s");
        goto done;
    }
    if (el_buildcfgs_make(&out->cfgs, out->db, &out->sources, o->define_sets, err) < 0)
        goto done;
    /* the directory of a project's .emberlint.json is the project's: its
     * backends/ may be written (docs/ember-migrate.md, "What it writes") */
    for (size_t i = 0; i < out->sources.n; i++)
        if (out->sources.v[i].cfg && out->sources.v[i].cfg->path &&
            own_config(out->sources.v[i].cfg->path))
            el_bounds_add(&out->bounds, out->sources.v[i].cfg->root);

    selected = el_xcalloc(el_meta_count() + 1, sizeof *selected);
    static const char *const rules[] = {"EH000", "EH101", "EH102", "EH103", "EH104"};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        int k = el_meta_index(rules[i]);
        if (k >= 0)
            selected[k] = true;
    }
    static const el_rule *const extra[] = {&em_scan_rule, &el_inactive_rule, &em_custom_rule,
                                           NULL};
    if (o->custom_ns && o->custom_ns[0])
        el_configs_set_custom_ns(cfgs, o->custom_ns);
    out->inactive = el_xcalloc(out->cfgs.n, sizeof *out->inactive);
    /* analyze --shard and ember-migrate merge read the first
     * configuration only: a shard's payload is one engine run */
    bool sharded = o->n_merge || o->shard_count;
    size_t n_cfg = sharded ? 1 : out->cfgs.n;
    el_strmap notes_printed = {0}; /* each configuration's run: a note once */
    for (size_t k = 0; k < n_cfg; k++) {
        el_sources sub = sources_of(out, k);
        el_fact_list pass_facts = {0};
        el_findings found = {0};
        el_engine_opts eo = {
            .jobs = o->jobs > 0 ? o->jobs : 1,
            .extra_args = o->extra_args,
            .n_extra = o->n_extra,
            .compdb = out->cfgs.db[k],
            .selected = selected,
            .want_fixes = true,
            .extra_rules = extra,
            .facts_out = &pass_facts,
            .verbose = o->verbose,
            .done = SCANNED,
            .to_do = SCAN,
            .notes_printed = &notes_printed,
        };
        el_engine_stats stats = {0};
        el_tu_records recs = {0};
        el_unbuilt here = {0};
        eo.unbuilt_out = &here;
        int joined = 0;
        if (o->n_merge) {
            joined = el_shard_join(o->merge_payloads, o->merge_whats, o->n_merge, "ember-migrate",
                                   SCANNED, &sub, &recs, err);
            if (joined == 0) {
                here = recs.unbuilt;
                recs.unbuilt = (el_unbuilt){0};
                el_unbuilt_mark(&here, &sub); /* as the run marks them */
                el_engine_finish(&eo, &sub, &recs, &found);
            }
        } else {
            eo.shard_index = o->shard_index;
            eo.shard_count = o->shard_count;
            eo.tus_out = o->shard_count ? &recs : NULL;
            el_engine_run(&eo, &sub, hashes, &found, &stats);
            if (o->shard_count && o->shard_payload)
                *o->shard_payload = el_shard_payload("ember-migrate", o->shard_index,
                                                     o->shard_count,
                                                     shard_invocation(paths, n_paths, db_only,
                                                                      &out->sources),
                                                     &sub, &recs);
        }
        el_tu_records_free(&recs);
        el_unbuilt_across_add(&across, &here, &sub);
        free(sub.v);
        attach_template_rewrites(&found, &pass_facts);
        char *name = config_name(out, k);
        merge_findings(out, &found, k, name);
        el_own_uses_add(&own_uses, k, name, &pass_facts);
        free(name);
        el_inactive_from_facts(&out->inactive[k], &pass_facts);
        move_facts(&facts, &pass_facts);
        if (joined < 0) {
            el_strmap_free(&notes_printed);
            goto done;
        }
    }
    el_strmap_free(&notes_printed);
    if (sharded) { /* one configuration read: which report a site is not known */
        el_strmap_each(&out->site_configs, free_value, NULL);
        el_strmap_free(&out->site_configs);
    }
    el_findings_sort_unique(&out->findings);
    el_unbuilt_across_take(&across, &unbuilt);
    if (!o->shard_count) /* (a shard's files only: the merge says it for all, as emberlint's) */
        el_unbuilt_note(&unbuilt, o->verbose, SCANNED, SCAN);

    builder b = {.t = out, .sources = &out->sources};
    build(&b, &facts);
    /* (a shard's uses only: the merge says it, EH102 deciding them all) */
    if (!o->quiet && !o->shard_count)
        el_own_routines_note(&out->sources, out->cfgs.n, &own_uses, db_only,
                             "not listed", "scans", stderr);
    out->reach = el_xcalloc(1, sizeof *out->reach);
    out->custom = el_xcalloc(1, sizeof *out->custom);
    em_custom_scan_collect(out->custom, &facts);
    rc = 0;
done:
    el_own_uses_free(&own_uses);
    el_unbuilt_across_take(&across, &unbuilt);
    el_unbuilt_free(&unbuilt);
    el_fact_list_free(&facts);
    free(selected);
    el_filehash_free(hashes);
    if (rc < 0) {
        em_tree_free(out);
        el_configs_free(cfgs);
    } else {
        out->configs = cfgs; /* the sources point into them */
    }
    for (size_t i = 0; db_paths && i < n_paths; i++)
        free(db_paths[i]);
    free(db_paths);
    return rc;
}

static void free_strs(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void em_tree_free(em_tree *t)
{
    if (t->custom) {
        em_custom_scan_free(t->custom);
        free(t->custom);
    }
    for (size_t k = 0; t->inactive && k < t->cfgs.n; k++)
        el_inactive_free(&t->inactive[k]);
    free(t->inactive);
    el_buildcfgs_free(&t->cfgs);
    el_sources_free(&t->sources);
    el_compdb_free(t->db);
    el_configs_free(t->configs);
    el_bounds_free(&t->bounds);
    for (size_t i = 0; i < t->n_files; i++) {
        free(t->files[i].path);
        free(t->files[i].display);
        free(t->files[i].root);
    }
    free(t->files);
    free(t->root);
    for (size_t i = 0; i < t->n_defs; i++) {
        em_def *d = &t->defs[i];
        free(d->path);
        free(d->name);
        free_strs(d->uses, d->n_uses);
        free_strs(d->needs, d->n_needs);
        free_strs(d->locals, d->n_locals);
        free_strs(d->calls, d->n_calls);
        free(d->signature);
        free(d->dest);
    }
    free(t->defs);
    for (size_t i = 0; i < t->n_whys; i++) {
        free(t->whys[i].path);
        free(t->whys[i].why);
        free(t->whys[i].decl);
        free(t->whys[i].name);
    }
    free(t->whys);
    el_strmap_free(&t->why_places);
    el_strmap_each(&t->site_configs, free_value, NULL);
    el_strmap_free(&t->site_configs);
    if (t->reach) {
        el_strmap_free(&t->reach->answers);
        free(t->reach->edges);
    }
    free(t->reach);
    for (size_t i = 0; i < t->n_incs; i++) {
        free(t->incs[i].path);
        free(t->incs[i].spelled);
        free(t->incs[i].resolved);
    }
    free(t->incs);
    for (size_t i = 0; i < t->n_tables; i++) {
        em_table *x = &t->tables[i];
        free(x->path);
        free(x->var);
        for (size_t k = 0; k < el_op_count(); k++)
            free(x->functions[k]);
        free(x->functions);
        free(x->implemented);
    }
    free(t->tables);
    el_findings_free(&t->findings);
    for (size_t i = 0; i < t->n_backends; i++)
        free(t->backends[i]);
    free(t->backends);
    memset(t, 0, sizeof *t);
}
