/* migrate/custom_scan.c -- the facts of custom_rule.h read into
 * custom_scan.h's structs. */
#include "custom_scan.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "custom_rule.h"
#include "engine.h"
#include "mem.h"

/* ---- the facts ---------------------------------------------------------- */

static const char *jstr(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : "";
}

static int64_t jint(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v) : 0;
}

static bool jbool(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && json_object_get_boolean(v);
}

static em_param_kind kind_of(const char *k)
{
    return !strcmp(k, "tensor")         ? EM_PARAM_TENSOR
           : !strcmp(k, "const_tensor") ? EM_PARAM_CONST_TENSOR
           : !strcmp(k, "scalar")       ? EM_PARAM_SCALAR
                                        : EM_PARAM_OTHER;
}

static bool same_place(const em_cfn *a, const char *path, unsigned line, unsigned col,
                       const char *name)
{
    return a->line == line && a->col == col && !strcmp(a->path, path) && !strcmp(a->name, name);
}

static void add_fn(em_custom_scan *s, json_object *o)
{
    const char *path = jstr(o, "path"), *name = jstr(o, "name");
    unsigned line = (unsigned)jint(o, "line"), col = (unsigned)jint(o, "col");
    for (size_t i = 0; i < s->n; i++)
        if (same_place(&s->v[i], path, line, col, name))
            return; /* a header read by several TUs */
    el_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v);
    em_cfn *f = &s->v[s->n++];
    memset(f, 0, sizeof *f);
    f->path = el_xstrdup(path);
    f->name = el_xstrdup(name);
    snprintf(f->backend, sizeof f->backend, "%s", jstr(o, "backend"));
    snprintf(f->rest, sizeof f->rest, "%s", jstr(o, "rest"));
    f->line = line;
    f->col = col;
    f->definition = jbool(o, "definition");
    f->is_static = jbool(o, "static");
    f->in_macro = jbool(o, "in_macro");
    f->variadic = jbool(o, "variadic");
    f->type = el_xstrdup(jstr(o, "type"));
    f->shown = el_xstrdup(jstr(o, "shown"));
    json_object *r, *ps;
    if (json_object_object_get_ex(o, "result", &r)) {
        f->result_kind = kind_of(jstr(r, "kind"));
        f->result = el_xstrdup(jstr(r, "spelling"));
        f->result_why = el_xstrdup(jstr(r, "why"));
    } else {
        f->result_kind = EM_PARAM_OTHER;
        f->result = el_xstrdup("?");
        f->result_why = el_xstrdup("");
    }
    if (json_object_object_get_ex(o, "params", &ps) && json_object_is_type(ps, json_type_array)) {
        f->n_params = json_object_array_length(ps);
        f->params = el_xcalloc(f->n_params + 1, sizeof *f->params);
        for (size_t k = 0; k < f->n_params; k++) {
            json_object *p = json_object_array_get_idx(ps, k);
            f->params[k].name = el_xstrdup(jstr(p, "name"));
            f->params[k].spelling = el_xstrdup(jstr(p, "spelling"));
            f->params[k].kind = kind_of(jstr(p, "kind"));
            f->params[k].why = el_xstrdup(jstr(p, "why"));
        }
    }
}

void em_custom_scan_collect(em_custom_scan *s, const el_fact_list *facts)
{
    for (size_t i = 0; i < facts->n; i++) {
        if (strcmp(facts->v[i].key, EM_FACT_CUSTOM_FN) != 0)
            continue;
        json_object *o = json_tokener_parse(facts->v[i].value);
        if (o)
            add_fn(s, o);
        json_object_put(o);
    }
}

void em_custom_scan_free(em_custom_scan *s)
{
    for (size_t i = 0; i < s->n; i++) {
        em_cfn *f = &s->v[i];
        free(f->path);
        free(f->name);
        free(f->type);
        free(f->shown);
        free(f->result);
        free(f->result_why);
        for (size_t k = 0; k < f->n_params; k++) {
            free(f->params[k].name);
            free(f->params[k].spelling);
            free(f->params[k].why);
        }
        free(f->params);
    }
    free(s->v);
    memset(s, 0, sizeof *s);
}

