/* migrate/compdb_update.c -- compile_commands.json after files moved
 * (compdb_update.h). */
#include "compdb_update.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "mem.h"
#include "moves.h"
#include "path.h"
#include "strbuf.h"

static const char *jstr(json_object *o, const char *k)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, k, &v) && json_object_is_type(v, json_type_string)
               ? json_object_get_string(v)
               : NULL;
}

/* `to` spelled as `old` was: absolute, or relative to dir. */
static char *respell(const char *old, const char *dir, const char *to)
{
    return old[0] == '/' ? el_xstrdup(to) : em_relpath(dir, to);
}

/* cmd with each whole-word occurrence of a replaced by b. */
static char *replace_word(const char *cmd, const char *a, const char *b)
{
    el_buf o = {0};
    size_t al = strlen(a);
    for (const char *p = cmd; *p;) {
        bool start = p == cmd || strchr(" \t\"'=", p[-1]);
        if (start && !strncmp(p, a, al) && (!p[al] || strchr(" \t\"'", p[al]))) {
            el_buf_puts(&o, b);
            p += al;
        } else {
            el_buf_putc(&o, *p++);
        }
    }
    return el_buf_take(&o);
}

/* The moved file entry e names: its index (n: none); *old the "file" as
 * written, *now the new place spelled the same way (malloc'd). */
static size_t entry_move(json_object *e, char *const *from, char *const *to, size_t n,
                         char **old, char **now)
{
    *old = *now = NULL;
    const char *dir = jstr(e, "directory"), *file = jstr(e, "file");
    if (!dir || !file)
        return n;
    char *dabs = el_path_abs(dir);
    /* CMake and bear write absolute "file"s */
    char *j = file[0] == '/' ? el_xstrdup(file) : el_path_join(dabs, file);
    char *abs = el_path_abs(j);
    free(j);
    size_t k = 0;
    while (k < n && strcmp(from[k], abs) != 0)
        k++;
    free(abs);
    if (k < n) {
        *old = el_xstrdup(file);
        *now = respell(file, dabs, to[k]);
    }
    free(dabs);
    return k;
}

/* A string value as it changes: "file" and an "arguments" item equal to
 * old become now, "command" has old replaced word by word; NULL: as is. */
static char *new_value(const char *key, bool in_args, const char *v, const char *old,
                       const char *now)
{
    if ((in_args || !strcmp(key, "file")) && !strcmp(v, old))
        return el_xstrdup(now);
    if (!in_args && !strcmp(key, "command")) {
        char *c = replace_word(v, old, now);
        if (strcmp(c, v))
            return c;
        free(c);
    }
    return NULL;
}

/* Past the JSON string that starts at s[i] (a '"'). */
static size_t string_end(const char *s, size_t i)
{
    for (i++; s[i] && s[i] != '"'; i++)
        if (s[i] == '\\' && s[i + 1])
            i++;
    return s[i] ? i + 1 : i;
}

/* The text with the changed strings replaced and every other byte kept
 * (layout, key order, escapes: the diff shows only what moved), or NULL
 * when its shape is not the array of objects json-c read. */
static char *edit_in_place(const char *text, char **olds, char **nows, size_t n_entries)
{
    el_buf o = {0};
    int depth = 0;
    size_t entry = 0;
    bool in_entry = false, expect_key = false, in_args = false;
    char key[32] = "";
    for (size_t i = 0; text[i];) {
        char c = text[i];
        if (c != '"') {
            if (c == '{' || c == '[') {
                depth++;
                if (depth == 2 && c == '{') {
                    in_entry = entry < n_entries;
                    expect_key = true;
                }
                in_args = depth == 3 && c == '[' && !strcmp(key, "arguments");
            } else if (c == '}' || c == ']') {
                depth--;
                if (depth == 1 && c == '}')
                    entry++;
                in_args = false;
            } else if (c == ',' && depth == 2) {
                expect_key = true;
            }
            el_buf_putc(&o, c);
            i++;
            continue;
        }
        size_t e = string_end(text, i);
        char *raw = el_xstrndup(text + i, e - i);
        json_object *js = json_tokener_parse(raw);
        const char *v = js && json_object_is_type(js, json_type_string) ? json_object_get_string(js)
                                                                         : NULL;
        char *repl = NULL;
        if (depth == 2 && expect_key) {
            snprintf(key, sizeof key, "%s", v ? v : "");
            expect_key = false;
        } else if (v && in_entry && olds[entry] && (depth == 2 || (depth == 3 && in_args))) {
            repl = new_value(key, depth == 3, v, olds[entry], nows[entry]);
        }
        if (repl) {
            json_object *r = json_object_new_string(repl);
            el_buf_puts(&o, json_object_to_json_string_ext(r, JSON_C_TO_STRING_NOSLASHESCAPE));
            json_object_put(r);
            free(repl);
        } else {
            el_buf_putn(&o, raw, e - i);
        }
        json_object_put(js);
        free(raw);
        i = e;
    }
    if (depth != 0 || entry != n_entries) {
        el_buf_free(&o);
        return NULL;
    }
    return el_buf_take(&o);
}

/* json-c's rendering of the database with each entry's paths changed:
 * when the text cannot be edited in place. */
static char *rewritten(json_object *root, char **olds, char **nows)
{
    for (size_t i = 0; i < json_object_array_length(root); i++) {
        json_object *e = json_object_array_get_idx(root, i);
        if (!olds[i])
            continue;
        json_object_object_add(e, "file", json_object_new_string(nows[i]));
        json_object *args = NULL;
        if (json_object_object_get_ex(e, "arguments", &args) &&
            json_object_is_type(args, json_type_array))
            for (size_t k = 0; k < json_object_array_length(args); k++) {
                const char *a = json_object_get_string(json_object_array_get_idx(args, k));
                if (a && !strcmp(a, olds[i]))
                    json_object_array_put_idx(args, k, json_object_new_string(nows[i]));
            }
        const char *cmd = jstr(e, "command");
        if (cmd) {
            char *c2 = replace_word(cmd, olds[i], nows[i]);
            json_object_object_add(e, "command", json_object_new_string(c2));
            free(c2);
        }
    }
    return el_xasprintf("%s\n", json_object_to_json_string_ext(
                                    root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
                                              JSON_C_TO_STRING_NOSLASHESCAPE));
}

char *em_compdb_moved(const char *text, char *const *from, char *const *to, size_t n,
                      size_t *count)
{
    *count = 0;
    json_object *root = json_tokener_parse(text);
    if (!root || !json_object_is_type(root, json_type_array)) {
        json_object_put(root);
        return NULL;
    }
    size_t ne = json_object_array_length(root);
    char **olds = el_xcalloc(ne + 1, sizeof *olds), **nows = el_xcalloc(ne + 1, sizeof *nows);
    bool *listed = el_xcalloc(n + 1, sizeof *listed);
    for (size_t i = 0; i < ne; i++) {
        json_object *e = json_object_array_get_idx(root, i);
        size_t k = json_object_is_type(e, json_type_object)
                       ? entry_move(e, from, to, n, &olds[i], &nows[i])
                       : n;
        if (k < n && !listed[k]) {
            listed[k] = true;
            (*count)++; /* files, not entries: a file built twice counts once */
        }
    }
    free(listed);
    char *out = NULL;
    if (*count) {
        out = edit_in_place(text, olds, nows, ne);
        if (!out)
            out = rewritten(root, olds, nows);
    }
    for (size_t i = 0; i < ne; i++) {
        free(olds[i]);
        free(nows[i]);
    }
    free(olds);
    free(nows);
    json_object_put(root);
    return out;
}

/* s as one shell word: as is when it needs no quoting, else in single
 * quotes ('\'' for a quote), so the printed command can be pasted. */
static char *shell_word(const char *s)
{
    if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+=:,@%") ==
                  strlen(s))
        return el_xstrdup(s);
    el_buf b = {0};
    el_buf_putc(&b, '\'');
    for (; *s; s++)
        if (*s == '\'')
            el_buf_puts(&b, "'\\''");
        else
            el_buf_putc(&b, *s);
    el_buf_putc(&b, '\'');
    return el_buf_take(&b);
}

char *em_compdb_regenerate(const char *dir)
{
    char *cache = el_path_join(dir, "CMakeCache.txt");
    FILE *f = fopen(cache, "r");
    free(cache);
    char line[4096], *src = NULL;
    while (f && !src && fgets(line, sizeof line, f))
        if (!strncmp(line, "CMAKE_HOME_DIRECTORY:INTERNAL=", 30)) {
            line[strcspn(line, "\n")] = '\0';
            src = el_xstrdup(line + 30);
        }
    if (f)
        fclose(f);
    char *d = shell_word(dir);
    if (src) {
        char *s = shell_word(src);
        char *cmd = el_xasprintf("cmake -S %s -B %s", s, d);
        free(s);
        free(src);
        free(d);
        return cmd;
    }
    char *meson = el_path_join(dir, "meson-info");
    bool is_meson = access(meson, F_OK) == 0;
    free(meson);
    char *cmd = is_meson ? el_xasprintf("meson setup --reconfigure %s", d) : NULL;
    free(d);
    return cmd;
}
