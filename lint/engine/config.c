/* lint/engine/config.c -- loading, inheriting, discovering and querying
 * configurations (config.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "c_lexeme.h"
#include "config_internal.h"
#include "config_json.h"
#include "embedded.h"
#include "language.h"
#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "pattern.h"
#include "progname.h"
#include "strbuf.h"
#include "strmap.h"
#include "suggest.h"

#define CONFIG_NAME ".emberlint.json"
#define MAX_CONFIG_BYTES (4u << 20)

/* ---- keys ------------------------------------------------------------------ */

enum {
    F_PATTERN = 1,   /* a path pattern, relative to the declaring file's directory */
    F_CAPTURE = 2,   /* must hold <name> (the backend's name) */
    F_LANGUAGE = 4,  /* "c" or "c++" */
    F_NAME = 8,      /* a backend name: no '/', no '<' */
    F_IDENT = 16,    /* a C identifier */
};

static const struct {
    const char *name;
    unsigned flags;
} list_keys[EL_N_LIST_KEYS] = {
    [EL_BACKEND_DIRS] = {"backend_dirs", F_PATTERN | F_CAPTURE},
    [EL_CORE_PATHS] = {"core_paths", F_PATTERN},
    [EL_EXCLUDE] = {"exclude", F_PATTERN},
    [EL_BACKENDS] = {"backends", F_NAME},
    [EL_BACKEND_HEADERS] = {"backend_headers", F_PATTERN},
    [EL_VENDOR_HEADERS] = {"vendor_headers", F_PATTERN},
    [EL_BACKEND_PREFIXES] = {"backend_prefixes", 0},
    [EL_BACKEND_MACROS] = {"backend_macros", 0},
    [EL_LEGACY_BACKEND_DIRS] = {"legacy_backend_dirs", F_PATTERN | F_CAPTURE},
    [EL_LANGUAGES] = {"languages", F_LANGUAGE},
    [EL_STORAGE_ACCESSORS] = {"storage_accessors", F_IDENT},
    [EL_SCALAR_READS] = {"scalar_reads", F_IDENT},
    [EL_KERNEL_REGISTRARS] = {"kernel_registrars", 0},
    [EL_DEFINE_SETS] = {"define_sets", 0},
};

/* Map keys and the argument indices their entries hold. */
static const struct {
    const char *name;
    const char *a, *b;  /* NULL: a string value (replacements) */
} map_keys[EL_N_MAP_KEYS] = {
    [EL_REPLACEMENTS] = {"replacements", NULL, NULL},
    [EL_COPY_OUT] = {"copy_out", "buffer", NULL},
    [EL_TO_TENSOR] = {"to_tensor", "data", NULL},
    [EL_HOST_COPIES] = {"host_copies", "dest", "src"},
};

/* ---- string lists ------------------------------------------------------------ */

/* A list this long counts its strings (el_strlist.count), so that adding
 * an entry does not compare it with every other: the built-in
 * backend_prefixes (560 entries with <backend> expanded) were 1.3 M
 * strcmp a run.  The entries and their order are the same either way. */
#define LIST_COUNTED 16

static size_t list_count_of(const el_strlist *l, const char *s)
{
    return (size_t)(uintptr_t)el_strmap_get(l->count, s);
}

static void list_count(el_strlist *l, const char *s, int delta)
{
    size_t n = list_count_of(l, s);
    el_strmap_put(l->count, s, (void *)(uintptr_t)(n + (size_t)(long)delta));
}

static long list_find(const el_strlist *l, const char *s)
{
    if (l->count && !list_count_of(l, s))
        return -1;
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return (long)i;
    return -1;
}

/* Add s unless it is there; a path pattern is the same entry only when
 * relative to the same directory. */
static void list_add(el_strlist *l, const char *s, el_origin from)
{
    if (!l->count || list_count_of(l, s))
        for (size_t i = 0; i < l->n; i++)
            if (strcmp(l->v[i], s) == 0 &&
                (!from.root || !l->from[i].root || strcmp(from.root, l->from[i].root) == 0))
                return;
    el_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->from = el_xrealloc(l->from, l->cap * sizeof *l->from);
    l->v[l->n] = el_xstrdup(s);
    l->from[l->n] = from;
    l->n++;
    if (l->count) {
        list_count(l, s, 1);
    } else if (l->n >= LIST_COUNTED) {
        l->count = el_xcalloc(1, sizeof *l->count);
        for (size_t i = 0; i < l->n; i++)
            list_count(l, l->v[i], 1);
    }
}

static void list_remove_at(el_strlist *l, size_t i)
{
    if (l->count)
        list_count(l, l->v[i], -1);
    free(l->v[i]);
    memmove(l->v + i, l->v + i + 1, (l->n - i - 1) * sizeof *l->v);
    memmove(l->from + i, l->from + i + 1, (l->n - i - 1) * sizeof *l->from);
    l->n--;
}

static void list_clear(el_strlist *l)
{
    while (l->n)
        list_remove_at(l, l->n - 1);
}

static void list_copy(el_strlist *dst, const el_strlist *src)
{
    for (size_t i = 0; i < src->n; i++)
        list_add(dst, src->v[i], src->from[i]);
}

static void list_free(el_strlist *l)
{
    if (l->count) {
        el_strmap_free(l->count);
        free(l->count);
    }
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    free(l->from);
    memset(l, 0, sizeof *l);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- maps ----------------------------------------------------------------------- */

static long map_find(const el_kvlist *m, const char *key)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->v[i].key, key) == 0)
            return (long)i;
    return -1;
}

static void map_set(el_kvlist *m, const char *key, const char *text, int a, int b, el_origin from)
{
    long i = map_find(m, key);
    el_kv *e;
    if (i >= 0) {
        e = &m->v[i];
        free(e->text);
    } else {
        el_grow(&m->v, &m->cap, m->n + 1, sizeof *m->v);
        e = &m->v[m->n++];
        e->key = el_xstrdup(key);
    }
    e->text = text ? el_xstrdup(text) : NULL;
    e->a = a;
    e->b = b;
    e->from = from;
}

static void map_remove_at(el_kvlist *m, size_t i)
{
    free(m->v[i].key);
    free(m->v[i].text);
    memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof *m->v);
    m->n--;
}

static void map_free(el_kvlist *m)
{
    while (m->n)
        map_remove_at(m, m->n - 1);
    free(m->v);
    memset(m, 0, sizeof *m);
}

/* ---- a file being applied ------------------------------------------------------ */

typedef struct loader {
    el_config *c;
    const char *shown;       /* the file as messages name it */
    const char *origin;      /* the file as origins name it (absolute, or rules/x.json) */
    const char *text;
    el_json_pos *pos;
    bool builtin;
    char **err;
} loader;

static el_origin origin_at(const loader *L, const char *const *path, size_t n)
{
    el_origin o = {L->origin, L->c->root, 1, 1, L->builtin};
    el_json_pos_find(L->pos, path, n, &o.line, &o.col);
    return o;
}

/* Set *err to "FILE:LINE:COL: what" at the path; returns -1. */
static int fail(const loader *L, const char *const *path, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail(const loader *L, const char *const *path, size_t n, const char *fmt, ...)
{
    unsigned line = 1, col = 1;
    el_json_pos_find(L->pos, path, n, &line, &col);
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    *L->err = el_xasprintf("%s:%u:%u: %s", L->shown, line, col, msg);
    return -1;
}

static bool is_comment_key(const char *k)
{
    return strncmp(k, "$comment", 8) == 0;
}

static bool is_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
              (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* A template's placeholders: $N (N from 1, as many digits as it has: $12
 * is the twelfth argument), $* and $$. */
static bool template_ok(const char *t)
{
    for (; *t; t++)
        if (*t == '$' && !((t[1] >= '1' && t[1] <= '9') || t[1] == '*' || t[1] == '$'))
            return false;
        else if (*t == '$')
            t++;
    return true;
}

/* Do the template's brackets ((), [], {}) nest and close, outside its
 * comments and string and character literals (raw strings too), and do
 * its literals and comments end?  A template "f($1" makes every call it
 * rewrites code that does not parse; a bracket in a comment, a digit
 * separator ("f(1'000 * $1)") and a raw string ("g(R\"(x)\")") are
 * good ones. */
static bool template_balanced(const char *t)
{
    size_t n = strlen(t), depth = 0, cap = 0;
    char *stack = NULL;
    bool ok = true;
    for (size_t i = 0, end; i < n && ok; i = end) {
        if (t[i] == '$') { /* $N, $*, $$: never the start of a number */
            end = i + 1 < n ? i + 2 : n;
            while (end < n && t[end] >= '0' && t[end] <= '9')
                end++;
            continue;
        }
        el_lexeme k = el_lexeme_at(t, n, i, &end);
        if (end > n) {
            ok = false;
        } else if (k != EL_LX_OTHER) {
            continue;
        } else if (t[i] == '(' || t[i] == '[' || t[i] == '{') {
            el_grow(&stack, &cap, depth + 1, 1);
            stack[depth++] = t[i] == '(' ? ')' : t[i] == '[' ? ']' : '}';
        } else if (t[i] == ')' || t[i] == ']' || t[i] == '}') {
            ok = depth && stack[--depth] == t[i];
        }
    }
    free(stack);
    return ok && depth == 0;
}

/* Does the template hold a // comment?  Put in place of a call, it would
 * take what follows the call on its line: the ';', a closing ')'. */
static bool template_line_comment(const char *t)
{
    size_t n = strlen(t);
    for (size_t i = 0, end; i < n; i = end > n ? n : end)
        if (el_lexeme_at(t, n, i, &end) == EL_LX_COMMENT && t[i + 1] == '/')
            return true;
    return false;
}

/* ---- list keys -------------------------------------------------------------- */

static int check_entry(const loader *L, size_t k, const char *s, const char *const *path, size_t n)
{
    const char *key = list_keys[k].name;
    unsigned f = list_keys[k].flags;
    if (!s[0])
        return fail(L, path, n, "\"%s\": expected non-empty strings", key);
    if ((f & F_CAPTURE) && !el_pattern_has_capture(s))
        return fail(L, path, n, "\"%s\": '%s' names no backend: write <name> once, where the "
                    "backend's name is in the path (\"backends/<name>/\", \"src/ggml-<name>/\")",
                    key, s);
    if ((f & F_LANGUAGE) && strcmp(s, "c") != 0 && strcmp(s, "c++") != 0)
        return fail(L, path, n, "\"%s\": expected \"c\" or \"c++\", got '%s'", key, s);
    if ((f & F_NAME) && strpbrk(s, "/<>*?[ "))
        return fail(L, path, n, "\"%s\": '%s' is not a backend name (a directory name, no "
                    "'/', '<', '>', '*', '?', '[' or spaces)", key, s);
    if ((f & F_IDENT) && !is_identifier(s))
        return fail(L, path, n, "\"%s\": '%s' is not a function name", key, s);
    return 0;
}

/* The strings of an array value, checked; -1 with *err. */
static int each_string(const loader *L, size_t k, json_object *arr, const char **path, size_t n,
                       int (*fn)(const loader *, size_t, const char *, const char *const *, size_t))
{
    if (!json_object_is_type(arr, json_type_array))
        return fail(L, path, n, "\"%s\": expected an array of strings, or an object with "
                    "\"add\", \"remove\" or \"replace\" arrays", list_keys[k].name);
    for (size_t i = 0; i < json_object_array_length(arr); i++) {
        json_object *e = json_object_array_get_idx(arr, i);
        char idx[32];
        snprintf(idx, sizeof idx, "%zu", i);
        path[n] = idx;
        if (!json_object_is_type(e, json_type_string))
            return fail(L, path, n + 1, "\"%s\": expected strings (element %zu is not)",
                        list_keys[k].name, i + 1);
        const char *s = json_object_get_string(e);
        if (check_entry(L, k, s, path, n + 1) < 0 || fn(L, k, s, path, n + 1) < 0)
            return -1;
    }
    return 0;
}

static int do_add(const loader *L, size_t k, const char *s, const char *const *path, size_t n)
{
    el_origin o = origin_at(L, path, n);
    if (!(list_keys[k].flags & F_PATTERN))
        o.root = NULL; /* names, not patterns: the same wherever declared */
    list_add(&L->c->lists[k], s, o);
    return 0;
}

static int do_remove(const loader *L, size_t k, const char *s, const char *const *path, size_t n)
{
    el_strlist *l = &L->c->lists[k];
    long i = list_find(l, s);
    if (i < 0)
        return fail(L, path, n, "\"%s\": cannot remove '%s': it is not in the inherited list "
                    "(see emberlint --show-config FILE)", list_keys[k].name, s);
    for (; i >= 0; i = list_find(l, s)) /* a pattern may be there once per directory */
        list_remove_at(l, (size_t)i);
    return 0;
}

static int apply_list(const loader *L, size_t k, json_object *val)
{
    const char *path[4] = {list_keys[k].name};
    if (!json_object_is_type(val, json_type_object))
        return each_string(L, k, val, path, 1, do_add);
    /* {"replace": [...], "remove": [...], "add": [...]}, applied in that order */
    static const char *const ops[] = {"replace", "remove", "add"};
    json_object_object_foreach(val, key, v) {
        (void)v;
        bool known = is_comment_key(key);
        for (size_t i = 0; i < 3; i++)
            known |= strcmp(key, ops[i]) == 0;
        if (!known) {
            path[1] = key;
            return fail(L, path, 2, "\"%s\": unknown key \"%s\": expected \"add\", \"remove\" or "
                        "\"replace\"", list_keys[k].name, key);
        }
    }
    for (size_t i = 0; i < 3; i++) {
        json_object *arr = NULL;
        if (!json_object_object_get_ex(val, ops[i], &arr))
            continue;
        path[1] = ops[i];
        if (i == 0)
            list_clear(&L->c->lists[k]);
        if (each_string(L, k, arr, path, 2, i == 1 ? do_remove : do_add) < 0)
            return -1;
    }
    return 0;
}

/* ---- map keys ------------------------------------------------------------------ */

static int arg_index(const loader *L, json_object *spec, const char *field, const char **path,
                     size_t n, int *out)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(spec, field, &v) || !json_object_is_type(v, json_type_int) ||
        json_object_get_int(v) < 0 || json_object_get_int(v) > 63)
        return fail(L, path, n, "\"%s\": expected an argument index (0 for the first) for "
                    "\"%s\"", path[0], field);
    *out = json_object_get_int(v);
    return 0;
}

static int apply_map(const loader *L, size_t k, json_object *val)
{
    const char *path[4] = {map_keys[k].name};
    el_kvlist *m = &L->c->maps[k];
    if (!json_object_is_type(val, json_type_object))
        return fail(L, path, 1, "\"%s\": expected an object of function names", map_keys[k].name);
    json_object_object_foreach(val, name, v) {
        if (is_comment_key(name))
            continue;
        path[1] = name;
        el_origin from = origin_at(L, path, 2);
        bool op_key = k == EL_REPLACEMENTS && strspn(name, "+-*/%<>!=&|^~") == strlen(name);
        if (!is_identifier(name) && !op_key)
            return fail(L, path, 2, "\"%s\": '%s' is not a function name", map_keys[k].name, name);
        if (json_object_is_type(v, json_type_null)) {
            long i = map_find(m, name);
            if (i < 0)
                return fail(L, path, 2, "\"%s\": cannot remove '%s': it is not in the inherited "
                            "map", map_keys[k].name, name);
            map_remove_at(m, (size_t)i);
            continue;
        }
        if (!map_keys[k].a) {
            if (!json_object_is_type(v, json_type_string) || !json_object_get_string(v)[0])
                return fail(L, path, 2, "\"%s\".%s: expected the replacement as a string (null "
                            "removes an inherited entry)", map_keys[k].name, name);
            map_set(m, name, json_object_get_string(v), -1, -1, from);
            continue;
        }
        if (!json_object_is_type(v, json_type_object))
            return fail(L, path, 2, "\"%s\".%s: expected an object {\"%s\": N%s%s%s} (null "
                        "removes an inherited entry)", map_keys[k].name, name, map_keys[k].a,
                        map_keys[k].b ? ", \"" : "", map_keys[k].b ? map_keys[k].b : "",
                        map_keys[k].b ? "\": N" : "");
        json_object_object_foreach(v, field, fv) {
            (void)fv;
            if (!is_comment_key(field) && strcmp(field, map_keys[k].a) != 0 &&
                (!map_keys[k].b || strcmp(field, map_keys[k].b) != 0)) {
                path[2] = field;
                return fail(L, path, 3, "\"%s\".%s: unknown key \"%s\"", map_keys[k].name, name, field);
            }
        }
        int a = -1, b = -1;
        if (arg_index(L, v, map_keys[k].a, path, 2, &a) < 0 ||
            (map_keys[k].b && arg_index(L, v, map_keys[k].b, path, 2, &b) < 0))
            return -1;
        map_set(m, name, NULL, a, b, from);
    }
    return 0;
}

/* ---- backend_files ------------------------------------------------------------------ */

/* {"cuda": ["/src/cuda.c", "/src/gemm.c"]}: files of a named
 * backend; an array replaces what the name had, null removes the name. */
static int apply_backend_files(const loader *L, json_object *val)
{
    const char *path[4] = {"backend_files"};
    el_strlist *l = &L->c->backend_files;
    if (!json_object_is_type(val, json_type_object))
        return fail(L, path, 1, "\"backend_files\": expected an object: backend name -> array "
                    "of path patterns");
    json_object_object_foreach(val, name, v) {
        if (is_comment_key(name))
            continue;
        path[1] = name;
        if (!name[0] || strpbrk(name, "/<>*?[ :"))
            return fail(L, path, 2, "\"backend_files\": '%s' is not a backend name", name);
        size_t nl = strlen(name);
        for (size_t i = l->n; i-- > 0;)
            if (strncmp(l->v[i], name, nl) == 0 && l->v[i][nl] == ':')
                list_remove_at(l, i);
        if (json_object_is_type(v, json_type_null))
            continue;
        if (!json_object_is_type(v, json_type_array))
            return fail(L, path, 2, "\"backend_files\".%s: expected an array of path patterns "
                        "(null removes the backend's entry)", name);
        for (size_t i = 0; i < json_object_array_length(v); i++) {
            json_object *e = json_object_array_get_idx(v, i);
            char idx[32];
            snprintf(idx, sizeof idx, "%zu", i);
            path[2] = idx;
            if (!json_object_is_type(e, json_type_string) || !json_object_get_string(e)[0])
                return fail(L, path, 3, "\"backend_files\".%s: expected non-empty strings", name);
            char *entry = el_xasprintf("%s:%s", name, json_object_get_string(e));
            list_add(l, entry, origin_at(L, path, 3));
            free(entry);
        }
    }
    return 0;
}

/* ---- rules -------------------------------------------------------------------------- */

/* Merge one option into the rule's options: a "names" option takes an
 * array (replacing the inherited value) or {"add", "remove", "replace"};
 * a "string" option a string. */
static int apply_option(const loader *L, const el_rule_meta *m, el_rule_setting *rs,
                        const char *key, json_object *val, const char **path)
{
    const char *type = el_meta_option_type(m, key);
    path[3] = key;
    if (!type) {
        el_buf known = {0};
        /* as many names as the rule has options, however many that is */
        size_t nn = 0, cap = m->options ? (size_t)json_object_object_length(m->options) : 0;
        const char **names = el_xcalloc(cap ? cap : 1, sizeof *names);
        if (m->options) {
            json_object_object_foreach(m->options, name, spec) {
                (void)spec;
                el_buf_printf(&known, "%s\"%s\"", known.n ? ", " : "", name);
                names[nn++] = name;
            }
        }
        const char *near = el_suggest(key, names, nn);
        free(names);
        if (near) {
            el_buf_free(&known);
            return fail(L, path, 4, "rules.%s.options: unknown option \"%s\": did you mean \"%s\"?", m->id,
                        key, near);
        }
        int rc = fail(L, path, 4, "rules.%s.options: unknown option \"%s\"%s%s", m->id, key,
                      known.n ? ": expected " : " (the rule has no options)", known.n ? known.s : "");
        el_buf_free(&known);
        return rc;
    }
    json_object *now = NULL;
    if (strcmp(type, "string") == 0) {
        if (!json_object_is_type(val, json_type_string))
            return fail(L, path, 4, "rules.%s.options.%s: expected a string", m->id, key);
        now = json_object_get(val);
    } else {
        json_object *old = NULL;
        json_object_object_get_ex(rs->options, key, &old);
        now = json_object_new_array();
        if (json_object_is_type(val, json_type_object)) {
            json_object *r = NULL, *rm = NULL, *add = NULL;
            json_object_object_foreach(val, op, v) {
                (void)v;
                if (!is_comment_key(op) && strcmp(op, "add") != 0 && strcmp(op, "remove") != 0 &&
                    strcmp(op, "replace") != 0) {
                    json_object_put(now);
                    path[4] = op;
                    return fail(L, path, 5, "rules.%s.options.%s: unknown key \"%s\": expected "
                                "\"add\", \"remove\" or \"replace\"", m->id, key, op);
                }
            }
            json_object_object_get_ex(val, "replace", &r);
            json_object_object_get_ex(val, "remove", &rm);
            json_object_object_get_ex(val, "add", &add);
            json_object *parts[3] = {r ? r : old, rm, add};
            for (int p = 0; p < 3; p++) {
                if (parts[p] && !json_object_is_type(parts[p], json_type_array)) {
                    json_object_put(now);
                    return fail(L, path, 4, "rules.%s.options.%s: expected arrays of strings",
                                m->id, key);
                }
            }
            for (size_t i = 0; parts[0] && i < json_object_array_length(parts[0]); i++)
                json_object_array_add(now, json_object_get(json_object_array_get_idx(parts[0], i)));
            for (size_t i = 0; rm && i < json_object_array_length(rm); i++) {
                const char *s = json_object_get_string(json_object_array_get_idx(rm, i));
                size_t j;
                for (j = 0; j < json_object_array_length(now); j++)
                    if (strcmp(json_object_get_string(json_object_array_get_idx(now, j)), s) == 0)
                        break;
                if (j == json_object_array_length(now)) {
                    json_object_put(now);
                    path[4] = "remove";
                    return fail(L, path, 5, "rules.%s.options.%s: cannot remove '%s': it is not "
                                "in the inherited list", m->id, key, s);
                }
                json_object_array_del_idx(now, j, 1);
            }
            for (size_t i = 0; add && i < json_object_array_length(add); i++)
                json_object_array_add(now, json_object_get(json_object_array_get_idx(add, i)));
        } else if (json_object_is_type(val, json_type_array)) {
            for (size_t i = 0; i < json_object_array_length(val); i++)
                json_object_array_add(now, json_object_get(json_object_array_get_idx(val, i)));
        } else {
            json_object_put(now);
            return fail(L, path, 4, "rules.%s.options.%s: expected an array of names, or an "
                        "object with \"add\", \"remove\" or \"replace\" arrays", m->id, key);
        }
        for (size_t i = 0; i < json_object_array_length(now); i++) {
            json_object *e = json_object_array_get_idx(now, i);
            if (!json_object_is_type(e, json_type_string) || !json_object_get_string(e)[0]) {
                json_object_put(now);
                return fail(L, path, 4, "rules.%s.options.%s: expected non-empty strings",
                            m->id, key);
            }
        }
    }
    /* copy on write: the options object may be shared with the parent */
    json_object *fresh = json_object_new_object();
    if (rs->options) {
        json_object_object_foreach(rs->options, k2, v2) {
            if (strcmp(k2, key) != 0)
                json_object_object_add(fresh, k2, json_object_get(v2));
        }
        json_object_put(rs->options);
    }
    json_object_object_add(fresh, key, now);
    rs->options = fresh;
    long i = list_find(&rs->option_from, key);
    if (i >= 0)
        list_remove_at(&rs->option_from, (size_t)i);
    list_add(&rs->option_from, key, origin_at(L, path, 4));
    return 0;
}

/* "\"a\", \"b\" or \"c\"" (conj "or" or "and") into b. */
static void quoted_list(el_buf *b, const char *const *v, size_t n, const char *conj)
{
    for (size_t i = 0; i < n; i++)
        el_buf_printf(b, "%s\"%s\"", i == 0 ? "" : i + 1 == n ? conj : ", ", v[i]);
}

/* The keys of a rule's object, each read by apply_rule. */
static const char *const rule_keys[] = {"enabled", "severity", "applies_to", "options"};
#define N_RULE_KEYS (sizeof rule_keys / sizeof rule_keys[0])

/* An ID that is no rule's: the IDs a typo from it (every rule's, from
 * rules/rules.json), or where to find them. */
static int unknown_rule(const loader *L, const char *id, const char *const *path)
{
    size_t n = el_meta_count();
    const char **ids = el_xcalloc(n ? n : 1, sizeof *ids), *near[8];
    for (size_t i = 0; i < n; i++)
        ids[i] = el_meta_at(i)->id;
    size_t nn = el_suggest_all(id, ids, n, near, sizeof near / sizeof near[0]);
    free(ids);
    if (nn == 0 || nn > sizeof near / sizeof near[0])
        return fail(L, path, 2, "unknown rule ID \"%s\": expected a rule ID "
                    "(see emberlint --list-rules)", id);
    el_buf which = {0};
    quoted_list(&which, near, nn, " or ");
    int rc = fail(L, path, 2, "unknown rule ID \"%s\": did you mean %s?", id, which.s);
    el_buf_free(&which);
    return rc;
}

static int apply_rule(const loader *L, const char *id, json_object *v)
{
    int k = el_meta_index(id);
    const char *path[6] = {"rules", id};
    if (k < 0)
        return unknown_rule(L, id, path);
    const el_rule_meta *m = el_meta_at((size_t)k);
    el_rule_setting *rs = &L->c->rules[k];
    if (json_object_is_type(v, json_type_string)) {
        el_severity sev;
        if (!el_severity_parse(json_object_get_string(v), &sev))
            return fail(L, path, 2, "rules.%s: expected \"error\", \"warning\", \"note\", "
                        "\"off\" or an object", id);
        rs->enabled = sev != EL_SEV_OFF;
        if (sev != EL_SEV_OFF)
            rs->severity = sev;
        rs->from = origin_at(L, path, 2);
        return 0;
    }
    if (!json_object_is_type(v, json_type_object))
        return fail(L, path, 2, "rules.%s: expected a severity string or an object", id);
    json_object_object_foreach(v, key, val) {
        path[2] = key;
        if (is_comment_key(key))
            continue;
        if (strcmp(key, "enabled") == 0) {
            if (!json_object_is_type(val, json_type_boolean))
                return fail(L, path, 3, "rules.%s.enabled: expected true or false", id);
            rs->enabled = json_object_get_boolean(val);
            rs->from = origin_at(L, path, 3);
        } else if (strcmp(key, "severity") == 0) {
            el_severity sev;
            if (!json_object_is_type(val, json_type_string) ||
                !el_severity_parse(json_object_get_string(val), &sev))
                return fail(L, path, 3, "rules.%s.severity: expected \"error\", \"warning\", "
                            "\"note\" or \"off\"", id);
            if (sev == EL_SEV_OFF)
                rs->enabled = false;
            else
                rs->severity = sev;
            rs->from = origin_at(L, path, 3);
        } else if (strcmp(key, "applies_to") == 0) {
            unsigned bits;
            if (!el_applies_from_json(val, &bits))
                return fail(L, path, 3, "rules.%s.applies_to: expected an array of \"frontend\", "
                            "\"backend\", \"core\", \"project\"", id);
            rs->applies = bits;
            rs->applies_from = origin_at(L, path, 3);
        } else if (strcmp(key, "options") == 0) {
            if (!json_object_is_type(val, json_type_object))
                return fail(L, path, 3, "rules.%s.options: expected an object", id);
            json_object_object_foreach(val, opt, ov) {
                if (!is_comment_key(opt) && apply_option(L, m, rs, opt, ov, path) < 0)
                    return -1;
            }
        } else {
            const char *near = el_suggest(key, rule_keys, N_RULE_KEYS);
            if (near)
                return fail(L, path, 3, "rules.%s: unknown key \"%s\": did you mean \"%s\"?",
                            id, key, near);
            el_buf keys = {0};
            quoted_list(&keys, rule_keys, N_RULE_KEYS, " or ");
            int rc = fail(L, path, 3, "rules.%s: unknown key \"%s\": expected %s", id, key, keys.s);
            el_buf_free(&keys);
            return rc;
        }
    }
    return 0;
}

/* ---- call templates ("rewrites") ----------------------------------------------- */

static void rewrite_add(el_config *c, const char *function, const char *replacement,
                        el_fix_safety safety, const char *note, el_origin from)
{
    el_grow(&c->rewrites, &c->cap_rewrites, c->n_rewrites + 1, sizeof *c->rewrites);
    el_rewrite_rule *r = &c->rewrites[c->n_rewrites++];
    r->function = el_xstrdup(function);
    r->replacement = el_xstrdup(replacement);
    r->safety = safety;
    r->note = note ? el_xstrdup(note) : NULL;
    r->from = from;
}

static void rewrites_free(el_config *c)
{
    for (size_t i = 0; i < c->n_rewrites; i++) {
        free(c->rewrites[i].function);
        free(c->rewrites[i].replacement);
        free(c->rewrites[i].note);
    }
    free(c->rewrites);
    c->rewrites = NULL;
    c->n_rewrites = c->cap_rewrites = 0;
}

/* The keys of a "rewrites" entry, each a string. */
static const char *const rewrite_keys[] = {"function", "replacement", "safety", "note"};
#define N_REWRITE_KEYS (sizeof rewrite_keys / sizeof rewrite_keys[0])

static int apply_rewrites(const loader *L, json_object *val)
{
    const char *path[3] = {"rewrites"};
    if (!json_object_is_type(val, json_type_array))
        return fail(L, path, 1, "\"rewrites\": expected an array of objects "
                    "{\"function\", \"replacement\", \"safety\", \"note\"}");
    for (size_t i = 0; i < json_object_array_length(val); i++) {
        json_object *e = json_object_array_get_idx(val, i), *f = NULL, *r = NULL;
        const char *safety = "unsafe", *note = NULL;
        char idx[32];
        snprintf(idx, sizeof idx, "%zu", i);
        path[1] = idx;
        if (!json_object_is_type(e, json_type_object))
            return fail(L, path, 2, "rewrites[%zu]: expected an object", i + 1);
        json_object_object_foreach(e, key, v) {
            bool str = json_object_is_type(v, json_type_string);
            if (is_comment_key(key))
                continue;
            const char *near = NULL;
            if (strcmp(key, "function") == 0 && str) {
                f = v;
            } else if (strcmp(key, "replacement") == 0 && str) {
                r = v;
            } else if (strcmp(key, "safety") == 0 && str) {
                safety = json_object_get_string(v);
            } else if (strcmp(key, "note") == 0 && str) {
                note = json_object_get_string(v);
            } else if ((near = el_suggest(key, rewrite_keys, N_REWRITE_KEYS)) &&
                       strcmp(near, key) != 0) {
                return fail(L, path, 2, "rewrites[%zu]: unknown key \"%s\": did you mean "
                            "\"%s\"?", i + 1, key, near);
            } else {
                el_buf keys = {0};
                quoted_list(&keys, rewrite_keys, N_REWRITE_KEYS, " and ");
                int rc = fail(L, path, 2, "rewrites[%zu]: unexpected \"%s\": expected string "
                              "values for %s", i + 1, key, keys.s);
                el_buf_free(&keys);
                return rc;
            }
        }
        if (!f)
            return fail(L, path, 2, "rewrites[%zu]: missing \"function\": the name of the "
                        "function whose calls the template rewrites", i + 1);
        if (!is_identifier(json_object_get_string(f)))
            return fail(L, path, 2, "rewrites[%zu].function: expected the name of a function", i + 1);
        if (!r)
            return fail(L, path, 2, "rewrites[%zu]: missing \"replacement\": the call template "
                        "($1, $2, ... for the arguments, $* for all, $$ for '$')", i + 1);
        if (!json_object_get_string(r)[0] || !template_ok(json_object_get_string(r)))
            return fail(L, path, 2, "rewrites[%zu].replacement: expected a call template "
                        "($1, $2, ... for the arguments, $* for all, $$ for '$')", i + 1);
        if (!template_balanced(json_object_get_string(r)))
            return fail(L, path, 2, "rewrites[%zu].replacement: its brackets, quotes or "
                        "comments do not balance: every '(', '[', '{', literal and comment of the "
                        "template must close in it", i + 1);
        if (template_line_comment(json_object_get_string(r)))
            return fail(L, path, 2, "rewrites[%zu].replacement: a // comment would take the rest "
                        "of the line of every call it rewrites (the ';' after it): write /* ... */",
                        i + 1);
        if (strcmp(safety, "safe") != 0 && strcmp(safety, "unsafe") != 0)
            return fail(L, path, 2, "rewrites[%zu].safety: expected \"safe\" or \"unsafe\"", i + 1);
        rewrite_add(L->c, json_object_get_string(f), json_object_get_string(r),
                    strcmp(safety, "safe") == 0 ? EL_FIX_SAFE : EL_FIX_UNSAFE, note,
                    origin_at(L, path, 2));
    }
    return 0;
}

/* ---- a whole file -------------------------------------------------------------------- */

static int apply_root(const loader *L, json_object *val)
{
    const char *path[1] = {"root"};
    if (!json_object_is_type(val, json_type_boolean))
        return fail(L, path, 1, "\"root\": expected true or false");
    return 0; /* read by discovery */
}

static int apply_rules(const loader *L, json_object *val)
{
    const char *path[1] = {"rules"};
    if (!json_object_is_type(val, json_type_object))
        return fail(L, path, 1, "\"rules\": expected an object of rule IDs");
    json_object_object_foreach(val, id, setting) {
        if (!is_comment_key(id) && apply_rule(L, id, setting) < 0)
            return -1;
    }
    return 0;
}

static int apply_frontend_include(const loader *L, json_object *val)
{
    const char *path[1] = {"frontend_include"};
    if (!json_object_is_type(val, json_type_string))
        return fail(L, path, 1, "\"frontend_include\": expected the header frontend code "
                    "includes, as written in #include <...> (\"\" for none)");
    free(L->c->frontend_include);
    L->c->frontend_include = el_xstrdup(json_object_get_string(val));
    L->c->frontend_include_from = origin_at(L, path, 1);
    return 0;
}

/* The keys that are neither string lists nor maps, each with its reader. */
static const struct {
    const char *name;
    int (*apply)(const loader *L, json_object *val);
} other_keys[] = {
    {"root", apply_root},
    {"rules", apply_rules},
    {"rewrites", apply_rewrites},
    {"backend_files", apply_backend_files},
    {"frontend_include", apply_frontend_include},
};
#define N_OTHER_KEYS (sizeof other_keys / sizeof other_keys[0])

/* "root, rules, ...": every key a file may hold, from the tables above. */
enum { N_KEYS = N_OTHER_KEYS + EL_N_LIST_KEYS + EL_N_MAP_KEYS };

/* Every top-level key's name, in the order the error lists them. */
static void key_names(const char *names[N_KEYS])
{
    size_t nn = 0;
    for (size_t k = 0; k < N_OTHER_KEYS; k++)
        names[nn++] = other_keys[k].name;
    for (size_t k = 0; k < EL_N_LIST_KEYS; k++)
        names[nn++] = list_keys[k].name;
    for (size_t k = 0; k < EL_N_MAP_KEYS; k++)
        names[nn++] = map_keys[k].name;
}

static int apply_key(const loader *L, const char *key, json_object *val)
{
    for (size_t k = 0; k < N_OTHER_KEYS; k++)
        if (strcmp(key, other_keys[k].name) == 0)
            return other_keys[k].apply(L, val);
    for (size_t k = 0; k < EL_N_LIST_KEYS; k++)
        if (strcmp(key, list_keys[k].name) == 0)
            return apply_list(L, k, val);
    for (size_t k = 0; k < EL_N_MAP_KEYS; k++)
        if (strcmp(key, map_keys[k].name) == 0)
            return apply_map(L, k, val);
    const char *path[1] = {key};
    const char *names[N_KEYS];
    key_names(names);
    const char *near = el_suggest(key, names, N_KEYS);
    if (near) {
        fail(L, path, 1, "unknown key \"%s\": did you mean \"%s\"?", key, near);
        return -1;
    }
    el_buf expected = {0};
    for (size_t k = 0; k < N_KEYS; k++)
        el_buf_printf(&expected, "%s%s", k ? ", " : "", names[k]);
    fail(L, path, 1, "unknown key \"%s\": expected one of %s", key, expected.s);
    el_buf_free(&expected);
    return -1;
}

static int apply(const loader *L, json_object *obj)
{
    if (!json_object_is_type(obj, json_type_object))
        return fail(L, NULL, 0, "expected a JSON object at the top level");
    json_object_object_foreach(obj, key, val) {
        if (!is_comment_key(key) && apply_key(L, key, val) < 0)
            return -1;
    }
    return 0;
}

/* ---- configurations ------------------------------------------------------------------ */

static el_config *config_new(const char *path, const char *root)
{
    el_config *c = el_xcalloc(1, sizeof *c);
    c->path = path ? el_xstrdup(path) : NULL;
    c->root = el_xstrdup(root);
    c->frontend_include = el_xstrdup("");
    size_t n = el_meta_count();
    c->rules = el_xcalloc(n ? n : 1, sizeof *c->rules);
    return c;
}

static void config_free(el_config *c)
{
    if (!c)
        return;
    free(c->path);
    free(c->root);
    free(c->project_root);
    free(c->frontend_include);
    for (size_t k = 0; k < EL_N_LIST_KEYS; k++)
        list_free(&c->lists[k]);
    for (size_t k = 0; k < EL_N_MAP_KEYS; k++)
        map_free(&c->maps[k]);
    list_free(&c->prefixes);
    el_prefix_index_free(&c->prefix_index);
    list_free(&c->backend_files);
    rewrites_free(c);
    for (size_t i = 0; i < el_meta_count(); i++) {
        if (c->rules[i].options)
            json_object_put(c->rules[i].options);
        list_free(&c->rules[i].option_from);
    }
    free(c->rules);
    free(c);
}

/* (Re)index backend_prefixes as they stand (prefix_index.h): at load, so
 * that a configuration met after finalize answers el_backend_of_symbol
 * from its own entries, and again at finalize, with <backend> expanded. */
static void index_prefixes(el_config *c)
{
    el_prefix_index_free(&c->prefix_index);
    const el_strlist *raw = &c->lists[EL_BACKEND_PREFIXES];
    el_prefix_index_build(&c->prefix_index, c->prefixes.v, c->prefixes.n, raw->v, raw->n);
}

/* A fresh config for path/root that inherits everything of base. */
static el_config *config_derive(const el_config *base, const char *path, const char *root)
{
    el_config *c = config_new(path, root);
    c->parent = base;
    c->project_root = el_xstrdup(base->project_root ? base->project_root : root);
    for (size_t k = 0; k < EL_N_LIST_KEYS; k++)
        list_copy(&c->lists[k], &base->lists[k]);
    list_copy(&c->backend_files, &base->backend_files);
    for (size_t k = 0; k < EL_N_MAP_KEYS; k++)
        for (size_t i = 0; i < base->maps[k].n; i++) {
            const el_kv *e = &base->maps[k].v[i];
            map_set(&c->maps[k], e->key, e->text, e->a, e->b, e->from);
        }
    free(c->frontend_include);
    c->frontend_include = el_xstrdup(base->frontend_include);
    c->frontend_include_from = base->frontend_include_from;
    for (size_t i = 0; i < base->n_rewrites; i++)
        rewrite_add(c, base->rewrites[i].function, base->rewrites[i].replacement,
                    base->rewrites[i].safety, base->rewrites[i].note, base->rewrites[i].from);
    for (size_t i = 0; i < el_meta_count(); i++) {
        c->rules[i] = base->rules[i];
        memset(&c->rules[i].option_from, 0, sizeof c->rules[i].option_from);
        list_copy(&c->rules[i].option_from, &base->rules[i].option_from);
        if (c->rules[i].options)
            json_object_get(c->rules[i].options);
    }
    return c;
}

/* The rules' defaults: rules/rules.json, each setting and option with
 * its place in that file. */
static void rule_defaults(el_config *c)
{
    static const char meta_file[] = "rules/rules.json";
    const char *text = el_embedded_text(meta_file);
    json_object *doc = text ? json_tokener_parse(text) : NULL, *arr = NULL;
    el_json_pos *pos = text ? el_json_pos_new(text) : NULL;
    if (doc)
        json_object_object_get_ex(doc, "rules", &arr);
    for (size_t i = 0; i < el_meta_count(); i++) {
        const el_rule_meta *m = el_meta_at(i);
        el_rule_setting *rs = &c->rules[i];
        /* the rule's index in the file (the metadata is sorted by ID) */
        char idx[32] = "0";
        for (size_t k = 0; arr && k < json_object_array_length(arr); k++) {
            json_object *id = NULL;
            if (json_object_object_get_ex(json_object_array_get_idx(arr, k), "id", &id) &&
                strcmp(json_object_get_string(id), m->id) == 0)
                snprintf(idx, sizeof idx, "%zu", k);
        }
        const char *path[5] = {"rules", idx, "severity", NULL, NULL};
        el_origin o = {meta_file, c->root, 1, 1, true};
        el_json_pos_find(pos, path, 3, &o.line, &o.col);
        rs->enabled = true;
        rs->severity = m->severity;
        rs->applies = m->applies;
        rs->from = o;
        path[2] = "applies_to";
        el_json_pos_find(pos, path, 3, &o.line, &o.col);
        rs->applies_from = o;
        if (!m->options)
            continue;
        rs->options = json_object_new_object();
        json_object_object_foreach(m->options, key, spec) {
            json_object *d = NULL;
            json_object_object_get_ex(spec, "default", &d);
            json_object_object_add(rs->options, key, json_object_get(d));
            path[2] = "options";
            path[3] = key;
            el_json_pos_find(pos, path, 4, &o.line, &o.col);
            list_add(&rs->option_from, key, o);
        }
    }
    el_json_pos_free(pos);
    if (doc)
        json_object_put(doc);
}

static el_config *builtin_config(char **err)
{
    /* rules/storage_accessors.json is generated from <eh/tensor.h> (the
     * Makefile embeds it under that name) */
    static const char *const files[] = {
        "rules/default.json", "rules/storage_accessors.json", "rules/host_access.json",
        "rules/symbols.json", "rules/rewrites.json",
    };
    el_config *c = config_new(NULL, el_cwd());
    rule_defaults(c);
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        const char *text = el_embedded_text(files[i]);
        char *perr = NULL;
        json_object *obj = text ? el_json_parse_located(text, strlen(text), &perr) : NULL;
        loader L = {c, files[i], files[i], text, NULL, true, &perr};
        int rc = -1;
        if (obj) {
            L.pos = el_json_pos_new(text);
            rc = apply(&L, obj);
            el_json_pos_free(L.pos);
            json_object_put(obj);
        }
        if (rc < 0) {
            *err = el_xasprintf("internal error: %s: %s", files[i], perr ? perr : "missing");
            free(perr);
            config_free(c);
            return NULL;
        }
    }
    index_prefixes(c);
    return c;
}

/* Read a whole file; NULL with *err on failure. */
static char *read_config_text(const char *path, size_t *len, char **err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *err = el_xasprintf("%s: cannot read: %s", path, strerror(errno));
        return NULL;
    }
    el_buf b = {0};
    char chunk[8192];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        el_buf_putn(&b, chunk, got);
        if (b.n > MAX_CONFIG_BYTES) {
            fclose(f);
            el_buf_free(&b);
            *err = el_xasprintf("%s: too large for a configuration file", path);
            return NULL;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        el_buf_free(&b);
        *err = el_xasprintf("%s: cannot read: %s", path, strerror(EIO));
        return NULL;
    }
    *len = b.n;
    return el_buf_take(&b);
}

/* A configuration file, parsed and checked but not yet applied. */
typedef struct parsed {
    char *abs, *shown, *text;
    json_object *obj;
    bool root;
} parsed;

static void parsed_free(parsed *p)
{
    free(p->abs);
    free(p->shown);
    free(p->text);
    if (p->obj)
        json_object_put(p->obj);
    memset(p, 0, sizeof *p);
}

static int parse_file(const char *path, parsed *p, char **err)
{
    memset(p, 0, sizeof *p);
    p->abs = el_path_abs(path);
    p->shown = el_path_display(p->abs); /* in messages: relative to the current directory */
    size_t len = 0;
    p->text = read_config_text(p->shown, &len, err);
    if (!p->text)
        return -1;
    if (memchr(p->text, '\0', len)) {
        *err = el_xasprintf("%s:1:1: expected a JSON text, found NUL bytes", p->shown);
        return -1;
    }
    char *perr = NULL;
    p->obj = el_json_parse_located(p->text, len, &perr);
    if (!p->obj) {
        *err = el_xasprintf("%s:%s", p->shown, perr);
        free(perr);
        return -1;
    }
    json_object *r = NULL;
    p->root = json_object_is_type(p->obj, json_type_object) &&
              json_object_object_get_ex(p->obj, "root", &r) &&
              json_object_is_type(r, json_type_boolean) && json_object_get_boolean(r);
    return 0;
}

/* Apply a parsed file on top of base. */
static el_config *load_parsed(const el_config *base, parsed *p, char **err)
{
    /* the directory its patterns are relative to, symlinks resolved as
     * the linted files' paths are (a discovered file's already is; not
     * --config link/p.json, whose '/'-anchored patterns matched nothing) */
    char *dir = el_path_dirname(p->abs);
    char *root = el_path_real(dir);
    if (root)
        free(dir);
    else
        root = dir;
    el_config *c = config_derive(base, p->abs, root);
    free(root);
    if (p->root) {
        free(c->project_root);
        c->project_root = el_xstrdup(c->root);
    }
    loader L = {c, p->shown, c->path, p->text, el_json_pos_new(p->text), false, err};
    int rc = apply(&L, p->obj);
    el_json_pos_free(L.pos);
    if (rc < 0) {
        config_free(c);
        return NULL;
    }
    index_prefixes(c);
    return c;
}

/* ---- discovery ------------------------------------------------------------------ */

el_configs *el_configs_new(const char *forced, char **err)
{
    el_configs *s = el_xcalloc(1, sizeof *s);
    s->builtin = builtin_config(err);
    if (!s->builtin) {
        free(s);
        return NULL;
    }
    if (forced) {
        parsed p;
        if (parse_file(forced, &p, err) == 0)
            s->forced = load_parsed(s->builtin, &p, err);
        parsed_free(&p);
        if (!s->forced) {
            el_configs_free(s);
            return NULL;
        }
    }
    return s;
}

/* The configuration of files directly in dir (absolute). */
static el_config *dir_config(el_configs *s, const char *dir, char **err)
{
    el_config *c = el_strmap_get(&s->by_dir, dir);
    if (c)
        return c;
    char *cand = el_path_join(dir, CONFIG_NAME);
    struct stat st;
    bool here = stat(cand, &st) == 0 && !S_ISDIR(st.st_mode);
    bool top = strcmp(dir, "/") == 0;
    if (here) {
        parsed p;
        if (parse_file(cand, &p, err) == 0) {
            char *up = top ? NULL : el_path_dirname(dir);
            const el_config *base = p.root || top ? s->builtin : dir_config(s, up, err);
            free(up);
            c = base ? load_parsed(base, &p, err) : NULL;
        }
        parsed_free(&p);
        if (c) {
            el_grow(&s->all, &s->cap_all, s->n_all + 1, sizeof *s->all);
            s->all[s->n_all++] = c;
        }
    } else if (top) {
        c = s->builtin;
    } else {
        char *up = el_path_dirname(dir);
        c = dir_config(s, up, err);
        free(up);
    }
    free(cand);
    if (c)
        el_strmap_put(&s->by_dir, dir, c);
    return c;
}

const el_config *el_configs_for(el_configs *s, const char *abs_path, char **err)
{
    if (s->forced)
        return s->forced;
    char *dir = el_path_dirname(abs_path);
    const el_config *c = dir_config(s, dir, err);
    free(dir);
    return c;
}

void el_configs_note_backend(el_configs *s, const char *name)
{
    if (name[0])
        list_add(&s->seen_backends, name, (el_origin){0});
}

/* Backend directories that exist below a configuration: for each
 * backend_dirs pattern (anchored, or relative to the directory that
 * declared it), the directory before the component holding <name>, read
 * for entries that component matches ("src/ggml-<name>/" reads src/ for
 * ggml-cuda, ggml-cpu, ...): fn(backend name, its directory, ud). */
void el_config_each_backend_dir(const el_config *c, bool at_project,
                                void (*fn)(const char *name, const char *dir, void *ud), void *ud)
{
    const el_strlist *dirs = &c->lists[EL_BACKEND_DIRS];
    for (size_t i = 0; i < dirs->n; i++) {
        const char *p = dirs->v[i];
        if (p[0] == '/')
            p++;
        const char *cap = strchr(p, '<');
        const char *wild = strpbrk(p, "*?[");
        if (!cap || (wild && wild < cap))
            continue;
        const char *slash = cap;
        while (slash > p && slash[-1] != '/')
            slash--;
        const char *end = strchr(cap, '/');
        char *comp = end ? el_xstrndup(slash, (size_t)(end - slash)) : el_xstrdup(slash);
        char *prefix = el_xstrndup(p, (size_t)(slash - p));
        const char *base = dirs->from[i].root ? dirs->from[i].root : c->root;
        if (at_project && dirs->from[i].builtin && c->project_root)
            base = c->project_root; /* (the built-in's is the current directory) */
        char *dir = el_path_join(base, prefix);
        free(prefix);
        DIR *d = opendir(dir);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                if (e->d_name[0] == '.')
                    continue;
                char name[256];
                char *sub = el_path_join(dir, e->d_name);
                struct stat st;
                if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode) &&
                    el_pattern_match(comp, e->d_name, name, sizeof name) && name[0])
                    fn(name, sub, ud);
                free(sub);
            }
            closedir(d);
        }
        free(dir);
        free(comp);
    }
}

static void add_backend(const char *name, const char *dir, void *ud)
{
    (void)dir;
    list_add(ud, name, (el_origin){0});
}

static void discover_backends(el_config *c)
{
    el_config_each_backend_dir(c, false, add_backend, &c->lists[EL_BACKENDS]);
}

/* A directory of the configuration's chain (its own or one further up),
 * relative to its root so that the fingerprint holds no absolute path. */
static void hash_place(el_hasher *h, const el_config *c, const char *dir)
{
    char *rel = dir && c->root ? el_path_under(c->root, dir) : NULL;
    el_hash_str(h, rel ? rel : dir);
    free(rel);
}

static void hash_origin_list(el_hasher *h, const el_config *c, const el_strlist *l)
{
    el_hash_u64(h, l->n);
    for (size_t i = 0; i < l->n; i++) {
        el_hash_str(h, l->v[i]);
        el_hash_u64(h, l->from[i].builtin);
        if (!l->from[i].builtin)
            hash_place(h, c, l->from[i].root);
    }
}

static void finalize_one(el_config *c, const el_strlist *seen)
{
    discover_backends(c);
    for (size_t i = 0; i < seen->n; i++)
        list_add(&c->lists[EL_BACKENDS], seen->v[i], seen->from[i]);
    el_strlist *be = &c->lists[EL_BACKENDS];
    /* sorted (with their origins) */
    for (size_t i = 1; i < be->n; i++)
        for (size_t j = i; j > 0 && cmp_str(&be->v[j - 1], &be->v[j]) > 0; j--) {
            char *t = be->v[j];
            be->v[j] = be->v[j - 1];
            be->v[j - 1] = t;
            el_origin o = be->from[j];
            be->from[j] = be->from[j - 1];
            be->from[j - 1] = o;
        }
    list_free(&c->prefixes);
    const el_strlist *pre = &c->lists[EL_BACKEND_PREFIXES];
    for (size_t i = 0; i < pre->n; i++) {
        const char *p = pre->v[i];
        const char *at = strstr(p, "<backend>");
        if (!at) {
            list_add(&c->prefixes, p, pre->from[i]);
            continue;
        }
        for (size_t b = 0; b < be->n; b++) {
            char *x = el_xasprintf("%.*s%s%s", (int)(at - p), p, be->v[b], at + strlen("<backend>"));
            list_add(&c->prefixes, x, pre->from[i]);
            free(x);
        }
    }
    index_prefixes(c);
    el_hasher h;
    el_hash_init(&h);
    /* not where the tree is (the cache adds the configuration's path and
     * root relative to its root, so a moved tree keeps its fingerprints):
     * inherited places are hashed relative to the root */
    hash_place(&h, c, c->project_root);
    el_hash_str(&h, c->frontend_include);
    el_hash_u64(&h, c->frontend_include_from.builtin);
    for (size_t k = 0; k < EL_N_LIST_KEYS; k++)
        hash_origin_list(&h, c, &c->lists[k]);
    hash_origin_list(&h, c, &c->backend_files);
    for (size_t k = 0; k < EL_N_MAP_KEYS; k++) {
        el_hash_u64(&h, c->maps[k].n);
        for (size_t i = 0; i < c->maps[k].n; i++) {
            const el_kv *e = &c->maps[k].v[i];
            el_hash_str(&h, e->key);
            el_hash_str(&h, e->text);
            el_hash_u64(&h, (uint64_t)(e->a + 1) | (uint64_t)(e->b + 1) << 16 |
                                (uint64_t)e->from.builtin << 32);
        }
    }
    el_hash_u64(&h, c->n_rewrites);
    for (size_t i = 0; i < c->n_rewrites; i++) {
        el_hash_str(&h, c->rewrites[i].function);
        el_hash_str(&h, c->rewrites[i].replacement);
        el_hash_u64(&h, (uint64_t)c->rewrites[i].safety);
    }
    for (size_t i = 0; i < el_meta_count(); i++) {
        const el_rule_setting *r = &c->rules[i];
        el_hash_u64(&h, (uint64_t)r->enabled | (uint64_t)r->severity << 1 | (uint64_t)r->applies << 8);
        el_hash_str(&h, r->options ? json_object_to_json_string_ext(r->options, JSON_C_TO_STRING_PLAIN) : NULL);
    }
    c->fingerprint = el_hash_final(&h);
}

void el_configs_finalize(el_configs *s)
{
    finalize_one(s->builtin, &s->seen_backends);
    if (s->forced)
        finalize_one(s->forced, &s->seen_backends);
    for (size_t i = 0; i < s->n_all; i++)
        finalize_one(s->all[i], &s->seen_backends);
}

void el_configs_set_custom_ns(el_configs *s, const char *ns)
{
    snprintf(s->builtin->custom_ns, sizeof s->builtin->custom_ns, "%s", ns);
    if (s->forced)
        snprintf(s->forced->custom_ns, sizeof s->forced->custom_ns, "%s", ns);
    for (size_t i = 0; i < s->n_all; i++)
        snprintf(s->all[i]->custom_ns, sizeof s->all[i]->custom_ns, "%s", ns);
}

void el_configs_free(el_configs *s)
{
    if (!s)
        return;
    config_free(s->builtin);
    config_free(s->forced);
    for (size_t i = 0; i < s->n_all; i++)
        config_free(s->all[i]);
    free(s->all);
    el_strmap_free(&s->by_dir);
    el_strmap_free(&s->hits);
    list_free(&s->seen_backends);
    el_strmap_free(&s->excluded);
    free(s);
}

/* ---- queries -------------------------------------------------------------------- */

/* The path a pattern of `root` is matched against: relative to root when
 * inside it, else the absolute path without its leading '/' (*outside
 * set), which only an unanchored pattern may match ("cblas.h" matches
 * /usr/include/cblas.h; "/src/" is the project's src/, nothing else). */
static char *rel_to(const char *root, const char *abs_path, bool *outside)
{
    char *rel = el_path_under(abs_path, root);
    *outside = rel == NULL;
    if (rel)
        return rel;
    return el_xstrdup(abs_path[0] == '/' ? abs_path + 1 : abs_path);
}

static bool anchored(const char *pattern)
{
    return pattern[0] == '/';
}

/* pattern (declared in root) matches abs_path. */
static bool match_at(const char *root, const char *pattern, const char *abs_path, char *cap,
                     size_t n)
{
    bool outside;
    char *rel = rel_to(root, abs_path, &outside);
    bool hit = !(outside && anchored(pattern)) && el_pattern_match(pattern, rel, cap, n);
    free(rel);
    return hit;
}

/* The first pattern of list l matching abs_path (each relative to the
 * directory of the file that declared it), or -1; the <name> capture
 * into cap[n]. */
static long match_list(const el_config *c, const el_strlist *l, const char *abs_path, char *cap,
                       size_t n)
{
    char *rel = NULL;
    const char *rel_root = NULL;
    bool outside = false;
    long hit = -1;
    for (size_t i = 0; i < l->n && hit < 0; i++) {
        const char *root = l->from[i].root ? l->from[i].root : c->root;
        if (!rel_root || strcmp(rel_root, root) != 0) {
            free(rel);
            rel = rel_to(root, abs_path, &outside);
            rel_root = root;
        }
        if (!(outside && anchored(l->v[i])) && el_pattern_match(l->v[i], rel, cap, n))
            hit = (long)i;
    }
    free(rel);
    return hit;
}

bool el_config_anchored(const char *pattern)
{
    return anchored(pattern);
}

bool el_config_match_at(const char *root, const char *pattern, const char *abs_path)
{
    return match_at(root, pattern, abs_path, NULL, 0);
}

long el_config_backend_file_at(const el_config *c, const char *abs_path, size_t from)
{
    const el_strlist *l = &c->backend_files;
    for (size_t i = from; i < l->n; i++) {
        const char *colon = strchr(l->v[i], ':');
        if (colon && match_at(l->from[i].root ? l->from[i].root : c->root, colon + 1, abs_path,
                              NULL, 0))
            return (long)i;
    }
    return -1;
}

/* The backend_files entry matching abs_path: its name into backend[n]. */
static bool backend_file(const el_config *c, const char *abs_path, char *backend, size_t n)
{
    long i = el_config_backend_file_at(c, abs_path, 0);
    if (i < 0)
        return false;
    const char *entry = c->backend_files.v[i];
    if (backend && n)
        snprintf(backend, n, "%.*s", (int)(strchr(entry, ':') - entry), entry);
    return true;
}

el_file_class el_config_classify(const el_config *c, const char *abs_path, char *backend, size_t n)
{
    if (backend && n)
        backend[0] = '\0';
    if (match_list(c, &c->lists[EL_CORE_PATHS], abs_path, NULL, 0) >= 0)
        return EL_FILE_CORE;
    if (match_list(c, &c->lists[EL_BACKEND_DIRS], abs_path, backend, n) >= 0)
        return EL_FILE_BACKEND;
    if (backend_file(c, abs_path, backend, n))
        return EL_FILE_BACKEND;
    if (match_list(c, &c->lists[EL_BACKEND_HEADERS], abs_path, NULL, 0) >= 0)
        return EL_FILE_CORE;
    return EL_FILE_FRONTEND;
}

bool el_config_excluded(const el_config *c, const char *abs_path)
{
    return match_list(c, &c->lists[EL_EXCLUDE], abs_path, NULL, 0) >= 0;
}

bool el_config_excluded_file(const el_config *c, const char *abs_path)
{
    if (el_config_excluded(c, abs_path))
        return true;
    /* the directories a walk of the project would test: those below its
     * root (a checkout under /src/build/ is not in "build/") */
    const char *root = c->project_root ? c->project_root : el_cwd();
    char *rel = el_path_under(abs_path, root);
    if (!rel)
        return false;
    free(rel);
    char *dir = el_path_dirname(abs_path);
    bool hit = false;
    while (!hit && strcmp(dir, root) != 0 && strcmp(dir, "/") != 0 && strcmp(dir, ".") != 0) {
        char *asdir = el_xasprintf("%s/", dir); /* patterns see a directory */
        hit = el_config_excluded(c, asdir);
        free(asdir);
        char *up = el_path_dirname(dir);
        free(dir);
        dir = up;
    }
    free(dir);
    return hit;
}

bool el_config_in_project(const el_config *c, const char *abs_path)
{
    const char *root = c->project_root ? c->project_root : el_cwd();
    char *rel = el_path_under(abs_path, root);
    bool in = rel != NULL && strcmp(root, "/") != 0;
    free(rel);
    return in;
}

bool el_config_is_vendor_header(const el_config *c, const char *abs_path)
{
    return match_list(c, &c->lists[EL_VENDOR_HEADERS], abs_path, NULL, 0) >= 0;
}

bool el_config_lists_c(const el_config *c)
{
    return list_find(&c->lists[EL_LANGUAGES], "c") >= 0;
}

const char *el_config_language_of(const el_config *c, const char *path)
{
    if (el_path_has_ext(path, ".c"))
        return "c";
    if (el_path_has_ext(path, ".h"))
        return el_config_lists_c(c) ? "c" : "c++";
    if (list_find(&c->lists[EL_LANGUAGES], "c++") < 0 || !el_path_is_cxx(path))
        return NULL;
    return "c++";
}

bool el_config_is_backend_header(const el_config *c, const char *spelled, const char *resolved)
{
    if (resolved) {
        char name[64];
        if (el_config_classify(c, resolved, name, sizeof name) == EL_FILE_BACKEND)
            return true;
        if (match_list(c, &c->lists[EL_BACKEND_HEADERS], resolved, NULL, 0) >= 0)
            return true;
        /* a vendor's header, unless it is the project's own file */
        if (!el_config_in_project(c, resolved) &&
            match_list(c, &c->lists[EL_VENDOR_HEADERS], resolved, NULL, 0) >= 0)
            return true;
    }
    /* The name as written: what the include says, not where it is, so
     * never against an anchored pattern (anchored at a configuration's
     * directory), and against the directories of backends only when the
     * include was not found (the file's place says it otherwise). */
    if (spelled && spelled[0]) {
        const el_strlist *lists[] = {&c->lists[EL_BACKEND_HEADERS],
                                     resolved ? NULL : &c->lists[EL_BACKEND_DIRS],
                                     resolved ? NULL : &c->lists[EL_VENDOR_HEADERS]};
        for (size_t k = 0; k < 3; k++)
            for (size_t i = 0; lists[k] && i < lists[k]->n; i++)
                if (!anchored(lists[k]->v[i]) && el_pattern_match(lists[k]->v[i], spelled, NULL, 0))
                    return true;
    }
    return false;
}

/* A legacy_backend_dirs pattern matching abs_path whose <name> is a
 * known backend (ops/util/ is not a backend's); also at any boundary of
 * the absolute path: the root of the built-in configuration is the
 * current directory, which may be inside the legacy directory itself
 * (cd app/ops && ember-migrate apply ..). */
bool el_config_legacy_backend(const el_config *c, const char *abs_path, char *backend, size_t n)
{
    if (backend && n)
        backend[0] = '\0';
    const el_strlist *l = &c->lists[EL_LEGACY_BACKEND_DIRS];
    for (size_t i = 0; i < l->n; i++) {
        const char *root = l->from[i].root ? l->from[i].root : c->root;
        bool outside;
        char *rel = rel_to(root, abs_path, &outside);
        char name[256];
        bool hit = (!(outside && anchored(l->v[i])) &&
                    el_pattern_match(l->v[i], rel, name, sizeof name) &&
                    list_find(&c->lists[EL_BACKENDS], name) >= 0) ||
                   (abs_path[0] == '/' && !anchored(l->v[i]) && strcmp(rel, abs_path + 1) != 0 &&
                    el_pattern_match(l->v[i], abs_path + 1, name, sizeof name) &&
                    list_find(&c->lists[EL_BACKENDS], name) >= 0);
        free(rel);
        if (hit) {
            if (backend && n)
                snprintf(backend, n, "%s", name);
            return true;
        }
    }
    return false;
}

size_t el_config_rewrite_count(const el_config *c)
{
    return c->n_rewrites;
}

const el_rewrite_rule *el_config_rewrite_at(const el_config *c, size_t i)
{
    return i < c->n_rewrites ? &c->rewrites[i] : NULL;
}

const el_rewrite_rule *el_config_rewrite_for(const el_config *c, const char *function)
{
    for (size_t i = c->n_rewrites; i-- > 0;)
        if (strcmp(c->rewrites[i].function, function) == 0)
            return &c->rewrites[i];
    return NULL;
}

const el_kv *el_config_map_get(const el_config *c, el_map_key k, const char *name)
{
    long i = map_find(&c->maps[k], name);
    return i < 0 ? NULL : &c->maps[k].v[i];
}

const char *el_config_key_name(el_list_key k)
{
    return list_keys[k].name;
}

const char *el_config_map_name(el_map_key k)
{
    return map_keys[k].name;
}

const el_strlist *el_config_list(const el_config *c, el_list_key k)
{
    return &c->lists[k];
}

bool el_prefix_is_pattern(const char *entry)
{
    return strpbrk(entry, "*?[") != NULL;
}

bool el_backend_prefix_matches(const char *entry, const char *symbol)
{
    if (el_prefix_is_pattern(entry))
        return fnmatch(entry, symbol, 0) == 0;
    size_t n = strlen(entry);
    return strlen(symbol) > n && strncmp(symbol, entry, n) == 0;
}

const char *el_config_backend_prefix(const el_config *c, const char *symbol)
{
    for (size_t i = 0; i < c->prefixes.n; i++) {
        if (el_backend_prefix_matches(c->prefixes.v[i], symbol))
            return c->prefixes.v[i];
    }
    return NULL;
}

bool el_config_list_matches(const el_config *c, el_list_key k, const char *name)
{
    const el_strlist *l = &c->lists[k];
    for (size_t i = 0; i < l->n; i++)
        if (fnmatch(l->v[i], name, 0) == 0)
            return true;
    return false;
}

bool el_config_is_backend_macro(const el_config *c, const char *name)
{
    return el_config_list_matches(c, EL_BACKEND_MACROS, name);
}

size_t el_config_backend_count(const el_config *c)
{
    return c->lists[EL_BACKENDS].n;
}

const char *el_config_backend_name(const el_config *c, size_t i)
{
    return i < c->lists[EL_BACKENDS].n ? c->lists[EL_BACKENDS].v[i] : NULL;
}

const el_prefix_index *el_config_prefix_index(const el_config *c)
{
    return &c->prefix_index;
}

const char *const *el_config_strings(const el_config *c, const char *key, size_t *n)
{
    for (size_t k = 0; k < EL_N_LIST_KEYS; k++) {
        if (strcmp(key, list_keys[k].name) == 0) {
            *n = c->lists[k].n;
            return (const char *const *)c->lists[k].v;
        }
    }
    if (strcmp(key, "backend_prefixes_expanded") == 0) {
        *n = c->prefixes.n;
        return (const char *const *)c->prefixes.v;
    }
    *n = 0;
    return NULL;
}

json_object *el_config_rule_options(const el_config *c, const char *rule_id)
{
    int k = el_meta_index(rule_id);
    return k < 0 ? NULL : c->rules[k].options;
}
