/* lint/engine/finding_json.c -- findings and fixes as JSON (finding_json.h). */
#include "finding_json.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"

static char *mapped(const char *path, el_path_map *map, void *ud)
{
    return map ? map(path, ud) : el_xstrdup(path);
}

static json_object *path_json(const char *path, el_path_map *map, void *ud)
{
    char *p = mapped(path, map, ud);
    json_object *o = json_object_new_string(p);
    free(p);
    return o;
}

static const char *str_at(json_object *a, size_t i)
{
    json_object *e = json_object_array_get_idx(a, i);
    return json_object_is_type(e, json_type_string) ? json_object_get_string(e) : NULL;
}

static bool int_at(json_object *a, size_t i, int64_t max, int64_t *out)
{
    json_object *e = json_object_array_get_idx(a, i);
    if (!json_object_is_type(e, json_type_int))
        return false;
    int64_t v = json_object_get_int64(e);
    if (v < 0 || v > max)
        return false;
    *out = v;
    return true;
}

json_object *el_fix_to_json(const el_fix *fx, el_path_map *map, void *ud)
{
    json_object *a = json_object_new_array();
    json_object_array_add(a, json_object_new_string(el_fix_safety_name(fx->safety)));
    json_object_array_add(a, json_object_new_string(fx->description ? fx->description : ""));
    json_object *edits = json_object_new_array();
    for (size_t i = 0; i < fx->edits.n; i++) {
        const el_edit *e = &fx->edits.v[i];
        json_object *x = json_object_new_array();
        json_object_array_add(x, path_json(e->path, map, ud));
        json_object_array_add(x, json_object_new_int64((int64_t)e->begin));
        json_object_array_add(x, json_object_new_int64((int64_t)e->end));
        json_object_array_add(x, json_object_new_string(e->text));
        json_object_array_add(edits, x);
    }
    json_object_array_add(a, edits);
    return a;
}

el_fix *el_fix_from_json(json_object *a, el_path_map *map, void *ud)
{
    const char *safety = str_at(a, 0), *desc = str_at(a, 1);
    json_object *edits = json_object_array_get_idx(a, 2);
    if (!safety || !desc || !json_object_is_type(edits, json_type_array) ||
        (strcmp(safety, "safe") != 0 && strcmp(safety, "unsafe") != 0))
        return NULL;
    el_fix *fx = el_xcalloc(1, sizeof *fx);
    fx->safety = strcmp(safety, "safe") == 0 ? EL_FIX_SAFE : EL_FIX_UNSAFE;
    fx->description = el_xstrdup(desc);
    for (size_t i = 0; i < json_object_array_length(edits); i++) {
        json_object *e = json_object_array_get_idx(edits, i);
        const char *path = str_at(e, 0), *text = str_at(e, 3);
        int64_t begin, end;
        if (!path || !text || !int_at(e, 1, INT64_MAX, &begin) || !int_at(e, 2, INT64_MAX, &end) ||
            end < begin) {
            el_fix_free(fx);
            return NULL;
        }
        char *p = mapped(path, map, ud);
        el_edits_add(&fx->edits, p, (size_t)begin, (size_t)end, text, 0);
        free(p);
    }
    return fx;
}

json_object *el_finding_to_json(const el_finding *x, el_path_map *map, void *ud)
{
    json_object *a = json_object_new_array();
    json_object_array_add(a, json_object_new_string(x->rule));
    json_object_array_add(a, json_object_new_string(el_severity_name(x->severity)));
    json_object_array_add(a, path_json(x->file, map, ud));
    json_object_array_add(a, json_object_new_int64(x->line));
    json_object_array_add(a, json_object_new_int64(x->col));
    json_object_array_add(a, json_object_new_string(x->message));
    if (x->fix)
        json_object_array_add(a, el_fix_to_json(x->fix, map, ud));
    return a;
}

bool el_finding_from_json(json_object *a, el_findings *out, el_path_map *map, void *ud)
{
    const char *rule = str_at(a, 0), *sev = str_at(a, 1), *file = str_at(a, 2), *msg = str_at(a, 5);
    int64_t line, col;
    el_severity s;
    if (!json_object_is_type(a, json_type_array) || !rule || !sev || !file || !msg ||
        strlen(rule) >= sizeof out->v[0].rule || !el_severity_parse(sev, &s) ||
        !int_at(a, 3, 0xFFFFFFFFll, &line) || !int_at(a, 4, 0xFFFFFFFFll, &col))
        return false;
    el_fix *fx = NULL;
    if (json_object_array_length(a) > 6 && !(fx = el_fix_from_json(json_object_array_get_idx(a, 6), map, ud)))
        return false;
    char *p = mapped(file, map, ud);
    el_findings_add(out, rule, s, p, (unsigned)line, (unsigned)col, msg);
    free(p);
    out->v[out->n - 1].fix = fx;
    return true;
}
