/* lint/engine/cache.c -- per-TU result cache on disk (cache.h).
 *
 * An entry file is one header line and a JSON object:
 *
 *   emberlint-cache 2 CHECKSUM
 *   {"key": "...", "deps": [[path, token]...], "absent": [path...],
 *    "findings": [[rule, severity, file, line, column, message(, fix)]...],
 *    "facts": [[file, key, value]...]}
 *
 * CHECKSUM is the hash of the key and the JSON text, so a truncated,
 * edited or renamed (swapped) entry is a miss. */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>

#include "finding_json.h"
#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "strbuf.h"

#define CACHE_MAGIC "emberlint-cache 2 "
#define MAX_ENTRY_BYTES (16u << 20)
#define MAX_PATH_BYTES 4096
#define MAX_TEXT_BYTES (1u << 20)
#define MAX_LINE 1000000000u
/* Stands for the root in stored strings (messages, fact values). */
#define ROOT_MARK "\x1b{root}"

struct el_cache {
    int dirfd;
    char *root;          /* absolute, no trailing slash ("/" is kept as is) */
    size_t root_len;
    unsigned long long seed; /* for temporary names (random_bits) */
    atomic_uint serial;
};

/* ---- the directory ---------------------------------------------------------- */

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

/* Create name in the cache directory with text, unless something (even a
 * dangling symbolic link) is already there. */
static void write_once(int dirfd, const char *name, const char *text)
{
    int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0)
        return;
    size_t len = strlen(text);
    if (write(fd, text, len) != (ssize_t)len) {
        close(fd);
        unlinkat(dirfd, name, 0);
        return;
    }
    close(fd);
}

/* A seed for temporary names (random_bits). */
static unsigned long long random_seed(void)
{
    unsigned long long v = 0;
    if (getrandom(&v, sizeof v, GRND_NONBLOCK) == (ssize_t)sizeof v)
        return v;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_nsec * 0x9e3779b97f4a7c15ull ^ (unsigned long long)getpid() << 32 ^
           (unsigned long long)ts.tv_sec;
}

el_cache *el_cache_open(const char *dir, const char *root, char **err)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && mkdir_p(dir) == 0)
        fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        struct stat st;
        bool link = lstat(dir, &st) == 0 && S_ISLNK(st.st_mode);
        *err = el_xasprintf("%s: cannot use as the cache directory: %s", dir,
                            link ? "it is a symbolic link" : strerror(e));
        return NULL;
    }
    if (faccessat(fd, ".", W_OK, 0) != 0) {
        *err = el_xasprintf("%s: cannot use as the cache directory: %s", dir, strerror(errno));
        close(fd);
        return NULL;
    }
    write_once(fd, "CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
                                   "# This directory is emberlint's result cache; see "
                                   "docs/emberlint.md.\n");
    write_once(fd, ".gitignore", "# Automatically created by emberlint: never commit a cache.\n*\n");
    el_cache *c = el_xcalloc(1, sizeof *c);
    c->dirfd = fd;
    c->root = el_xstrdup(root);
    c->root_len = strlen(c->root);
    c->seed = random_seed();
    return c;
}

const char *el_cache_default_dir(char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *abs = el_path_abs(paths[i]);
        char *rel = el_path_under(abs, el_cwd());
        bool inside = rel != NULL;
        free(rel);
        free(abs);
        if (!inside)
            return NULL;
    }
    return ".emberlint-cache";
}

void el_cache_close(el_cache *c)
{
    if (!c)
        return;
    close(c->dirfd);
    free(c->root);
    free(c);
}

/* ---- paths and strings relative to the root ------------------------------------ */

/* Stored form of an absolute path: relative to the root when under it. */
static char *store_path(const el_cache *c, const char *abs)
{
    if (strcmp(c->root, "/") == 0)
        return el_xstrdup(abs);
    char *rel = el_path_under(abs, c->root);
    if (rel && strcmp(rel, ".") != 0)
        return rel;
    free(rel);
    return el_xstrdup(abs);
}

/* The absolute path of a stored one; NULL when it is not acceptable. */
static char *load_path(const el_cache *c, const char *p, size_t len)
{
    if (!len || len >= MAX_PATH_BYTES || strlen(p) != len)
        return NULL; /* empty, too long, or with a NUL inside */
    if (p[0] == '/')
        return el_xstrdup(p);
    for (const char *s = p; *s;) { /* relative paths stay below the root */
        size_t n = strcspn(s, "/");
        if ((n == 2 && s[0] == '.' && s[1] == '.') || (n == 1 && s[0] == '.') || n == 0)
            return NULL;
        s += n + (s[n] == '/');
    }
    return el_path_join(c->root, p);
}

/* Stored strings (keys' parts, messages, fact values) stand for the root
 * with ESC "{root}"; an ESC of the text itself is doubled, so the coding
 * is one to one whatever the text holds (sources can hold ESC too). */
#define ESC '\x1b'

static bool root_at(const el_cache *c, const char *p)
{
    return strncmp(p, c->root, c->root_len) == 0 && (p[c->root_len] == '/' || p[c->root_len] == '\0');
}

char *el_cache_relocatable(const el_cache *c, const char *s)
{
    if (!c || strcmp(c->root, "/") == 0)
        return el_xstrdup(s);
    el_buf b = {0};
    el_buf_puts(&b, "");
    for (const char *p = s; *p;) {
        if (*p == ESC) {
            el_buf_putc(&b, ESC);
            el_buf_putc(&b, ESC);
            p++;
        } else if (*p == '/' && root_at(c, p)) {
            el_buf_puts(&b, ROOT_MARK);
            p += c->root_len;
        } else {
            el_buf_putc(&b, *p++);
        }
    }
    return el_buf_take(&b);
}

/* The text a stored string stands for; NULL when it is not one
 * el_cache_relocatable could have made. */
static char *load_text(const el_cache *c, const char *s, size_t len)
{
    if (len > MAX_TEXT_BYTES || strlen(s) != len)
        return NULL;
    if (strcmp(c->root, "/") == 0)
        return el_xstrdup(s);
    el_buf b = {0};
    el_buf_puts(&b, "");
    size_t lm = strlen(ROOT_MARK);
    for (const char *p = s; *p;) {
        if (*p != ESC) {
            el_buf_putc(&b, *p++);
        } else if (p[1] == ESC) {
            el_buf_putc(&b, ESC);
            p += 2;
        } else if (strncmp(p, ROOT_MARK, lm) == 0) {
            el_buf_puts(&b, c->root);
            p += lm;
        } else {
            el_buf_free(&b);
            return NULL;
        }
    }
    return el_buf_take(&b);
}

/* ---- reading an entry ---------------------------------------------------------------- */

static void entry_name(el_hash128 key, char name[40])
{
    char hex[33];
    el_hash_hex(key, hex);
    snprintf(name, 40, "%s.json", hex);
}

static el_hash128 checksum(const char *key_hex, const char *body, size_t len)
{
    el_hasher h;
    el_hash_init(&h);
    el_hash_str(&h, key_hex);
    el_hash_update(&h, body, len);
    return el_hash_final(&h);
}

/* The entry's bytes: a regular file, not a symbolic link, not too big.
 * NULL on any doubt. */
static char *read_entry(const el_cache *c, const char *name, size_t *len)
{
    int fd = openat(c->dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
        st.st_size > (off_t)MAX_ENTRY_BYTES) {
        close(fd);
        return NULL;
    }
    size_t want = (size_t)st.st_size, got = 0;
    char *buf = el_xmalloc(want + 1);
    while (got < want) {
        ssize_t n = read(fd, buf + got, want - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (got != want) {
        free(buf);
        return NULL;
    }
    buf[got] = '\0';
    *len = got;
    return buf;
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

/* Element i of array a as a string (its length in *len), or NULL. */
static const char *str_at(json_object *a, size_t i, size_t *len)
{
    json_object *e = json_object_array_get_idx(a, i);
    if (!json_object_is_type(e, json_type_string))
        return NULL;
    *len = (size_t)json_object_get_string_len(e);
    return json_object_get_string(e);
}

static bool uint_at(json_object *a, size_t i, unsigned *out)
{
    json_object *e = json_object_array_get_idx(a, i);
    if (!json_object_is_type(e, json_type_int))
        return false;
    int64_t v = json_object_get_int64(e);
    if (v < 0 || v > (int64_t)MAX_LINE)
        return false;
    *out = (unsigned)v;
    return true;
}

static bool array_of(json_object *o, const char *key, json_object **out)
{
    return json_object_object_get_ex(o, key, out) && json_object_is_type(*out, json_type_array);
}

/* An array of `n` elements (a tuple), or NULL. */
static json_object *tuple(json_object *a, size_t i, size_t n)
{
    json_object *e = json_object_array_get_idx(a, i);
    return json_object_is_type(e, json_type_array) && json_object_array_length(e) == n ? e : NULL;
}

static bool has_dep(const el_tu_result *r, const char *path)
{
    for (size_t i = 0; i < r->n_deps; i++)
        if (strcmp(r->deps[i].path, path) == 0)
            return true;
    return false;
}

static bool load_deps(const el_cache *c, json_object *deps, el_tu_result *r,
                      const el_cache_check *check)
{
    for (size_t i = 0; i < json_object_array_length(deps); i++) {
        json_object *d = tuple(deps, i, 2);
        size_t lp = 0, lh = 0;
        const char *p = d ? str_at(d, 0, &lp) : NULL, *h = d ? str_at(d, 1, &lh) : NULL;
        el_hash128 tok;
        char *abs = p ? load_path(c, p, lp) : NULL;
        bool ok = abs && hex_to_hash(h, &tok) && check->dep_ok(abs, tok, check->ud);
        if (ok)
            el_result_add_dep(r, abs, tok);
        free(abs);
        if (!ok)
            return false;
    }
    return r->n_deps > 0; /* a TU reads its main file at least */
}

static bool load_absent(const el_cache *c, json_object *absent, el_tu_result *r,
                        const el_cache_check *check)
{
    for (size_t i = 0; i < json_object_array_length(absent); i++) {
        size_t lp = 0;
        const char *p = str_at(absent, i, &lp);
        char *abs = p ? load_path(c, p, lp) : NULL;
        bool ok = abs && check->absent_ok(abs, check->ud);
        if (ok)
            el_result_add_absent(r, abs);
        free(abs);
        if (!ok)
            return false;
    }
    return true;
}

/* A finding's fix (the run kept fixes: engine.h, cache_fixes), its edits'
 * paths made absolute; NULL when it is not acceptable (edits in files the
 * TU did not read, among others). */
static el_fix *load_fix(const el_cache *c, json_object *a, const el_tu_result *r)
{
    el_fix *fx = el_fix_from_json(a, NULL, NULL);
    for (size_t i = 0; fx && i < fx->edits.n; i++) {
        el_edit *e = &fx->edits.v[i];
        char *abs = load_path(c, e->path, strlen(e->path));
        if (!abs || !has_dep(r, abs)) {
            free(abs);
            el_fix_free(fx);
            return NULL;
        }
        free(e->path);
        e->path = abs;
    }
    return fx;
}

static bool load_findings(const el_cache *c, json_object *findings, el_tu_result *r)
{
    for (size_t i = 0; i < json_object_array_length(findings); i++) {
        json_object *f = tuple(findings, i, 6);
        if (!f)
            f = tuple(findings, i, 7);
        if (!f)
            return false;
        size_t lr = 0, ls = 0, lf = 0, lm = 0;
        const char *rule = str_at(f, 0, &lr), *sev = str_at(f, 1, &ls), *file = str_at(f, 2, &lf),
                   *msg = str_at(f, 5, &lm);
        unsigned line = 0, col = 0;
        el_severity s;
        if (!rule || !sev || !file || !msg || lr != strlen(rule) || el_meta_index(rule) < 0 ||
            !el_severity_parse(sev, &s) || s == EL_SEV_OFF || !uint_at(f, 3, &line) ||
            !uint_at(f, 4, &col))
            return false;
        char *abs = load_path(c, file, lf);
        char *text = load_text(c, msg, lm);
        bool ok = abs && text && has_dep(r, abs); /* a finding is in a file the TU read */
        el_fix *fx = NULL;
        if (ok && json_object_array_length(f) == 7)
            ok = (fx = load_fix(c, json_object_array_get_idx(f, 6), r)) != NULL;
        if (ok) {
            el_findings_add(&r->findings, rule, s, abs, line, col, text);
            r->findings.v[r->findings.n - 1].fix = fx;
        }
        free(abs);
        free(text);
        if (!ok)
            return false;
    }
    return true;
}

static bool load_facts(const el_cache *c, json_object *facts, el_tu_result *r)
{
    for (size_t i = 0; i < json_object_array_length(facts); i++) {
        json_object *f = tuple(facts, i, 3);
        size_t lf = 0, lk = 0, lv = 0;
        const char *file = f ? str_at(f, 0, &lf) : NULL, *k = f ? str_at(f, 1, &lk) : NULL,
                   *v = f ? str_at(f, 2, &lv) : NULL;
        char *abs = file ? load_path(c, file, lf) : NULL;
        char *key = k ? load_text(c, k, lk) : NULL;
        char *val = v ? load_text(c, v, lv) : NULL;
        bool ok = abs && key && val;
        if (ok)
            el_result_add_fact(r, abs, key, val);
        free(abs);
        free(key);
        free(val);
        if (!ok)
            return false;
    }
    return true;
}

bool el_cache_load(el_cache *c, el_hash128 key, el_tu_result *out, const el_cache_check *check)
{
    char name[40], hex[33];
    entry_name(key, name);
    el_hash_hex(key, hex);
    size_t len = 0;
    char *text = read_entry(c, name, &len);
    if (!text)
        return false;
    /* the header line: magic and checksum */
    size_t magic = strlen(CACHE_MAGIC);
    el_hash128 sum;
    char sum_hex[33];
    bool ok = len > magic + 33 && memcmp(text, CACHE_MAGIC, magic) == 0 &&
              text[magic + 32] == '\n';
    if (ok) {
        memcpy(sum_hex, text + magic, 32);
        sum_hex[32] = '\0';
        const char *body = text + magic + 33;
        ok = hex_to_hash(sum_hex, &sum) &&
             el_hash_eq(sum, checksum(hex, body, len - (size_t)(body - text)));
    }
    json_object *root = ok ? json_tokener_parse(text + magic + 33) : NULL;
    free(text);
    json_object *k, *deps, *absent, *findings, *facts;
    ok = root && json_object_is_type(root, json_type_object) &&
         json_object_object_get_ex(root, "key", &k) && json_object_is_type(k, json_type_string) &&
         strcmp(json_object_get_string(k), hex) == 0 && array_of(root, "deps", &deps) &&
         array_of(root, "absent", &absent) && array_of(root, "findings", &findings) &&
         array_of(root, "facts", &facts);
    el_tu_result r;
    memset(&r, 0, sizeof r);
    ok = ok && load_deps(c, deps, &r, check) && load_absent(c, absent, &r, check) &&
         load_findings(c, findings, &r) && load_facts(c, facts, &r);
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

/* ---- writing an entry ---------------------------------------------------------------- */

static json_object *path_json(const el_cache *c, const char *abs)
{
    char *p = store_path(c, abs);
    json_object *j = json_object_new_string(p);
    free(p);
    return j;
}

static char *store_map(const char *abs, void *ud)
{
    return store_path(ud, abs);
}

static json_object *text_json(const el_cache *c, const char *s)
{
    char *t = el_cache_relocatable(c, s);
    json_object *j = json_object_new_string(t);
    free(t);
    return j;
}

static char *entry_text(const el_cache *c, const char *hex, const el_tu_result *r)
{
    json_object *root = json_object_new_object();
    json_object *deps = json_object_new_array(), *absent = json_object_new_array();
    json_object *findings = json_object_new_array(), *facts = json_object_new_array();
    json_object_object_add(root, "key", json_object_new_string(hex));
    for (size_t i = 0; i < r->n_deps; i++) {
        char h[33];
        el_hash_hex(r->deps[i].hash, h);
        json_object *d = json_object_new_array();
        json_object_array_add(d, path_json(c, r->deps[i].path));
        json_object_array_add(d, json_object_new_string(h));
        json_object_array_add(deps, d);
    }
    for (size_t i = 0; i < r->n_absent; i++)
        json_object_array_add(absent, path_json(c, r->absent[i]));
    for (size_t i = 0; i < r->findings.n; i++) {
        const el_finding *f = &r->findings.v[i];
        json_object *a = json_object_new_array();
        json_object_array_add(a, json_object_new_string(f->rule));
        json_object_array_add(a, json_object_new_string(el_severity_name(f->severity)));
        json_object_array_add(a, path_json(c, f->file));
        json_object_array_add(a, json_object_new_int64(f->line));
        json_object_array_add(a, json_object_new_int64(f->col));
        json_object_array_add(a, text_json(c, f->message));
        if (f->fix) /* the run keeps fixes (engine.h: cache_fixes) */
            json_object_array_add(a, el_fix_to_json(f->fix, store_map, (void *)c));
        json_object_array_add(findings, a);
    }
    for (size_t i = 0; i < r->n_facts; i++) {
        json_object *a = json_object_new_array();
        json_object_array_add(a, path_json(c, r->facts[i].file));
        json_object_array_add(a, text_json(c, r->facts[i].key));
        json_object_array_add(a, text_json(c, r->facts[i].value));
        json_object_array_add(facts, a);
    }
    json_object_object_add(root, "deps", deps);
    json_object_object_add(root, "absent", absent);
    json_object_object_add(root, "findings", findings);
    json_object_object_add(root, "facts", facts);
    const char *body =
        json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
    char sum[33];
    el_hash_hex(checksum(hex, body, strlen(body)), sum);
    /* not printf: the body is the whole entry */
    size_t lm = strlen(CACHE_MAGIC), ls = strlen(sum), lb = strlen(body);
    char *text = el_xmalloc(lm + ls + 1 + lb + 1);
    memcpy(text, CACHE_MAGIC, lm);
    memcpy(text + lm, sum, ls);
    text[lm + ls] = '\n';
    memcpy(text + lm + ls + 1, body, lb + 1);
    json_object_put(root);
    return text;
}

/* Bits for temporary names: the cache's random seed and a serial,
 * mixed (splitmix64), so a run asks getrandom once, not once an entry.
 * O_EXCL makes a name that is taken (by another run) safe anyway: the
 * next one is tried. */
static unsigned long long random_bits(el_cache *c)
{
    unsigned long long z = c->seed + 0x9e3779b97f4a7c15ull * (atomic_fetch_add(&c->serial, 1u) + 1ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A new temporary file in the cache directory, never an existing one
 * (nor a symbolic link planted there): its fd, its name in tmp. */
static int create_temp(el_cache *c, const char *name, char tmp[80])
{
    for (int attempt = 0; attempt < 16; attempt++) {
        snprintf(tmp, 80, ".%s.%016llx.tmp", name, random_bits(c));
        int fd = openat(c->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

void el_cache_store(el_cache *c, el_hash128 key, const el_tu_result *r)
{
    char name[40], hex[33], tmp[80];
    entry_name(key, name);
    el_hash_hex(key, hex);
    char *text = entry_text(c, hex, r);
    size_t len = strlen(text), off = 0;
    int fd = len <= MAX_ENTRY_BYTES ? create_temp(c, name, tmp) : -1;
    bool ok = fd >= 0;
    while (ok && off < len) {
        ssize_t w = write(fd, text + off, len - off);
        ok = w > 0;
        off += ok ? (size_t)w : 0;
    }
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    /* the cache is an optimisation: a failed write is a miss next time */
    if (fd >= 0 && (!ok || renameat(c->dirfd, tmp, c->dirfd, name) != 0))
        unlinkat(c->dirfd, tmp, 0);
    free(text);
}
