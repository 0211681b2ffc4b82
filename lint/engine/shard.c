/* lint/engine/shard.c -- shards and their payloads (shard.h). */
#include "shard.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hash.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"
#include "strmap.h"
#include "finding_json.h"

/* 2: the invocation says a run without PATH (db_only, excluded) */
#define PAYLOAD_FORMAT 2
#define MAX_SHARDS EL_MAX_SHARDS

/* path relative to the root when under it, else the path itself. */
static char *rel_of(const char *path, void *ud)
{
    (void)ud;
    char *rel = el_path_under(path, el_shard_root());
    return rel ? rel : el_xstrdup(path);
}

static char *abs_of(const char *path, void *ud)
{
    (void)ud;
    return path[0] == '/' ? el_xstrdup(path) : el_path_join(el_shard_root(), path);
}

/* A configuration by where it lies and what it says (its fingerprint
 * holds absolute paths: it would differ in another checkout). */
static void hash_config(el_hasher *h, const el_config *cfg)
{
    if (!cfg || !cfg->path) {
        el_hash_str(h, "(built-in configuration)");
        return;
    }
    char *rel = rel_of(cfg->path, NULL);
    el_hash_str(h, rel);
    free(rel);
    el_buf b = {0};
    el_buf_read_path(&b, cfg->path); /* (unreadable: hashed as what was read) */
    el_hash128 c = el_hash_bytes(b.s ? b.s : "", b.n);
    el_buf_free(&b);
    el_hash_u64(h, c.a);
    el_hash_u64(h, c.b);
}

/* The tree as the run saw it: every file's root-relative path, content,
 * class, backend and configuration. */
static void tree_hash(const el_sources *s, char hex[33])
{
    el_hasher h;
    el_hash_init(&h);
    el_hash_u64(&h, s->n);
    const el_config *last_cfg = NULL;
    el_hash128 last = {0, 0};
    for (size_t i = 0; i < s->n; i++) {
        const el_source *x = &s->v[i];
        char *rel = rel_of(x->path, NULL);
        el_hash_str(&h, rel);
        free(rel);
        el_hash_u64(&h, x->hash.a);
        el_hash_u64(&h, x->hash.b);
        el_hash_u64(&h, (uint64_t)x->cls);
        el_hash_str(&h, x->backend);
        if (x->cfg != last_cfg) { /* files mostly share one */
            el_hasher ch;
            el_hash_init(&ch);
            hash_config(&ch, x->cfg);
            last = el_hash_final(&ch);
            last_cfg = x->cfg;
        }
        el_hash_u64(&h, last.a);
        el_hash_u64(&h, last.b);
    }
    el_hash_hex(el_hash_final(&h), hex);
}

static char *cwd_rel(void)
{
    return rel_of(el_cwd(), NULL);
}

json_object *el_shard_payload(const char *tool, unsigned index, unsigned count,
                              json_object *invocation, const el_sources *sources,
                              const el_tu_records *recs)
{
    json_object *p = json_object_new_object();
    char hex[33], *cwd = cwd_rel();
    tree_hash(sources, hex);
    json_object_object_add(p, "format", json_object_new_int(PAYLOAD_FORMAT));
    json_object_object_add(p, "tool", json_object_new_string(tool));
    json_object_object_add(p, "shard", json_object_new_int64(index + 1));
    json_object_object_add(p, "of", json_object_new_int64(count));
    json_object_object_add(p, "root", json_object_new_string(el_shard_root()));
    json_object_object_add(p, "cwd", json_object_new_string(cwd));
    json_object_object_add(p, "tree", json_object_new_string(hex));
    json_object_object_add(p, "invocation", invocation ? invocation : json_object_new_object());
    free(cwd);
    json_object *tus = json_object_new_array();
    for (size_t i = 0; i < recs->n; i++) {
        const el_tu_record *t = &recs->v[i];
        json_object *o = json_object_new_object();
        char *file = rel_of(sources->v[t->src].path, NULL);
        json_object_object_add(o, "file", json_object_new_string(file));
        free(file);
        json_object_object_add(o, "standalone", json_object_new_boolean(t->standalone));
        json_object *f = json_object_new_array();
        for (size_t k = 0; k < t->result.findings.n; k++)
            json_object_array_add(f, el_finding_to_json(&t->result.findings.v[k], rel_of, NULL));
        json_object_object_add(o, "findings", f);
        json_object *facts = json_object_new_array();
        for (size_t k = 0; k < t->result.n_facts; k++) {
            json_object *a = json_object_new_array();
            char *ff = rel_of(t->result.facts[k].file, NULL);
            json_object_array_add(a, json_object_new_string(ff));
            free(ff);
            json_object_array_add(a, json_object_new_string(t->result.facts[k].key));
            json_object_array_add(a, json_object_new_string(t->result.facts[k].value));
            json_object_array_add(facts, a);
        }
        json_object_object_add(o, "facts", facts);
        json_object *reads = json_object_new_array();
        for (size_t k = 0; k < t->result.n_deps; k++) {
            char *d = rel_of(t->result.deps[k].path, NULL);
            json_object_array_add(reads, json_object_new_string(d));
            free(d);
        }
        json_object_object_add(o, "reads", reads);
        json_object_array_add(tus, o);
    }
    json_object_object_add(p, "tus", tus);
    json_object *unbuilt = json_object_new_array();
    for (size_t i = 0; i < recs->unbuilt.n; i++) {
        json_object *o = json_object_new_object();
        char *file = rel_of(recs->unbuilt.v[i].path, NULL);
        json_object_object_add(o, "file", json_object_new_string(file));
        free(file);
        json_object_object_add(o, "header", json_object_new_boolean(recs->unbuilt.v[i].header));
        if (recs->unbuilt.v[i].by_cxx) /* (only C++ files the run leaves out include it) */
            json_object_object_add(o, "by_cxx", json_object_new_boolean(true));
        json_object_array_add(unbuilt, o);
    }
    json_object_object_add(p, "unbuilt", unbuilt);
    return p;
}

static json_object *get(json_object *o, const char *key, json_type type)
{
    json_object *v;
    return o && json_object_object_get_ex(o, key, &v) && json_object_is_type(v, type) ? v : NULL;
}

void el_shard_invocation_db_only(json_object *invocation, const char *build_dir, const el_sources *s)
{
    bool *marked = el_sources_named_excluded(s, build_dir);
    json_object *ex = json_object_new_array();
    for (size_t i = 0; marked && i < s->n; i++) {
        if (!marked[i])
            continue;
        char *rel = rel_of(s->v[i].path, NULL);
        json_object_array_add(ex, json_object_new_string(rel));
        free(rel);
    }
    free(marked);
    json_object_object_add(invocation, "db_only", json_object_new_string(build_dir));
    json_object_object_add(invocation, "excluded", ex);
}

const char *el_shard_db_only(json_object *invocation, const el_sources *s, bool **excluded)
{
    *excluded = NULL;
    json_object *b = get(invocation, "db_only", json_type_string);
    json_object *ex = get(invocation, "excluded", json_type_array);
    for (size_t i = 0; b && ex && i < json_object_array_length(ex); i++) {
        json_object *f = json_object_array_get_idx(ex, i);
        if (!json_object_is_type(f, json_type_string))
            continue;
        char *abs = abs_of(json_object_get_string(f), NULL);
        long k = el_sources_find(s, abs);
        free(abs);
        if (k < 0)
            continue;
        if (!*excluded)
            *excluded = el_xcalloc(s->n + 1, sizeof **excluded);
        (*excluded)[k] = true;
    }
    return b ? json_object_get_string(b) : NULL;
}

json_object *el_shard_payload_of(json_object *report)
{
    json_object *p = get(report, "shard", json_type_object);
    if (p)
        return p;
    json_object *runs = get(report, "runs", json_type_array);
    if (!runs || json_object_array_length(runs) < 1)
        return NULL;
    return get(get(json_object_array_get_idx(runs, 0), "properties", json_type_object),
               "emberlintShard", json_type_object);
}

json_object *el_shard_invocation(json_object *payload, const char *tool, const char *what, char **err)
{
    json_object *fmt = get(payload, "format", json_type_int);
    json_object *t = get(payload, "tool", json_type_string);
    json_object *inv = get(payload, "invocation", json_type_object);
    if (!payload || !fmt || !t || !inv) {
        *err = el_xasprintf("%s: not a shard's report (run the shards with --shard K/N and a "
                            "json or sarif report)", what);
        return NULL;
    }
    if (strcmp(json_object_get_string(t), tool) != 0) {
        *err = el_xasprintf("%s: a report of %s, not of %s", what, json_object_get_string(t), tool);
        return NULL;
    }
    if (json_object_get_int(fmt) != PAYLOAD_FORMAT) {
        *err = el_xasprintf("%s: shard format %d; this version reads format %d", what,
                            json_object_get_int(fmt), PAYLOAD_FORMAT);
        return NULL;
    }
    return inv;
}

char **el_shard_invocation_paths(json_object *invocation, size_t *n, const char *what, char **err)
{
    json_object *ps = get(invocation, "paths", json_type_array);
    if (!ps) {
        *err = el_xasprintf("%s: the shard payload is malformed", what);
        return NULL;
    }
    *n = json_object_array_length(ps);
    char **paths = el_xcalloc(*n + 1, sizeof *paths);
    for (size_t i = 0; i < *n; i++)
        paths[i] = (char *)json_object_get_string(json_object_array_get_idx(ps, i));
    return paths;
}

/* ---- joining ----------------------------------------------------------------- */

typedef struct loader {
    const char *old_root;   /* the shard's root */
    const char *new_root;   /* ours */
} loader;

/* A fact's value may hold paths (EH105 records its table's): move the
 * shard's root to ours. */
static char *move_root(const loader *l, const char *value)
{
    if (strcmp(l->old_root, l->new_root) == 0)
        return el_xstrdup(value);
    char *from = el_xasprintf("%s/", l->old_root);
    el_buf b = {0};
    size_t fl = strlen(from);
    for (const char *p = value; *p;) {
        const char *hit = strstr(p, from);
        if (!hit) {
            el_buf_puts(&b, p);
            break;
        }
        el_buf_putn(&b, p, (size_t)(hit - p));
        el_buf_printf(&b, "%s/", l->new_root);
        p = hit + fl;
    }
    free(from);
    return b.s ? el_buf_take(&b) : el_xstrdup("");
}

static int load_tu(const loader *l, json_object *o, el_sources *sources, el_tu_record *t, char **err,
                   const char *what)
{
    json_object *file = get(o, "file", json_type_string), *findings = get(o, "findings", json_type_array),
                *facts = get(o, "facts", json_type_array), *reads = get(o, "reads", json_type_array),
                *standalone = get(o, "standalone", json_type_boolean);
    if (!file || !findings || !facts || !reads || !standalone) {
        *err = el_xasprintf("%s: a translation unit of the shard is malformed", what);
        return -1;
    }
    char *abs = abs_of(json_object_get_string(file), NULL);
    long k = el_sources_find(sources, abs);
    free(abs);
    if (k < 0) {
        *err = el_xasprintf("%s: %s is not among the files here: the tree differs from the shard's",
                            what, json_object_get_string(file));
        return -1;
    }
    memset(t, 0, sizeof *t);
    t->src = (size_t)k;
    t->standalone = json_object_get_boolean(standalone);
    t->result.parsed = true;
    for (size_t i = 0; i < json_object_array_length(findings); i++) {
        if (!el_finding_from_json(json_object_array_get_idx(findings, i), &t->result.findings, abs_of, NULL)) {
            *err = el_xasprintf("%s: a finding of %s is malformed", what, json_object_get_string(file));
            return -1;
        }
    }
    for (size_t i = 0; i < json_object_array_length(facts); i++) {
        json_object *a = json_object_array_get_idx(facts, i);
        json_object *ff = json_object_array_get_idx(a, 0), *fk = json_object_array_get_idx(a, 1),
                    *fv = json_object_array_get_idx(a, 2);
        if (!json_object_is_type(ff, json_type_string) || !json_object_is_type(fk, json_type_string) ||
            !json_object_is_type(fv, json_type_string)) {
            *err = el_xasprintf("%s: a fact of %s is malformed", what, json_object_get_string(file));
            return -1;
        }
        char *fa = abs_of(json_object_get_string(ff), NULL);
        char *val = move_root(l, json_object_get_string(fv));
        el_result_add_fact(&t->result, fa, json_object_get_string(fk), val);
        free(val);
        free(fa);
    }
    for (size_t i = 0; i < json_object_array_length(reads); i++) {
        json_object *d = json_object_array_get_idx(reads, i);
        if (!json_object_is_type(d, json_type_string))
            continue;
        char *da = abs_of(json_object_get_string(d), NULL);
        el_result_add_dep(&t->result, da, (el_hash128){0, 0});
        free(da);
    }
    return 0;
}

/* A shard's files not built in its configuration (el_unbuilt) that no
 * TU of any shard read, into out. */
static int load_unbuilt(json_object *list, el_strmap *read, el_unbuilt *out, const char *what,
                        char **err)
{
    for (size_t i = 0; list && i < json_object_array_length(list); i++) {
        json_object *o = json_object_array_get_idx(list, i);
        json_object *file = get(o, "file", json_type_string), *header = get(o, "header", json_type_boolean);
        if (!file || !header) {
            *err = el_xasprintf("%s: the shard payload is malformed", what);
            return -1;
        }
        json_object *by_cxx = NULL;
        char *abs = abs_of(json_object_get_string(file), NULL);
        if (!el_strmap_get(read, abs))
            el_unbuilt_add(out, abs, json_object_get_boolean(header),
                           json_object_object_get_ex(o, "by_cxx", &by_cxx) &&
                               json_object_get_boolean(by_cxx));
        free(abs);
    }
    return 0;
}

static int cmp_record(const void *pa, const void *pb)
{
    const el_tu_record *a = pa, *b = pb;
    if (a->standalone != b->standalone)
        return a->standalone ? 1 : -1;
    return a->src < b->src ? -1 : a->src > b->src;
}

/* (a payload without "cwd" is left to el_shard_join to call malformed) */
static int check_cwd(json_object *pcwd, const char *cwd, const char *what, char **err)
{
    if (!pcwd || strcmp(json_object_get_string(pcwd), cwd) == 0)
        return 0;
    *err = el_xasprintf("%s: the shard ran in %s of its repository, this is %s: run the merge "
                        "where the shards ran", what, json_object_get_string(pcwd), cwd);
    return -1;
}

int el_shard_check_cwd(json_object *payload, const char *what, char **err)
{
    char *cwd = cwd_rel();
    int rc = check_cwd(get(payload, "cwd", json_type_string), cwd, what, err);
    free(cwd);
    return rc;
}

/* The files payload p names -- its translation units' main files and the
 * files it did not build -- counted in *named, and those of them here
 * (relative to the root) in *here; the first named in *first. */
static void count_files_here(json_object *p, size_t *named, size_t *here, const char **first)
{
    static const char *const lists[] = {"tus", "unbuilt"};
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
        json_object *list = get(p, lists[l], json_type_array);
        for (size_t t = 0; list && t < json_object_array_length(list); t++) {
            json_object *file = get(json_object_array_get_idx(list, t), "file", json_type_string);
            if (!file)
                continue; /* (malformed: el_shard_join says so) */
            if (!*first)
                *first = json_object_get_string(file);
            char *abs = abs_of(json_object_get_string(file), NULL);
            struct stat st;
            (*named)++;
            *here += stat(abs, &st) == 0 && S_ISREG(st.st_mode);
            free(abs);
        }
    }
}

int el_shard_check_here(json_object *const *payloads, const char *const *whats, size_t n,
                        const char *tool, char **err)
{
    size_t named = 0, here = 0;
    const char *first = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!el_shard_invocation(payloads[i], tool, whats[i], err) ||
            el_shard_check_cwd(payloads[i], whats[i], err) < 0)
            return -1;
        count_files_here(payloads[i], &named, &here, &first);
    }
    /* none here: another directory; some missing only: the tree changed
     * since, which el_shard_join's check of the tree says */
    if (named && !here) {
        *err = el_xasprintf("%s: none of the files the shards name (%s%s) is here: run the merge in "
                            "the directory the shards ran in", whats[0], first, named > 1 ? ", ..." : "");
        return -1;
    }
    return 0;
}

int el_shard_join(json_object *const *payloads, const char *const *whats, size_t n,
                  const char *tool, const char *done, el_sources *sources, el_tu_records *out, char **err)
{
    memset(out, 0, sizeof *out);
    if (!n) {
        *err = el_xstrdup("no shard reports given");
        return -1;
    }
    char hex[33], *cwd = cwd_rel();
    tree_hash(sources, hex);
    json_object *first_inv = NULL;
    unsigned count = 0;
    bool *seen = NULL;
    el_tu_records all = {0};
    int rc = -1;
    for (size_t i = 0; i < n; i++) {
        json_object *p = payloads[i];
        json_object *inv = el_shard_invocation(p, tool, whats[i], err);
        if (!inv)
            goto done;
        json_object *k = get(p, "shard", json_type_int), *of = get(p, "of", json_type_int),
                    *root = get(p, "root", json_type_string), *pcwd = get(p, "cwd", json_type_string),
                    *tree = get(p, "tree", json_type_string), *tus = get(p, "tus", json_type_array);
        if (!k || !of || !root || !pcwd || !tree || !tus || json_object_get_int64(of) < 1 ||
            json_object_get_int64(of) > MAX_SHARDS || json_object_get_int64(k) < 1 ||
            json_object_get_int64(k) > json_object_get_int64(of)) {
            *err = el_xasprintf("%s: the shard payload is malformed", whats[i]);
            goto done;
        }
        unsigned ki = (unsigned)json_object_get_int64(k), ni = (unsigned)json_object_get_int64(of);
        if (!count) {
            count = ni;
            seen = el_xcalloc(count + 1, sizeof *seen);
            first_inv = inv;
        } else if (ni != count) {
            *err = el_xasprintf("%s: shard %u/%u, but %s is of %u shards", whats[i], ki, ni, whats[0], count);
            goto done;
        } else if (!json_object_equal(inv, first_inv)) {
            *err = el_xasprintf("%s: the shard ran with other paths or options than %s", whats[i], whats[0]);
            goto done;
        }
        if (seen[ki - 1]) {
            *err = el_xasprintf("%s: shard %u/%u is given twice", whats[i], ki, ni);
            goto done;
        }
        seen[ki - 1] = true;
        if (check_cwd(pcwd, cwd, whats[i], err) < 0)
            goto done;
        if (strcmp(json_object_get_string(tree), hex) != 0) {
            *err = el_xasprintf("%s: the files here differ from those shard %u/%u %s (another "
                                "commit, or edited since?)", whats[i], ki, ni, done);
            goto done;
        }
        loader l = {json_object_get_string(root), el_shard_root()};
        for (size_t t = 0; t < json_object_array_length(tus); t++) {
            el_grow(&all.v, &all.cap, all.n + 1, sizeof *all.v);
            if (load_tu(&l, json_object_array_get_idx(tus, t), sources, &all.v[all.n], err, whats[i]) < 0) {
                el_result_free(&all.v[all.n].result);
                goto done;
            }
            all.n++;
        }
    }
    for (unsigned s = 0; s < count; s++) {
        if (!seen[s]) {
            *err = el_xasprintf("shard %u/%u is missing", s + 1, count);
            goto done;
        }
    }
    /* (after every TU is in: one shard's file another's TU read) */
    el_strmap read = {0};
    for (size_t t = 0; t < all.n; t++)
        for (size_t d = 0; d < all.v[t].result.n_deps; d++)
            el_strmap_put(&read, all.v[t].result.deps[d].path, (void *)1);
    for (size_t i = 0; i < n && rc == -1; i++)
        if (load_unbuilt(get(payloads[i], "unbuilt", json_type_array), &read, &out->unbuilt,
                         whats[i], err) < 0)
            rc = -2;
    el_strmap_free(&read);
    if (rc == -2) {
        rc = -1;
        goto done;
    }
    /* A TU whose main file another read counts only through that one (a
     * header a .c file included, a .c file another includes), as in a run
     * over everything. */
    const char **mains = el_xcalloc(all.n + 1, sizeof *mains);
    el_tu_result **res = el_xcalloc(all.n + 1, sizeof *res);
    bool *standalone = el_xcalloc(all.n + 1, sizeof *standalone);
    for (size_t i = 0; i < all.n; i++) {
        mains[i] = sources->v[all.v[i].src].path;
        res[i] = &all.v[i].result;
        standalone[i] = all.v[i].standalone;
    }
    bool *elsewhere = el_tus_read_elsewhere(mains, res, standalone, all.n);
    for (size_t i = 0; i < all.n; i++) {
        el_tu_record *t = &all.v[i];
        if (elsewhere[i]) {
            el_result_free(&t->result);
            continue;
        }
        el_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v);
        out->v[out->n++] = *t;
    }
    free(elsewhere);
    free(standalone);
    free(res);
    free(mains);
    free(all.v);
    all = (el_tu_records){0};
    if (out->n)
        qsort(out->v, out->n, sizeof *out->v, cmp_record);
    rc = 0;
done:
    el_tu_records_free(&all);
    if (rc < 0)
        el_tu_records_free(out);
    free(seen);
    free(cwd);
    return rc;
}
