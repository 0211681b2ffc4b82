/* lint/report/baseline.c -- reading, matching and writing baselines
 * (baseline.h). */
#include "baseline.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>

#include "mem.h"
#include "path.h"
#include "strmap.h"
#include "utf8.h"

#define BASELINE_FORMAT 1

static const char *jstr(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

/* The directory a baseline's paths are relative to. */
static char *base_dir(const char *baseline_path)
{
    char *abs = el_path_abs(baseline_path);
    char *dir = el_path_dirname(abs);
    free(abs);
    char *real = el_path_real(dir);
    if (real) {
        free(dir);
        return real;
    }
    return dir;
}

static void add_entry(el_baseline *b, const char *file, const char *rule, const char *fp,
                      unsigned line, const char *message)
{
    el_grow(&b->v, &b->cap, b->n + 1, sizeof *b->v);
    el_baseline_entry *e = &b->v[b->n++];
    memset(e, 0, sizeof *e);
    e->file = el_xstrdup(file);
    e->rule = el_xstrdup(rule);
    e->fingerprint = el_xstrdup(fp);
    e->line = line;
    e->message = el_utf8_clean(message ? message : "");
}

int el_baseline_read(const char *path, el_baseline *out, char **err)
{
    memset(out, 0, sizeof *out);
    json_object *root = json_object_from_file(path);
    if (!root) {
        FILE *f = fopen(path, "r");
        if (!f) {
            *err = el_xasprintf("%s: cannot read the baseline: %s", path, strerror(errno));
            return -1;
        }
        fclose(f);
        *err = el_xasprintf("%s: not a baseline (not valid JSON)", path);
        return -1;
    }
    json_object *fmt, *findings;
    const char *tool = jstr(root, "tool");
    if (!tool || strcmp(tool, "emberlint") != 0 || !json_object_object_get_ex(root, "format", &fmt) ||
        !json_object_object_get_ex(root, "findings", &findings) ||
        !json_object_is_type(findings, json_type_array)) {
        json_object_put(root);
        *err = el_xasprintf("%s: not an emberlint baseline (write one with --write-baseline)", path);
        return -1;
    }
    if (json_object_get_int(fmt) != BASELINE_FORMAT) {
        json_object_put(root);
        *err = el_xasprintf("%s: baseline format %d; this emberlint reads format %d", path,
                            json_object_get_int(fmt), BASELINE_FORMAT);
        return -1;
    }
    char *dir = base_dir(path);
    int rc = 0;
    for (size_t i = 0; i < json_object_array_length(findings); i++) {
        json_object *e = json_object_array_get_idx(findings, i);
        const char *file = jstr(e, "file"), *rule = jstr(e, "rule"), *fp = jstr(e, "fingerprint");
        json_object *line = NULL;
        if (!file || !rule || !fp) {
            *err = el_xasprintf("%s: entry %zu lacks file, rule or fingerprint", path, i + 1);
            rc = -1;
            break;
        }
        json_object_object_get_ex(e, "line", &line);
        char *abs = file[0] == '/' ? el_xstrdup(file) : el_path_join(dir, file);
        char *norm = el_path_abs(abs);
        add_entry(out, norm, rule, fp, line ? (unsigned)json_object_get_int(line) : 0, jstr(e, "message"));
        free(norm);
        free(abs);
    }
    free(dir);
    json_object_put(root);
    if (rc < 0)
        el_baseline_free(out);
    return rc;
}

static char *match_key(const char *file, const char *rule, const char *fp)
{
    return el_xasprintf("%s\n%s\n%s", file, rule, fp);
}

size_t el_baseline_filter(el_baseline *b, el_findings *f, char **fps, size_t *stale,
                          const el_sources *scope)
{
    /* key -> 1 + index of the first unmatched entry with that key; entries
     * with the same key are chained through `next` */
    el_strmap first = {0};
    size_t *next = el_xcalloc(b->n + 1, sizeof *next);
    for (size_t i = b->n; i-- > 0;) {
        char *k = match_key(b->v[i].file, b->v[i].rule, b->v[i].fingerprint);
        next[i] = (size_t)(uintptr_t)el_strmap_put(&first, k, (void *)(uintptr_t)(i + 1));
        free(k);
    }
    size_t removed = 0, out = 0;
    for (size_t i = 0; i < f->n; i++) {
        char *k = match_key(f->v[i].file, f->v[i].rule, fps[i]);
        size_t slot = (size_t)(uintptr_t)el_strmap_get(&first, k);
        if (slot) {
            b->v[slot - 1].matched = true;
            el_strmap_put(&first, k, (void *)(uintptr_t)next[slot - 1]);
            free(k);
            el_finding_clear(&f->v[i]);
            free(fps[i]);
            removed++;
            continue;
        }
        free(k);
        f->v[out] = f->v[i];
        fps[out] = fps[i];
        out++;
    }
    f->n = out;
    free(next);
    el_strmap_free(&first);
    *stale = 0;
    for (size_t i = 0; i < b->n; i++)
        if (!b->v[i].matched && el_sources_find(scope, b->v[i].file) >= 0)
            (*stale)++;
    return removed;
}

static int cmp_entry(const void *pa, const void *pb)
{
    const el_baseline_entry *a = pa, *b = pb;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if ((c = strcmp(a->rule, b->rule)))
        return c;
    return strcmp(a->fingerprint, b->fingerprint);
}

static json_object *entry_json(const el_baseline_entry *e, const char *dir)
{
    char *rel = el_path_under(e->file, dir);
    json_object *o = json_object_new_object();
    json_object_object_add(o, "file", json_object_new_string(rel ? rel : e->file));
    json_object_object_add(o, "fingerprint", json_object_new_string(e->fingerprint));
    json_object_object_add(o, "line", json_object_new_int64(e->line));
    json_object_object_add(o, "message", json_object_new_string(e->message));
    json_object_object_add(o, "rule", json_object_new_string(e->rule));
    free(rel);
    return o;
}

static int write_atomically(const char *path, const char *text, char **err)
{
    char *tmp = el_xasprintf("%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        *err = el_xasprintf("%s: cannot write the baseline: %s", path, strerror(errno));
        free(tmp);
        return -1;
    }
    bool ok = fputs(text, f) >= 0 && fflush(f) == 0 && fsync(fileno(f)) == 0;
    int e = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        unlink(tmp);
        *err = el_xasprintf("%s: cannot write the baseline: %s", path, strerror(e));
    }
    free(tmp);
    return ok ? 0 : -1;
}

int el_baseline_write(const char *path, const el_findings *f, char *const *fps,
                      const el_baseline *keep, const el_sources *scope, char **err)
{
    el_baseline all = {0};
    for (size_t i = 0; i < f->n; i++)
        add_entry(&all, f->v[i].file, f->v[i].rule, fps[i], f->v[i].line, f->v[i].message);
    for (size_t i = 0; keep && i < keep->n; i++) {
        const el_baseline_entry *e = &keep->v[i];
        if (el_sources_find(scope, e->file) < 0)
            add_entry(&all, e->file, e->rule, e->fingerprint, e->line, e->message);
    }
    if (all.n)
        qsort(all.v, all.n, sizeof *all.v, cmp_entry);
    char *dir = base_dir(path);
    json_object *root = json_object_new_object();
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < all.n; i++)
        json_object_array_add(arr, entry_json(&all.v[i], dir));
    json_object_object_add(root, "findings", arr);
    json_object_object_add(root, "format", json_object_new_int(BASELINE_FORMAT));
    json_object_object_add(root, "tool", json_object_new_string("emberlint"));
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
                                                                JSON_C_TO_STRING_SPACED |
                                                                JSON_C_TO_STRING_NOSLASHESCAPE);
    char *doc = el_xasprintf("%s\n", text);
    int rc = write_atomically(path, doc, err);
    free(doc);
    json_object_put(root);
    free(dir);
    el_baseline_free(&all);
    return rc;
}

void el_baseline_free(el_baseline *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->v[i].file);
        free(b->v[i].rule);
        free(b->v[i].fingerprint);
        free(b->v[i].message);
    }
    free(b->v);
    memset(b, 0, sizeof *b);
}
