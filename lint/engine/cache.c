/* lint/engine/cache.c -- per-TU result cache on disk (cache.h). */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <json-c/json.h>

#include "finding_json.h"
#include "mem.h"
#include "path.h"
#include "strbuf.h"

#define CACHE_FORMAT 1
#define MAX_ENTRY_BYTES (64u << 20)

struct el_cache {
    char *dir;
    atomic_uint serial;
};

static int mkdir_p(const char *dir)
{
    char *p = el_path_abs(dir);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char saved = *s;
            *s = '\0';
            if (mkdir(p, 0777) != 0 && errno != EEXIST) {
                int e = errno;
                free(p);
                errno = e;
                return -1;
            }
            *s = saved;
            if (!saved)
                break;
        }
    }
    free(p);
    return 0;
}

static void write_small(const char *path, const char *text)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return;
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

el_cache *el_cache_open(const char *dir, char **err)
{
    struct stat st;
    if (mkdir_p(dir) != 0 || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) ||
        access(dir, W_OK) != 0) {
        *err = el_xasprintf("%s: cannot use as the cache directory: %s", dir,
                            strerror(errno ? errno : ENOTDIR));
        return NULL;
    }
    char *tag = el_path_join(dir, "CACHEDIR.TAG");
    write_small(tag, "Signature: 8a477f597d28d172789f06886806bc55\n"
                     "# This directory is emberlint's result cache; see docs/emberlint.md.\n");
    free(tag);
    char *ign = el_path_join(dir, ".gitignore");
    write_small(ign, "# Automatically created by emberlint.\n*\n");
    free(ign);
    el_cache *c = el_xcalloc(1, sizeof *c);
    c->dir = el_xstrdup(dir);
    return c;
}

static char *entry_path(const el_cache *c, el_hash128 key)
{
    char hex[33];
    el_hash_hex(key, hex);
    return el_xasprintf("%s/%s.json", c->dir, hex);
}

static bool hex_to_hash(const char *s, el_hash128 *out)
{
    if (!s || strlen(s) != 32)
        return false;
    unsigned long long a = 0, b = 0;
    for (int i = 0; i < 32; i++) {
        char ch = s[i];
        unsigned v = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0')
                     : ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10) : 16;
        if (v > 15)
            return false;
        if (i < 16)
            a = a << 4 | v;
        else
            b = b << 4 | v;
    }
    out->a = a;
    out->b = b;
    return true;
}

static char *read_all(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    el_buf b = {0};
    char chunk[65536];
    ssize_t got;
    while ((got = read(fd, chunk, sizeof chunk)) > 0) {
        el_buf_putn(&b, chunk, (size_t)got);
        if (b.n > MAX_ENTRY_BYTES)
            break;
    }
    close(fd);
    if (got < 0 || b.n > MAX_ENTRY_BYTES) {
        el_buf_free(&b);
        return NULL;
    }
    return el_buf_take(&b);
}

static const char *arr_str(json_object *a, size_t i)
{
    json_object *e = json_object_array_get_idx(a, i);
    return json_object_is_type(e, json_type_string) ? json_object_get_string(e) : NULL;
}

static bool arr_uint(json_object *a, size_t i, unsigned *out)
{
    json_object *e = json_object_array_get_idx(a, i);
    if (!json_object_is_type(e, json_type_int))
        return false;
    int64_t v = json_object_get_int64(e);
    if (v < 0 || v > 0xFFFFFFFFll)
        return false;
    *out = (unsigned)v;
    return true;
}

static bool get_array(json_object *o, const char *key, json_object **out)
{
    return json_object_object_get_ex(o, key, out) && json_object_is_type(*out, json_type_array);
}

bool el_cache_load(el_cache *c, el_hash128 key, el_tu_result *out,
                   bool (*dep_ok)(const char *path, el_hash128 token, void *ud), void *ud)
{
    char *path = entry_path(c, key);
    char *text = read_all(path);
    free(path);
    if (!text)
        return false;
    json_object *root = json_tokener_parse(text);
    free(text);
    json_object *v, *deps, *findings, *facts;
    bool ok = root && json_object_object_get_ex(root, "format", &v) &&
              json_object_get_int(v) == CACHE_FORMAT && get_array(root, "deps", &deps) &&
              get_array(root, "findings", &findings) && get_array(root, "facts", &facts);
    el_tu_result r = {0};
    for (size_t i = 0; ok && i < json_object_array_length(deps); i++) {
        json_object *d = json_object_array_get_idx(deps, i);
        const char *p = arr_str(d, 0);
        el_hash128 tok;
        ok = p && hex_to_hash(arr_str(d, 1), &tok) && dep_ok(p, tok, ud);
        if (ok)
            el_result_add_dep(&r, p, tok);
    }
    for (size_t i = 0; ok && i < json_object_array_length(findings); i++) {
        json_object *f = json_object_array_get_idx(findings, i);
        const char *rule = arr_str(f, 0), *sev = arr_str(f, 1), *file = arr_str(f, 2),
                   *msg = arr_str(f, 5);
        unsigned line = 0, col = 0;
        el_severity s;
        ok = rule && sev && file && msg && strlen(rule) < 8 && el_severity_parse(sev, &s) &&
             arr_uint(f, 3, &line) && arr_uint(f, 4, &col);
        if (ok)
            el_findings_add(&r.findings, rule, s, file, line, col, msg);
        /* the fix, when the run kept fixes (engine.h: cache_fixes) */
        if (ok && json_object_array_length(f) > 6)
            ok = (r.findings.v[r.findings.n - 1].fix =
                      el_fix_from_json(json_object_array_get_idx(f, 6), NULL, NULL)) != NULL;
    }
    for (size_t i = 0; ok && i < json_object_array_length(facts); i++) {
        json_object *f = json_object_array_get_idx(facts, i);
        const char *file = arr_str(f, 0), *k = arr_str(f, 1), *val = arr_str(f, 2);
        ok = file && k && val;
        if (ok)
            el_result_add_fact(&r, file, k, val);
    }
    if (root)
        json_object_put(root);
    if (!ok) {
        el_result_free(&r);
        return false;
    }
    r.parsed = true;
    r.from_cache = true;
    *out = r;
    return true;
}

void el_cache_store(el_cache *c, el_hash128 key, const el_tu_result *r)
{
    json_object *root = json_object_new_object();
    json_object *deps = json_object_new_array();
    json_object *findings = json_object_new_array();
    json_object *facts = json_object_new_array();
    json_object_object_add(root, "format", json_object_new_int(CACHE_FORMAT));
    for (size_t i = 0; i < r->n_deps; i++) {
        char hex[33];
        el_hash_hex(r->deps[i].hash, hex);
        json_object *d = json_object_new_array();
        json_object_array_add(d, json_object_new_string(r->deps[i].path));
        json_object_array_add(d, json_object_new_string(hex));
        json_object_array_add(deps, d);
    }
    for (size_t i = 0; i < r->findings.n; i++) {
        const el_finding *f = &r->findings.v[i];
        json_object *a = json_object_new_array();
        json_object_array_add(a, json_object_new_string(f->rule));
        json_object_array_add(a, json_object_new_string(el_severity_name(f->severity)));
        json_object_array_add(a, json_object_new_string(f->file));
        json_object_array_add(a, json_object_new_int64(f->line));
        json_object_array_add(a, json_object_new_int64(f->col));
        json_object_array_add(a, json_object_new_string(f->message));
        if (f->fix)
            json_object_array_add(a, el_fix_to_json(f->fix, NULL, NULL));
        json_object_array_add(findings, a);
    }
    for (size_t i = 0; i < r->n_facts; i++) {
        json_object *a = json_object_new_array();
        json_object_array_add(a, json_object_new_string(r->facts[i].file));
        json_object_array_add(a, json_object_new_string(r->facts[i].key));
        json_object_array_add(a, json_object_new_string(r->facts[i].value));
        json_object_array_add(facts, a);
    }
    json_object_object_add(root, "deps", deps);
    json_object_object_add(root, "findings", findings);
    json_object_object_add(root, "facts", facts);
    const char *text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN);

    char *path = entry_path(c, key);
    char *tmp = el_xasprintf("%s.%ld.%u.tmp", path, (long)getpid(),
                             atomic_fetch_add(&c->serial, 1u));
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    bool ok = fd >= 0;
    if (ok) {
        size_t len = strlen(text), off = 0;
        while (off < len) {
            ssize_t w = write(fd, text + off, len - off);
            if (w <= 0) {
                ok = false;
                break;
            }
            off += (size_t)w;
        }
        if (close(fd) != 0)
            ok = false;
    }
    if (!ok || rename(tmp, path) != 0)
        unlink(tmp); /* the cache is an optimisation: a failed write is a miss next time */
    free(tmp);
    free(path);
    json_object_put(root);
}

void el_cache_close(el_cache *c)
{
    if (!c)
        return;
    free(c->dir);
    free(c);
}
