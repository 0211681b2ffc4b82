/* lint/analysis/function_lists.c -- the host-access functions of the
 * configuration (rules/host_access.json and rules/storage_accessors.json,
 * generated at build time from <eh/tensor.h>, under the project's keys)
 * and the op equivalents of rules/op_equivalents.json (function_lists.h). */
#include "function_lists.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "config.h"
#include "embedded.h"
#include "mem.h"
#include "progname.h"

typedef struct libm_entry {
    const char *name;      /* the double name, or a stdlib name */
    const char *suggest;   /* NULL: none */
    bool variants;         /* f and l variants match too */
} libm_entry;

static struct {
    libm_entry *libm;
    size_t n_libm;
    struct op_entry {
        char op[8];
        const char *use;
        bool integer;      /* from integer_operators */
        bool accumulates;  /* from accumulators */
    } ops[32];
    size_t n_ops;
} K;

static pthread_once_t k_once = PTHREAD_ONCE_INIT;

static int cmp_fn(const void *a, const void *b)
{
    return strcmp(((const sf_fn *)a)->name, ((const sf_fn *)b)->name);
}

static int cmp_libm(const void *a, const void *b)
{
    return strcmp(((const libm_entry *)a)->name, ((const libm_entry *)b)->name);
}

static json_object *load_json(const char *name)
{
    const char *text = el_embedded_text(name);
    json_object *o = text ? json_tokener_parse(text) : NULL;
    if (!o || !json_object_is_type(o, json_type_object)) {
        /* The build embeds the file: this is a packaging error. */
        fprintf(stderr, "%s: internal error: %s is missing or malformed\n", el_progname, name);
        json_object_put(o);
        return NULL;
    }
    return o;
}

/* ---- the host-access functions of a configuration ----------------------- */

/* One sorted table per distinct configuration (by fingerprint), built on
 * first use and kept for the process: worker threads share them. */
typedef struct fn_table {
    el_hash128 key;
    sf_fn *fns;
    size_t n;
} fn_table;

static fn_table **tables;
static size_t n_tables;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local const fn_table *last_table;

static void add_fn(fn_table *t, const char *name, sf_fn_kind kind, int a, int b)
{
    t->fns = el_xrealloc(t->fns, (t->n + 1) * sizeof *t->fns);
    t->fns[t->n++] = (sf_fn){el_xstrdup(name), kind, a, b};
}

static fn_table *build_table(const el_config *cfg)
{
    fn_table *t = el_xcalloc(1, sizeof *t);
    t->key = cfg->fingerprint;
    const el_strlist *acc = el_config_list(cfg, EL_STORAGE_ACCESSORS);
    for (size_t i = 0; i < acc->n; i++)
        add_fn(t, acc->v[i], SF_FN_ACCESSOR, -1, -1);
    const el_strlist *reads = el_config_list(cfg, EL_SCALAR_READS);
    for (size_t i = 0; i < reads->n; i++)
        add_fn(t, reads->v[i], SF_FN_SCALAR_READ, -1, -1);
    static const struct {
        el_map_key key;
        sf_fn_kind kind;
    } maps[] = {{EL_COPY_OUT, SF_FN_COPY_OUT}, {EL_TO_TENSOR, SF_FN_TO_TENSOR},
                {EL_HOST_COPIES, SF_FN_HOST_COPY}};
    for (size_t k = 0; k < sizeof maps / sizeof *maps; k++) {
        const el_kvlist *m = &cfg->maps[maps[k].key];
        for (size_t i = 0; i < m->n; i++)
            add_fn(t, m->v[i].key, maps[k].kind, m->v[i].a, m->v[i].b);
    }
    if (t->n > 1)
        qsort(t->fns, t->n, sizeof *t->fns, cmp_fn);
    return t;
}

static const fn_table *table_for(const el_config *cfg)
{
    if (last_table && el_hash_eq(last_table->key, cfg->fingerprint))
        return last_table;
    pthread_mutex_lock(&tables_lock);
    const fn_table *t = NULL;
    for (size_t i = 0; i < n_tables && !t; i++)
        if (el_hash_eq(tables[i]->key, cfg->fingerprint))
            t = tables[i];
    if (!t) {
        tables = el_xrealloc(tables, (n_tables + 1) * sizeof *tables);
        tables[n_tables] = build_table(cfg);
        t = tables[n_tables++];
    }
    pthread_mutex_unlock(&tables_lock);
    last_table = t;
    return t;
}

const sf_fn *sf_function(const el_config *cfg, const char *name)
{
    const fn_table *t = table_for(cfg);
    sf_fn key = {name, 0, 0, 0};
    return t->n ? bsearch(&key, t->fns, t->n, sizeof *t->fns, cmp_fn) : NULL;
}

/* ---- rules/op_equivalents.json --------------------------------------------- */

static void add_libm(json_object *root, const char *key, bool variants)
{
    json_object *map = NULL;
    if (!json_object_object_get_ex(root, key, &map) || !json_object_is_type(map, json_type_object))
        return;
    json_object_object_foreach(map, name, v) {
        K.libm = el_xrealloc(K.libm, (K.n_libm + 1) * sizeof *K.libm);
        const char *s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
        K.libm[K.n_libm++] = (libm_entry){el_xstrdup(name), s ? el_xstrdup(s) : NULL, variants};
    }
}

static void add_ops(json_object *root, const char *key, bool integer, bool accumulates)
{
    json_object *map = NULL;
    if (!json_object_object_get_ex(root, key, &map) || !json_object_is_type(map, json_type_object))
        return;
    json_object_object_foreach(map, op, v) {
        if (K.n_ops == sizeof K.ops / sizeof K.ops[0] || !json_object_is_type(v, json_type_string))
            continue;
        struct op_entry *e = &K.ops[K.n_ops++];
        snprintf(e->op, sizeof e->op, "%s", op);
        e->use = el_xstrdup(json_object_get_string(v));
        e->integer = integer;
        e->accumulates = accumulates;
    }
}

static void load_lists(void)
{
    json_object *eq = load_json("rules/op_equivalents.json");
    if (eq) {
        add_libm(eq, "libm", true);
        add_libm(eq, "stdlib", false);
        qsort(K.libm, K.n_libm, sizeof *K.libm, cmp_libm);
        add_ops(eq, "operators", false, false);
        add_ops(eq, "integer_operators", true, false);
        add_ops(eq, "accumulators", false, true);
        json_object_put(eq);
    }
}

static void lists(void)
{
    pthread_once(&k_once, load_lists);
}


static const libm_entry *libm_find(const char *name)
{
    libm_entry key = {name, NULL, false};
    return K.n_libm ? bsearch(&key, K.libm, K.n_libm, sizeof *K.libm, cmp_libm) : NULL;
}

bool sf_libm(const char *name, const char **suggest, const char **base)
{
    lists();
    if (strncmp(name, "__builtin_", 10) == 0)
        name += 10;
    const libm_entry *e = libm_find(name);
    if (!e) {
        /* sqrtf, sqrtl */
        size_t n = strlen(name);
        char stem[64];
        if (n < 2 || n >= sizeof stem || (name[n - 1] != 'f' && name[n - 1] != 'l'))
            return false;
        memcpy(stem, name, n - 1);
        stem[n - 1] = '\0';
        e = libm_find(stem);
        if (!e || !e->variants)
            return false;
    }
    if (suggest)
        *suggest = e->suggest;
    if (base)
        *base = e->name;
    return true;
}

const char *sf_operator_op(const char *op, bool integer)
{
    lists();
    const char *use = NULL;
    for (size_t i = 0; i < K.n_ops; i++) {
        if (strcmp(K.ops[i].op, op) != 0 || K.ops[i].accumulates)
            continue;
        if (K.ops[i].integer && integer)
            return K.ops[i].use;
        if (!K.ops[i].integer)
            use = K.ops[i].use;
    }
    return use;
}

/* ---- what a message suggests ------------------------------------------------ */

static const char *copy_out(const char *s, char *buf, size_t n)
{
    if (!s)
        return NULL;
    snprintf(buf, n, "%s", s);
    return buf;
}

const char *sf_suggest_operator(el_ctx *ctx, const char *op, bool integer, bool scalar, char *buf,
                                size_t n)
{
    char key[16];
    snprintf(key, sizeof key, "%s", op);
    const char *own = el_replacement(ctx, key, buf, n);
    if (own || !el_uses_libeh(ctx))
        return own;
    const char *use = sf_operator_op(op, integer);
    if (use && scalar && !strchr(use, '(') && el_is_op(use)) {
        snprintf(buf, n, "%s_scalar", use);
        return buf;
    }
    return copy_out(use, buf, n);
}

const char *sf_suggest_accumulation(el_ctx *ctx, const char *op, char *buf, size_t n)
{
    char key[16];
    snprintf(key, sizeof key, "%s=", op);
    const char *own = el_replacement(ctx, key, buf, n);
    if (own || !el_uses_libeh(ctx))
        return own;
    lists();
    for (size_t i = 0; i < K.n_ops; i++)
        if (K.ops[i].accumulates && strcmp(K.ops[i].op, op) == 0)
            return copy_out(K.ops[i].use, buf, n);
    return NULL;
}

const char *sf_suggest_libm(el_ctx *ctx, const char *name, bool *none, char *buf, size_t n)
{
    const char *suggest = NULL, *base = NULL;
    *none = false;
    bool known = sf_libm(name, &suggest, &base);
    const char *own = el_replacement(ctx, name, buf, n);
    if (!own && base)
        own = el_replacement(ctx, base, buf, n);
    if (own || !known || !el_uses_libeh(ctx))
        return own;
    *none = suggest == NULL;
    return copy_out(suggest, buf, n);
}
