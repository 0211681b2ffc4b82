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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "compdb.h"
#include "config.h"
#include "engine.h"
#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "rule.h"
#include "scan_rule.h"
#include "shard.h"
#include "sources.h"

#define MAX_FILE_SIZE (64u << 20)
#define KERNELS_DEF "kernels.def"

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

typedef struct builder {
    em_tree *t;
    size_t cap_files, cap_defs, cap_incs, cap_tables, cap_backends;
    const el_sources *sources;
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
    in->path = el_xstrdup(path);
    in->spelled = el_xstrdup(spelled);
    in->angled = jbool(o, "angled");
    in->resolved = resolved ? el_xstrdup(resolved) : NULL;
    in->line = (unsigned)jint(o, "line");
    in->begin = begin;
    in->end = (size_t)jint(o, "end");
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
    return root ? root : el_xstrdup(el_cwd());
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
             tab = strcmp(r->key, EM_FACT_TABLE) == 0;
        if (!def && !inc && !tab)
            continue;
        json_object *o = json_tokener_parse(r->value);
        if (!o)
            continue;
        if (def)
            add_def(b, o);
        else if (inc)
            add_include(b, o);
        else
            add_table(b, o);
        json_object_put(o);
    }
    scan_kernels_defs(b);
    set_destinations(b);
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

/* How a shard scanned, for ember-migrate merge to scan the same files:
 * the paths (relative to the current directory when under it). */
static json_object *shard_invocation(char *const *paths, size_t n)
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
    return o;
}

int em_scan(const em_scan_opts *o, em_tree *out, char **err)
{
    memset(out, 0, sizeof *out);
    *err = NULL;
    el_compdb *db = NULL;
    if (o->compdb_dir && !(db = el_compdb_load(o->compdb_dir, err)))
        return -1;
    size_t n_paths = o->n_paths;
    char **db_paths;
    char *const *paths = el_compdb_paths_or(db, o->paths, &n_paths, &db_paths);
    int rc = -1;
    el_configs *cfgs = NULL;
    el_filehash *hashes = NULL;
    el_sources sources = {0};
    el_fact_list facts = {0};
    bool *selected = NULL;
    if (!n_paths) {
        *err = el_xstrdup("no PATH given");
        goto done;
    }
    if (!(cfgs = el_configs_new(NULL, err)))
        goto done;
    hashes = el_filehash_new();
    if (el_sources_collect(paths, n_paths, cfgs, MAX_FILE_SIZE, hashes, &sources) < 0) {
        *err = el_xstrdup("configuration error (see above)");
        goto done;
    }
    el_configs_finalize(cfgs);
    if (sources.io_errors) {
        *err = el_xasprintf("%d path%s could not be read (see above)", sources.io_errors,
                            sources.io_errors == 1 ? "" : "s");
        goto done;
    }

    selected = el_xcalloc(el_meta_count() + 1, sizeof *selected);
    static const char *const rules[] = {"EH000", "EH101", "EH102", "EH103", "EH104"};
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
        int k = el_meta_index(rules[i]);
        if (k >= 0)
            selected[k] = true;
    }
    static const el_rule *const extra[] = {&em_scan_rule, NULL};
    el_engine_opts eo = {
        .jobs = o->jobs > 0 ? o->jobs : 1,
        .extra_args = o->extra_args,
        .n_extra = o->n_extra,
        .compdb = db,
        .selected = selected,
        .want_fixes = true,
        .extra_rules = extra,
        .facts_out = &facts,
    };
    el_engine_stats stats = {0, 0};
    el_tu_records recs = {0};
    if (o->n_merge) {
        if (el_shard_join(o->merge_payloads, o->merge_whats, o->n_merge, "ember-migrate", &sources, &recs,
                          err) < 0)
            goto done;
        el_engine_finish(&eo, &sources, &recs, &out->findings);
    } else {
        eo.shard_index = o->shard_index;
        eo.shard_count = o->shard_count;
        eo.tus_out = o->shard_count ? &recs : NULL;
        el_engine_run(&eo, &sources, hashes, &out->findings, &stats);
        if (o->shard_count && o->shard_payload)
            *o->shard_payload = el_shard_payload("ember-migrate", o->shard_index, o->shard_count,
                                                 shard_invocation(paths, n_paths), &sources, &recs);
    }
    el_tu_records_free(&recs);

    builder b = {.t = out, .sources = &sources};
    build(&b, &facts);
    rc = 0;
done:
    el_fact_list_free(&facts);
    free(selected);
    el_sources_free(&sources);
    el_filehash_free(hashes);
    el_configs_free(cfgs);
    el_compdb_free(db);
    free(db_paths);
    if (rc < 0)
        em_tree_free(out);
    return rc;
}

void em_tree_free(em_tree *t)
{
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
        for (size_t k = 0; k < d->n_uses; k++)
            free(d->uses[k]);
        free(d->uses);
        for (size_t k = 0; k < d->n_needs; k++)
            free(d->needs[k]);
        free(d->needs);
        free(d->dest);
    }
    free(t->defs);
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
