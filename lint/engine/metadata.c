/* lint/engine/metadata.c -- rule metadata from the embedded rules/rules.json. */
#include "metadata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedded.h"
#include "mem.h"
#include "suppress.h"

static el_rule_meta *metas;
static size_t n_metas;
static json_object *root;

static const char *const class_names[] = {"external", "frontend", "backend", "core"};

bool el_applies_from_json(json_object *arr, unsigned *out)
{
    if (!json_object_is_type(arr, json_type_array))
        return false;
    unsigned bits = 0;
    for (size_t i = 0; i < json_object_array_length(arr); i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        if (!json_object_is_type(e, json_type_string))
            return false;
        const char *s = json_object_get_string(e);
        if (strcmp(s, "project") == 0) {
            bits |= EL_APPLIES_PROJECT;
            continue;
        }
        int k;
        for (k = 1; k < 4; k++)
            if (strcmp(s, class_names[k]) == 0)
                break;
        if (k == 4)
            return false;
        bits |= EL_APPLIES(k);
    }
    *out = bits;
    return true;
}

const char *el_applies_str(unsigned applies, char *buf, size_t n)
{
    buf[0] = '\0';
    size_t used = 0;
    for (int k = 1; k < 4; k++) {
        if (applies & EL_APPLIES(k))
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s",
                                     used ? ", " : "", class_names[k]);
    }
    if (applies & EL_APPLIES_PROJECT)
        snprintf(buf + used, used < n ? n - used : 0, "%sproject", used ? ", " : "");
    return buf;
}

static const char *str_field(json_object *o, const char *key)
{
    json_object *v;
    if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
        return NULL;
    return json_object_get_string(v);
}

static int cmp_meta(const void *a, const void *b)
{
    return strcmp(((const el_rule_meta *)a)->id, ((const el_rule_meta *)b)->id);
}

int el_meta_init(const el_rule *const *implemented, char **err)
{
    const char *text = el_embedded_text("rules/rules.json");
    json_object *rules;
    root = text ? json_tokener_parse(text) : NULL;
    if (!root || !json_object_object_get_ex(root, "rules", &rules) ||
        !json_object_is_type(rules, json_type_array)) {
        *err = el_xstrdup("internal error: rules/rules.json is missing or malformed");
        return -1;
    }
    n_metas = json_object_array_length(rules);
    metas = el_xcalloc(n_metas, sizeof *metas);
    for (size_t i = 0; i < n_metas; i++) {
        json_object *r = json_object_array_get_idx(rules, i), *v;
        el_rule_meta *m = &metas[i];
        m->id = str_field(r, "id");
        m->name = str_field(r, "name");
        m->summary = str_field(r, "summary");
        m->fix = str_field(r, "fix");
        const char *sev = str_field(r, "severity");
        bool ok = m->id && strlen(m->id) < 8 && m->name && m->summary && m->fix && sev &&
                  el_severity_parse(sev, &m->severity) && m->severity != EL_SEV_OFF &&
                  json_object_object_get_ex(r, "applies_to", &v) &&
                  el_applies_from_json(v, &m->applies) &&
                  json_object_object_get_ex(r, "fixable", &v) &&
                  json_object_is_type(v, json_type_boolean);
        if (!ok) {
            *err = el_xasprintf("internal error: rules/rules.json: rule %zu is incomplete", i);
            return -1;
        }
        m->fixable = json_object_get_boolean(v);
        if (json_object_object_get_ex(r, "options", &v)) {
            bool good = json_object_is_type(v, json_type_object);
            if (good) {
                json_object_object_foreach(v, key, spec) {
                    json_object *t = NULL, *d = NULL;
                    const char *ts = json_object_object_get_ex(spec, "type", &t) ? json_object_get_string(t) : "";
                    good = good && json_object_object_get_ex(spec, "default", &d) &&
                           ((strcmp(ts, "names") == 0 && json_object_is_type(d, json_type_array)) ||
                            (strcmp(ts, "string") == 0 && json_object_is_type(d, json_type_string)));
                    (void)key;
                }
            }
            if (!good) {
                *err = el_xasprintf("internal error: rules/rules.json: the options of %s are malformed",
                                    m->id);
                return -1;
            }
            m->options = v;
        }
        m->builtin = strcmp(m->id, EL_RULE_UNUSED_SUPPRESSION) == 0 ||
                     strcmp(m->id, EL_RULE_UNKNOWN_RULE) == 0;
        char doc[64];
        snprintf(doc, sizeof doc, "docs/rules/%s.md", m->id);
        m->doc = el_embedded_text(doc);
    }
    if (n_metas > 1)
        qsort(metas, n_metas, sizeof *metas, cmp_meta);
    for (const el_rule *const *r = implemented; *r; r++) {
        int k = el_meta_index((*r)->id);
        if (k < 0) {
            *err = el_xasprintf("internal error: rule %s is implemented but has no entry "
                                "in rules/rules.json", (*r)->id);
            return -1;
        }
        if (metas[k].impl) {
            *err = el_xasprintf("internal error: rule %s is implemented twice", (*r)->id);
            return -1;
        }
        metas[k].impl = *r;
    }
    return 0;
}

void el_meta_free(void)
{
    free(metas);
    metas = NULL;
    n_metas = 0;
    if (root)
        json_object_put(root);
    root = NULL;
}

size_t el_meta_count(void)
{
    return n_metas;
}

const el_rule_meta *el_meta_at(size_t i)
{
    return i < n_metas ? &metas[i] : NULL;
}

int el_meta_index(const char *id)
{
    size_t lo = 0, hi = n_metas;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(metas[mid].id, id);
        if (c == 0)
            return (int)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

const char *el_meta_option_type(const el_rule_meta *m, const char *option)
{
    json_object *spec = NULL, *t = NULL;
    if (!m->options || !json_object_object_get_ex(m->options, option, &spec) ||
        !json_object_object_get_ex(spec, "type", &t))
        return NULL;
    return json_object_get_string(t);
}

bool el_meta_implemented(const el_rule_meta *m)
{
    return m->impl || m->builtin;
}
