/* lint/analysis/function_lists.c -- the function lists of
 * rules/host_access.json and the op equivalents of rules/op_equivalents.json
 * (function_lists.h), loaded once from the embedded copies. */
#include "function_lists.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "embedded.h"
#include "mem.h"
#include "progname.h"

typedef struct libm_entry {
    const char *name;      /* the double name, or a stdlib name */
    const char *suggest;   /* NULL: none */
    bool variants;         /* f and l variants match too */
} libm_entry;

static struct {
    sf_fn *fns;
    size_t n_fns;
    libm_entry *libm;
    size_t n_libm;
    struct op_entry {
        char op[8];
        const char *use;
        bool integer;      /* from integer_operators */
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

static int json_index(json_object *spec, const char *key)
{
    json_object *v = NULL;
    if (spec && json_object_object_get_ex(spec, key, &v) && json_object_is_type(v, json_type_int))
        return json_object_get_int(v);
    return -1;
}

static void add_fn(const char *name, sf_fn_kind kind, int a, int b)
{
    K.fns = el_xrealloc(K.fns, (K.n_fns + 1) * sizeof *K.fns);
    K.fns[K.n_fns++] = (sf_fn){el_xstrdup(name), kind, a, b};
}

static void add_fn_list(json_object *root, const char *key, sf_fn_kind kind)
{
    json_object *arr = NULL;
    if (!json_object_object_get_ex(root, key, &arr) || !json_object_is_type(arr, json_type_array))
        return;
    for (size_t i = 0; i < json_object_array_length(arr); i++) {
        const char *s = json_object_get_string(json_object_array_get_idx(arr, i));
        if (s)
            add_fn(s, kind, -1, -1);
    }
}

static void add_fn_map(json_object *root, const char *key, sf_fn_kind kind, const char *a,
                       const char *b)
{
    json_object *map = NULL;
    if (!json_object_object_get_ex(root, key, &map) || !json_object_is_type(map, json_type_object))
        return;
    json_object_object_foreach(map, name, spec) {
        add_fn(name, kind, json_index(spec, a), b ? json_index(spec, b) : -1);
    }
}

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

static void add_ops(json_object *root, const char *key, bool integer)
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
    }
}

static void load_lists(void)
{
    json_object *access = load_json("rules/host_access.json");
    if (access) {
        add_fn_list(access, "storage_accessors", SF_FN_ACCESSOR);
        add_fn_list(access, "scalar_reads", SF_FN_SCALAR_READ);
        add_fn_map(access, "copy_out", SF_FN_COPY_OUT, "buffer", NULL);
        add_fn_map(access, "to_tensor", SF_FN_TO_TENSOR, "data", NULL);
        add_fn_map(access, "host_copies", SF_FN_HOST_COPY, "dest", "src");
        json_object_put(access);
        qsort(K.fns, K.n_fns, sizeof *K.fns, cmp_fn);
    }
    json_object *eq = load_json("rules/op_equivalents.json");
    if (eq) {
        add_libm(eq, "libm", true);
        add_libm(eq, "stdlib", false);
        qsort(K.libm, K.n_libm, sizeof *K.libm, cmp_libm);
        add_ops(eq, "operators", false);
        add_ops(eq, "integer_operators", true);
        json_object_put(eq);
    }
}

static void lists(void)
{
    pthread_once(&k_once, load_lists);
}

const sf_fn *sf_function(const char *name)
{
    lists();
    sf_fn key = {name, 0, 0, 0};
    return K.n_fns ? bsearch(&key, K.fns, K.n_fns, sizeof *K.fns, cmp_fn) : NULL;
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
        if (strcmp(K.ops[i].op, op) != 0)
            continue;
        if (K.ops[i].integer && integer)
            return K.ops[i].use;
        if (!K.ops[i].integer)
            use = K.ops[i].use;
    }
    return use;
}
