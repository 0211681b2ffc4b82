/* lint/engine/config.c -- loading, merging, discovering and querying
 * configurations (config.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "embedded.h"
#include "mem.h"
#include "metadata.h"
#include "path.h"
#include "pattern.h"
#include "strbuf.h"
#include "strmap.h"

#define CONFIG_NAME ".emberlint.json"
#define MAX_CONFIG_BYTES (4u << 20)

/* ---- string lists ---------------------------------------------------- */

static bool list_has(const el_strlist *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->v[i], s) == 0)
            return true;
    return false;
}

static void list_add(el_strlist *l, const char *s)
{
    if (list_has(l, s))
        return;
    el_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = el_xstrdup(s);
}

static void list_copy(el_strlist *dst, const el_strlist *src)
{
    for (size_t i = 0; i < src->n; i++)
        list_add(dst, src->v[i]);
}

static void list_free(el_strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    memset(l, 0, sizeof *l);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The list keys, in the order they are documented. */
static const char *const list_keys[] = {
    "backend_dirs", "core_paths", "exclude", "backends",
    "backend_headers", "backend_prefixes", "backend_macros", "legacy_backend_dirs",
    "define_sets",
};
#define N_LIST_KEYS (sizeof list_keys / sizeof list_keys[0])

static el_strlist *list_of(el_config *c, size_t k)
{
    el_strlist *lists[N_LIST_KEYS] = {
        &c->backend_dirs, &c->core_paths, &c->exclude, &c->backends,
        &c->backend_headers, &c->backend_prefixes, &c->backend_macros,
        &c->legacy_backend_dirs, &c->define_sets,
    };
    return lists[k];
}

/* ---- JSON with positions --------------------------------------------- */

static void offset_to_line_col(const char *text, size_t off, unsigned *line, unsigned *col)
{
    unsigned l = 1, c = 1;
    for (size_t i = 0; i < off && text[i]; i++) {
        if (text[i] == '\n') {
            l++;
            c = 1;
        } else {
            c++;
        }
    }
    *line = l;
    *col = c;
}

static const char *expected_for(enum json_tokener_error e)
{
    switch (e) {
    case json_tokener_error_depth:
        return "nesting too deep";
    case json_tokener_error_parse_eof:
    case json_tokener_continue:
        return "unexpected end of file: expected the rest of the JSON object";
    case json_tokener_error_parse_unexpected:
        return "unexpected character: expected a JSON value";
    case json_tokener_error_parse_null:
    case json_tokener_error_parse_boolean:
        return "expected true, false or null";
    case json_tokener_error_parse_number:
        return "expected a number";
    case json_tokener_error_parse_array:
        return "expected ',' or ']' after an array element";
    case json_tokener_error_parse_object_key_name:
        return "expected a quoted property name";
    case json_tokener_error_parse_object_key_sep:
        return "expected ':' after the property name";
    case json_tokener_error_parse_object_value_sep:
        return "expected ',' or '}' after the property value";
    case json_tokener_error_parse_string:
        return "expected a valid string (closing '\"', valid escapes)";
    case json_tokener_error_parse_comment:
        return "comments are not JSON: expected a value (use a \"$comment\" key)";
    case json_tokener_error_parse_utf8_string:
        return "expected valid UTF-8";
    default:
        return "expected valid JSON";
    }
}

json_object *el_json_parse_located(const char *text, size_t len, char **err)
{
    struct json_tokener *tok = json_tokener_new();
    if (!tok)
        el_oom();
    json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
    json_object *obj = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    unsigned line, col;
    if (!obj || e != json_tokener_success) {
        if (obj)
            json_object_put(obj);
        if (e == json_tokener_continue || e == json_tokener_success)
            end = len; /* the text ended inside the object */
        const char *what = len == 0 ? "empty file: expected a JSON object" : expected_for(e);
        size_t prev = end;
        while (prev > 0 && strchr(" \t\r\n", text[prev - 1]))
            prev--;
        if (end < len && (text[end] == '}' || text[end] == ']') && prev > 0 && text[prev - 1] == ',')
            what = "trailing comma: expected another value after ','";
        else if (end < len && e == json_tokener_error_parse_unexpected && end > 0) {
            /* Is everything before the offending character a whole value? */
            char *head = el_xstrndup(text, end);
            json_object *whole = json_tokener_parse(head);
            if (whole) {
                what = "expected the end of the file after the JSON object";
                json_object_put(whole);
            }
            free(head);
        }
        offset_to_line_col(text, end, &line, &col);
        *err = el_xasprintf("%u:%u: %s", line, col, what);
        return NULL;
    }
    for (; end < len; end++) {
        if (!strchr(" \t\r\n", text[end])) {
            json_object_put(obj);
            offset_to_line_col(text, end, &line, &col);
            *err = el_xasprintf("%u:%u: expected the end of the file after the JSON object", line, col);
            return NULL;
        }
    }
    return obj;
}

/* Where a key path ("rules", "EH101", "severity") is in a valid JSON text:
 * byte offset of the last key's opening quote, or 0. */
typedef struct scanner {
    const char *s;
    size_t i;
} scanner;

static void skip_ws(scanner *sc)
{
    while (sc->s[sc->i] && strchr(" \t\r\n", sc->s[sc->i]))
        sc->i++;
}

static void skip_string(scanner *sc)
{
    sc->i++; /* opening quote */
    while (sc->s[sc->i] && sc->s[sc->i] != '"') {
        if (sc->s[sc->i] == '\\' && sc->s[sc->i + 1])
            sc->i++;
        sc->i++;
    }
    if (sc->s[sc->i])
        sc->i++;
}

static long scan_value(scanner *sc, const char *const *keys, int nkeys, int level, bool match)
{
    skip_ws(sc);
    char ch = sc->s[sc->i];
    if (ch == '{') {
        sc->i++;
        for (;;) {
            skip_ws(sc);
            if (sc->s[sc->i] != '"') {
                if (sc->s[sc->i])
                    sc->i++; /* '}' */
                return -1;
            }
            size_t kstart = sc->i;
            skip_string(sc);
            size_t klen = sc->i - kstart - 2;
            bool here = match && level < nkeys && strlen(keys[level]) == klen &&
                        strncmp(sc->s + kstart + 1, keys[level], klen) == 0;
            if (here && level + 1 == nkeys)
                return (long)kstart;
            skip_ws(sc);
            if (sc->s[sc->i] == ':')
                sc->i++;
            long r = scan_value(sc, keys, nkeys, level + 1, here);
            if (r >= 0)
                return r;
            skip_ws(sc);
            if (sc->s[sc->i] == ',') {
                sc->i++;
                continue;
            }
            if (sc->s[sc->i])
                sc->i++;
            return -1;
        }
    }
    if (ch == '[') {
        sc->i++;
        for (;;) {
            skip_ws(sc);
            if (sc->s[sc->i] == ']' || !sc->s[sc->i]) {
                if (sc->s[sc->i])
                    sc->i++;
                return -1;
            }
            scan_value(sc, keys, nkeys, level + 1, false);
            skip_ws(sc);
            if (sc->s[sc->i] == ',')
                sc->i++;
        }
    }
    if (ch == '"') {
        skip_string(sc);
        return -1;
    }
    while (sc->s[sc->i] && !strchr(",]} \t\r\n", sc->s[sc->i]))
        sc->i++;
    return -1;
}

/* "PATH:LINE:COL: what" for the key path keys[0..nkeys). */
static char *located(const char *path, const char *text, const char *const *keys, int nkeys,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static char *located(const char *path, const char *text, const char *const *keys, int nkeys,
                     const char *fmt, ...)
{
    scanner sc = {text, 0};
    long off = nkeys ? scan_value(&sc, keys, nkeys, 0, true) : 0;
    unsigned line, col;
    offset_to_line_col(text, off < 0 ? 0 : (size_t)off, &line, &col);
    el_buf b = {0};
    el_buf_printf(&b, "%s:%u:%u: ", path, line, col);
    va_list ap;
    va_start(ap, fmt);
    char tmp[512];
    vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    el_buf_puts(&b, tmp);
    return el_buf_take(&b);
}

/* ---- merging a JSON configuration into a config ------------------------ */

static bool is_comment_key(const char *k)
{
    return strcmp(k, "$comment") == 0;
}

static int apply_rule(el_config *c, const char *path, const char *text, const char *id,
                      json_object *v, char **err)
{
    int k = el_meta_index(id);
    const char *keys[4] = {"rules", id, NULL, NULL};
    if (k < 0) {
        *err = located(path, text, keys, 2, "unknown rule ID \"%s\": expected a rule ID "
                       "(see emberlint --list-rules)", id);
        return -1;
    }
    el_rule_setting *rs = &c->rules[k];
    if (json_object_is_type(v, json_type_string)) {
        el_severity sev;
        if (!el_severity_parse(json_object_get_string(v), &sev)) {
            *err = located(path, text, keys, 2, "rules.%s: expected \"error\", \"warning\", "
                           "\"note\", \"off\" or an object", id);
            return -1;
        }
        rs->enabled = sev != EL_SEV_OFF;
        if (sev != EL_SEV_OFF)
            rs->severity = sev;
        return 0;
    }
    if (!json_object_is_type(v, json_type_object)) {
        *err = located(path, text, keys, 2, "rules.%s: expected a severity string or an object", id);
        return -1;
    }
    json_object_object_foreach(v, key, val) {
        keys[2] = key;
        if (is_comment_key(key))
            continue;
        if (strcmp(key, "enabled") == 0) {
            if (!json_object_is_type(val, json_type_boolean)) {
                *err = located(path, text, keys, 3, "rules.%s.enabled: expected true or false", id);
                return -1;
            }
            rs->enabled = json_object_get_boolean(val);
        } else if (strcmp(key, "severity") == 0) {
            el_severity sev;
            if (!json_object_is_type(val, json_type_string) ||
                !el_severity_parse(json_object_get_string(val), &sev)) {
                *err = located(path, text, keys, 3, "rules.%s.severity: expected \"error\", "
                               "\"warning\", \"note\" or \"off\"", id);
                return -1;
            }
            if (sev == EL_SEV_OFF)
                rs->enabled = false;
            else
                rs->severity = sev;
        } else if (strcmp(key, "applies_to") == 0) {
            unsigned bits;
            if (!el_applies_from_json(val, &bits)) {
                *err = located(path, text, keys, 3, "rules.%s.applies_to: expected an array of "
                               "\"frontend\", \"backend\", \"core\", \"project\"", id);
                return -1;
            }
            rs->applies = bits;
        } else if (strcmp(key, "options") == 0) {
            if (!json_object_is_type(val, json_type_object)) {
                *err = located(path, text, keys, 3, "rules.%s.options: expected an object", id);
                return -1;
            }
            if (rs->options)
                json_object_put(rs->options);
            rs->options = json_object_get(val);
        } else {
            *err = located(path, text, keys, 3, "rules.%s: unknown key \"%s\": expected "
                           "\"enabled\", \"severity\", \"applies_to\" or \"options\"", id, key);
            return -1;
        }
    }
    return 0;
}

/* ---- call templates ("rewrites") ---------------------------------------- */

static void rewrite_add(el_config *c, const char *function, const char *replacement,
                        el_fix_safety safety, const char *note)
{
    el_grow(&c->rewrites, &c->cap_rewrites, c->n_rewrites + 1, sizeof *c->rewrites);
    el_rewrite_rule *r = &c->rewrites[c->n_rewrites++];
    r->function = el_xstrdup(function);
    r->replacement = el_xstrdup(replacement);
    r->safety = safety;
    r->note = note ? el_xstrdup(note) : NULL;
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

/* A template's placeholders: $1..$9, $* and $$. */
static bool template_ok(const char *t)
{
    for (; *t; t++)
        if (*t == '$' && !((t[1] >= '1' && t[1] <= '9') || t[1] == '*' || t[1] == '$'))
            return false;
        else if (*t == '$')
            t++;
    return true;
}

static int apply_rewrites(el_config *c, json_object *val, const char *path, const char *text,
                          char **err)
{
    const char *keys[1] = {"rewrites"};
    if (!json_object_is_type(val, json_type_array)) {
        *err = located(path, text, keys, 1, "\"rewrites\": expected an array of objects "
                       "{\"function\", \"replacement\", \"safety\", \"note\"}");
        return -1;
    }
    for (size_t i = 0; i < json_object_array_length(val); i++) {
        json_object *e = json_object_array_get_idx(val, i), *f = NULL, *r = NULL;
        const char *safety = "unsafe", *note = NULL;
        if (!json_object_is_type(e, json_type_object)) {
            *err = located(path, text, keys, 1, "rewrites[%zu]: expected an object", i + 1);
            return -1;
        }
        json_object_object_foreach(e, key, v) {
            bool str = json_object_is_type(v, json_type_string);
            if (is_comment_key(key))
                continue;
            if (strcmp(key, "function") == 0 && str) {
                f = v;
            } else if (strcmp(key, "replacement") == 0 && str) {
                r = v;
            } else if (strcmp(key, "safety") == 0 && str) {
                safety = json_object_get_string(v);
            } else if (strcmp(key, "note") == 0 && str) {
                note = json_object_get_string(v);
            } else {
                *err = located(path, text, keys, 1, "rewrites[%zu]: unexpected \"%s\": expected "
                               "string values for \"function\", \"replacement\", \"safety\" "
                               "and \"note\"", i + 1, key);
                return -1;
            }
        }
        if (!f || !is_identifier(json_object_get_string(f))) {
            *err = located(path, text, keys, 1, "rewrites[%zu].function: expected the name of "
                           "a function", i + 1);
            return -1;
        }
        if (!r || !json_object_get_string(r)[0] || !template_ok(json_object_get_string(r))) {
            *err = located(path, text, keys, 1, "rewrites[%zu].replacement: expected a call "
                           "template ($1..$9 for the arguments, $* for all, $$ for '$')", i + 1);
            return -1;
        }
        if (strcmp(safety, "safe") != 0 && strcmp(safety, "unsafe") != 0) {
            *err = located(path, text, keys, 1, "rewrites[%zu].safety: expected \"safe\" or "
                           "\"unsafe\"", i + 1);
            return -1;
        }
        rewrite_add(c, json_object_get_string(f), json_object_get_string(r),
                    strcmp(safety, "safe") == 0 ? EL_FIX_SAFE : EL_FIX_UNSAFE, note);
    }
    return 0;
}

static int apply(el_config *c, json_object *obj, const char *path, const char *text, char **err)
{
    if (!json_object_is_type(obj, json_type_object)) {
        *err = located(path, text, NULL, 0, "expected a JSON object at the top level");
        return -1;
    }
    json_object_object_foreach(obj, key, val) {
        const char *keys[1] = {key};
        if (is_comment_key(key))
            continue;
        if (strcmp(key, "rules") == 0) {
            if (!json_object_is_type(val, json_type_object)) {
                *err = located(path, text, keys, 1, "\"rules\": expected an object of rule IDs");
                return -1;
            }
            json_object_object_foreach(val, id, setting) {
                if (is_comment_key(id))
                    continue;
                if (apply_rule(c, path, text, id, setting, err) < 0)
                    return -1;
            }
            continue;
        }
        if (strcmp(key, "rewrites") == 0) {
            if (apply_rewrites(c, val, path, text, err) < 0)
                return -1;
            continue;
        }
        size_t k;
        for (k = 0; k < N_LIST_KEYS; k++)
            if (strcmp(key, list_keys[k]) == 0)
                break;
        if (k == N_LIST_KEYS) {
            *err = located(path, text, keys, 1, "unknown key \"%s\": expected one of "
                           "backend_dirs, core_paths, exclude, backends, backend_headers, "
                           "backend_prefixes, backend_macros, legacy_backend_dirs, define_sets, rewrites, "
                           "rules", key);
            return -1;
        }
        if (!json_object_is_type(val, json_type_array)) {
            *err = located(path, text, keys, 1, "\"%s\": expected an array of strings", key);
            return -1;
        }
        for (size_t i = 0; i < json_object_array_length(val); i++) {
            json_object *e = json_object_array_get_idx(val, i);
            if (!json_object_is_type(e, json_type_string) || !json_object_get_string(e)[0]) {
                *err = located(path, text, keys, 1, "\"%s\": expected an array of non-empty "
                               "strings (element %zu is not)", key, i + 1);
                return -1;
            }
            list_add(list_of(c, k), json_object_get_string(e));
        }
    }
    return 0;
}

static el_config *config_new(const char *path, const char *root)
{
    el_config *c = el_xcalloc(1, sizeof *c);
    c->path = path ? el_xstrdup(path) : NULL;
    c->root = el_xstrdup(root);
    size_t n = el_meta_count();
    c->rules = el_xcalloc(n ? n : 1, sizeof *c->rules);
    for (size_t i = 0; i < n; i++) {
        const el_rule_meta *m = el_meta_at(i);
        c->rules[i].enabled = true;
        c->rules[i].severity = m->severity;
        c->rules[i].applies = m->applies;
    }
    return c;
}

static void config_free(el_config *c)
{
    if (!c)
        return;
    free(c->path);
    free(c->root);
    for (size_t k = 0; k < N_LIST_KEYS; k++)
        list_free(list_of(c, k));
    list_free(&c->prefixes);
    rewrites_free(c);
    for (size_t i = 0; i < el_meta_count(); i++)
        if (c->rules[i].options)
            json_object_put(c->rules[i].options);
    free(c->rules);
    free(c);
}

/* Copy base into a fresh config for path/root. */
static el_config *config_derive(const el_config *base, const char *path, const char *root)
{
    el_config *c = config_new(path, root);
    for (size_t k = 0; k < N_LIST_KEYS; k++)
        list_copy(list_of(c, k), list_of((el_config *)base, k));
    for (size_t i = 0; i < base->n_rewrites; i++)
        rewrite_add(c, base->rewrites[i].function, base->rewrites[i].replacement,
                    base->rewrites[i].safety, base->rewrites[i].note);
    for (size_t i = 0; i < el_meta_count(); i++) {
        c->rules[i] = base->rules[i];
        if (c->rules[i].options)
            json_object_get(c->rules[i].options);
    }
    return c;
}

static el_config *builtin_config(char **err)
{
    /* The defaults, then the built-in call templates (the same shape). */
    static const char *const files[] = {"rules/default.json", "rules/rewrites.json"};
    el_config *c = config_new(NULL, el_cwd());
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        const char *text = el_embedded_text(files[i]);
        char *perr = NULL;
        json_object *obj = text ? el_json_parse_located(text, strlen(text), &perr) : NULL;
        int rc = obj ? apply(c, obj, files[i], text, &perr) : -1;
        if (obj)
            json_object_put(obj);
        if (rc < 0) {
            *err = el_xasprintf("internal error: %s: %s", files[i], perr ? perr : "missing");
            free(perr);
            config_free(c);
            return NULL;
        }
    }
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

static el_config *load_file(const el_config *base, const char *path, char **err)
{
    char *abs = el_path_abs(path);
    char *shown = el_path_display(abs); /* in messages: relative to the current directory */
    size_t len = 0;
    char *text = read_config_text(shown, &len, err);
    el_config *c = NULL;
    if (!text)
        goto out;
    char *perr = NULL;
    if (memchr(text, '\0', len)) {
        *err = el_xasprintf("%s:1:1: expected a JSON text, found NUL bytes", shown);
        goto out;
    }
    json_object *obj = el_json_parse_located(text, len, &perr);
    if (!obj) {
        *err = el_xasprintf("%s:%s", shown, perr);
        free(perr);
        goto out;
    }
    char *root = el_path_dirname(abs);
    c = config_derive(base, abs, root);
    free(root);
    int rc = apply(c, obj, shown, text, err);
    json_object_put(obj);
    if (rc < 0) {
        config_free(c);
        c = NULL;
    }
out:
    free(text);
    free(shown);
    free(abs);
    return c;
}

/* ---- discovery ------------------------------------------------------- */

struct el_configs {
    el_config *builtin;
    el_config *forced;
    el_strmap by_dir;     /* directory -> el_config* (builtin when none) */
    el_config **all;      /* loaded files, owned */
    size_t n_all, cap_all;
    el_strlist seen_backends;
};

el_configs *el_configs_new(const char *forced, char **err)
{
    el_configs *s = el_xcalloc(1, sizeof *s);
    s->builtin = builtin_config(err);
    if (!s->builtin) {
        free(s);
        return NULL;
    }
    if (forced) {
        s->forced = load_file(s->builtin, forced, err);
        if (!s->forced) {
            el_configs_free(s);
            return NULL;
        }
    }
    return s;
}

const el_config *el_configs_for(el_configs *s, const char *abs_path, char **err)
{
    if (s->forced)
        return s->forced;
    char *dir = el_path_dirname(abs_path);
    char **visited = NULL;
    size_t n_visited = 0, cap_visited = 0;
    el_config *found = NULL;
    for (;;) {
        found = el_strmap_get(&s->by_dir, dir);
        if (found)
            break;
        char *cand = el_path_join(dir, CONFIG_NAME);
        struct stat st;
        if (stat(cand, &st) == 0 && !S_ISDIR(st.st_mode)) {
            found = load_file(s->builtin, cand, err);
            if (!found) {
                free(cand);
                break;
            }
            el_grow(&s->all, &s->cap_all, s->n_all + 1, sizeof *s->all);
            s->all[s->n_all++] = found;
            free(cand);
            break;
        }
        free(cand);
        el_grow(&visited, &cap_visited, n_visited + 1, sizeof *visited);
        visited[n_visited++] = dir;
        if (strcmp(dir, "/") == 0) {
            found = s->builtin;
            dir = NULL;
            break;
        }
        dir = el_path_dirname(dir);
    }
    if (found) {
        if (dir)
            el_strmap_put(&s->by_dir, dir, found);
        for (size_t i = 0; i < n_visited; i++)
            el_strmap_put(&s->by_dir, visited[i], found);
    }
    for (size_t i = 0; i < n_visited; i++)
        free(visited[i]);
    free(visited);
    free(dir);
    return found;
}

void el_configs_note_backend(el_configs *s, const char *name)
{
    if (name[0])
        list_add(&s->seen_backends, name);
}

/* Backend directories that exist below a configuration's root: for each
 * backend_dirs pattern, the literal directories before <name>. */
static void discover_backends(el_config *c)
{
    for (size_t i = 0; i < c->backend_dirs.n; i++) {
        const char *p = c->backend_dirs.v[i];
        if (p[0] == '/')
            p++;
        const char *cap = strchr(p, '<');
        const char *wild = strpbrk(p, "*?[");
        if (!cap || (wild && wild < cap))
            continue;
        char *prefix = el_xstrndup(p, (size_t)(cap - p));
        char *dir = el_path_join(c->root, prefix);
        free(prefix);
        DIR *d = opendir(dir);
        if (d) {
            struct dirent *e;
            while ((e = readdir(d))) {
                if (e->d_name[0] == '.')
                    continue;
                char *sub = el_path_join(dir, e->d_name);
                struct stat st;
                if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode))
                    list_add(&c->backends, e->d_name);
                free(sub);
            }
            closedir(d);
        }
        free(dir);
    }
}

static void finalize_one(el_config *c, const el_strlist *seen)
{
    discover_backends(c);
    list_copy(&c->backends, seen);
    if (c->backends.n > 1)
        qsort(c->backends.v, c->backends.n, sizeof *c->backends.v, cmp_str);
    list_free(&c->prefixes);
    for (size_t i = 0; i < c->backend_prefixes.n; i++) {
        const char *p = c->backend_prefixes.v[i];
        const char *at = strstr(p, "<backend>");
        if (!at) {
            list_add(&c->prefixes, p);
            continue;
        }
        for (size_t b = 0; b < c->backends.n; b++) {
            char *x = el_xasprintf("%.*s%s%s", (int)(at - p), p, c->backends.v[b],
                                   at + strlen("<backend>"));
            list_add(&c->prefixes, x);
            free(x);
        }
    }
    el_hasher h;
    el_hash_init(&h);
    /* not path and root: where the tree is (the cache adds them relative
     * to its root, so a moved tree keeps its fingerprints) */
    for (size_t k = 0; k < N_LIST_KEYS; k++) {
        el_strlist *l = list_of(c, k);
        el_hash_u64(&h, l->n);
        for (size_t i = 0; i < l->n; i++)
            el_hash_str(&h, l->v[i]);
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
    list_free(&s->seen_backends);
    free(s);
}

/* ---- queries ----------------------------------------------------------- */

static bool legacy_match(const el_config *c, const char *rel, char *backend, size_t n);

/* The path patterns are matched against: relative to the root when
 * inside it, else the absolute path without its leading '/'. */
static char *rel_for(const el_config *c, const char *abs_path)
{
    char *rel = el_path_under(abs_path, c->root);
    if (rel)
        return rel;
    return el_xstrdup(abs_path[0] == '/' ? abs_path + 1 : abs_path);
}

el_file_class el_config_classify(const el_config *c, const char *abs_path, char *backend, size_t n)
{
    if (backend && n)
        backend[0] = '\0';
    char *rel = rel_for(c, abs_path);
    el_file_class cls = EL_FILE_FRONTEND;
    for (size_t i = 0; i < c->core_paths.n && cls == EL_FILE_FRONTEND; i++)
        if (el_pattern_match(c->core_paths.v[i], rel, NULL, 0))
            cls = EL_FILE_CORE;
    for (size_t i = 0; i < c->backend_dirs.n && cls == EL_FILE_FRONTEND; i++)
        if (el_pattern_match(c->backend_dirs.v[i], rel, backend, n))
            cls = EL_FILE_BACKEND;
    free(rel);
    return cls;
}

bool el_config_excluded(const el_config *c, const char *abs_path)
{
    char *rel = rel_for(c, abs_path);
    bool ex = false;
    for (size_t i = 0; i < c->exclude.n && !ex; i++)
        ex = el_pattern_match(c->exclude.v[i], rel, NULL, 0);
    free(rel);
    return ex;
}

bool el_config_is_backend_header(const el_config *c, const char *spelled, const char *resolved)
{
    if (resolved) {
        char name[64];
        if (el_config_classify(c, resolved, name, sizeof name) == EL_FILE_BACKEND)
            return true;
        char *rel = rel_for(c, resolved);
        bool hit = false;
        for (size_t i = 0; i < c->backend_headers.n && !hit; i++)
            hit = el_pattern_match(c->backend_headers.v[i], rel, NULL, 0);
        free(rel);
        if (hit)
            return true;
    }
    if (spelled && spelled[0]) {
        for (size_t i = 0; i < c->backend_headers.n; i++)
            if (el_pattern_match(c->backend_headers.v[i], spelled, NULL, 0))
                return true;
        for (size_t i = 0; i < c->backend_dirs.n; i++)
            if (el_pattern_match(c->backend_dirs.v[i], spelled, NULL, 0))
                return true;
    }
    return false;
}

/* A legacy_backend_dirs pattern matching rel whose <name> is a known
 * backend (ops/util/ is not a backend's). */
static bool legacy_match(const el_config *c, const char *rel, char *backend, size_t n)
{
    for (size_t i = 0; i < c->legacy_backend_dirs.n; i++) {
        char name[256];
        if (el_pattern_match(c->legacy_backend_dirs.v[i], rel, name, sizeof name) &&
            list_has(&c->backends, name)) {
            if (backend && n)
                snprintf(backend, n, "%s", name);
            return true;
        }
    }
    return false;
}

bool el_config_legacy_backend(const el_config *c, const char *abs_path, char *backend, size_t n)
{
    if (backend && n)
        backend[0] = '\0';
    char *rel = rel_for(c, abs_path);
    bool hit = legacy_match(c, rel, backend, n);
    /* also at any boundary of the absolute path: the root of the built-in
     * configuration is the current directory, which may be inside the
     * legacy directory itself (cd app/ops && ember-migrate apply ..) */
    if (!hit && abs_path[0] == '/' && strcmp(rel, abs_path + 1) != 0)
        hit = legacy_match(c, abs_path + 1, backend, n);
    free(rel);
    return hit;
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

const char *el_config_backend_prefix(const el_config *c, const char *symbol)
{
    for (size_t i = 0; i < c->prefixes.n; i++)
        if (strncmp(symbol, c->prefixes.v[i], strlen(c->prefixes.v[i])) == 0)
            return c->prefixes.v[i];
    return NULL;
}

bool el_config_is_backend_macro(const el_config *c, const char *name)
{
    for (size_t i = 0; i < c->backend_macros.n; i++)
        if (fnmatch(c->backend_macros.v[i], name, 0) == 0)
            return true;
    return false;
}

size_t el_config_backend_count(const el_config *c)
{
    return c->backends.n;
}

const char *el_config_backend_name(const el_config *c, size_t i)
{
    return i < c->backends.n ? c->backends.v[i] : NULL;
}

const char *const *el_config_strings(const el_config *c, const char *key, size_t *n)
{
    for (size_t k = 0; k < N_LIST_KEYS; k++) {
        if (strcmp(key, list_keys[k]) == 0) {
            el_strlist *l = list_of((el_config *)c, k);
            *n = l->n;
            return (const char *const *)l->v;
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
