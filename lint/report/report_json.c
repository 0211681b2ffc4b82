/* lint/report/report_json.c -- `--format json`: one JSON object,
 * {"tool", "version", "findings": [...], "summary": {...}}
 * (DESIGN.md section 4; docs/emberlint.md). */
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "fingerprint.h"
#include "metadata.h"
#include "report.h"
#include "utf8.h"

#ifndef EL_VERSION
#define EL_VERSION "0.0.0"
#endif

static json_object *clean_string(const char *s)
{
    char *c = el_utf8_clean(s);
    json_object *o = json_object_new_string(c);
    free(c);
    return o;
}

int el_report_json(FILE *out, const el_output *r)
{
    const el_findings *f = r->findings;
    json_object *root = json_object_new_object();
    json_object_object_add(root, "tool", json_object_new_string("emberlint"));
    json_object_object_add(root, "version", json_object_new_string(EL_VERSION));
    json_object *arr = json_object_new_array();
    el_texts texts = {0};
    char **own = r->fingerprints ? NULL : el_fingerprints(f, &texts);
    char *const *fps = r->fingerprints ? r->fingerprints : own;
    for (size_t i = 0; i < f->n; i++) {
        const el_finding *x = &f->v[i];
        int k = el_meta_index(x->rule);
        const el_rule_meta *m = k >= 0 ? el_meta_at((size_t)k) : NULL;
        json_object *o = json_object_new_object();
        json_object_object_add(o, "rule", json_object_new_string(x->rule));
        json_object_object_add(o, "name", json_object_new_string(m ? m->name : ""));
        json_object_object_add(o, "severity", json_object_new_string(el_severity_name(x->severity)));
        char *path = el_report_path(r, x->file);
        json_object_object_add(o, "file", json_object_new_string(path));
        free(path);
        json_object_object_add(o, "line", json_object_new_int64(x->line));
        json_object_object_add(o, "column", json_object_new_int64(x->col));
        json_object_object_add(o, "message", clean_string(x->message));
        bool fixable = r->fixes ? x->fix != NULL : (m && m->fixable);
        json_object_object_add(o, "fixable", json_object_new_boolean(fixable));
        json_object_object_add(o, "fingerprint", json_object_new_string(fps[i]));
        if (x->fix && r->fixes) {
            json_object *fx = json_object_new_object();
            json_object_object_add(fx, "safety", json_object_new_string(el_fix_safety_name(x->fix->safety)));
            json_object_object_add(fx, "description", clean_string(x->fix->description));
            json_object_object_add(o, "fix", fx);
        }
        json_object_array_add(arr, o);
    }
    json_object_object_add(root, "findings", arr);
    el_fingerprints_free(own, f->n);
    el_texts_free(&texts);

    el_counts c = el_report_count(f);
    json_object *sum = json_object_new_object();
    json_object_object_add(sum, "files", json_object_new_int64((int64_t)el_sources_linted(r->sources)));
    json_object_object_add(sum, "findings", json_object_new_int64((int64_t)f->n));
    json_object_object_add(sum, "errors", json_object_new_int64((int64_t)c.errors));
    json_object_object_add(sum, "warnings", json_object_new_int64((int64_t)c.warnings));
    json_object_object_add(sum, "notes", json_object_new_int64((int64_t)c.notes));
    json_object *by = json_object_new_object();
    size_t *counts = el_report_by_rule(f);
    for (size_t k = 0; k < el_meta_count(); k++)
        if (counts[k])
            json_object_object_add(by, el_meta_at(k)->id, json_object_new_int64((int64_t)counts[k]));
    free(counts);
    json_object_object_add(sum, "by_rule", by);
    json_object_object_add(root, "summary", sum);
    if (r->shard)
        json_object_object_add(root, "shard", json_object_get(r->shard));

    fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                                   JSON_C_TO_STRING_NOSLASHESCAPE),
          out);
    fputc('\n', out);
    json_object_put(root);
    fflush(out);
    return ferror(out) ? -1 : 0;
}
